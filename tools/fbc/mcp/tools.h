// The tools `fbc mcp` offers (docs/mcp.md): one table, each tool with its
// arguments (from which its input JSON Schema is written and its arguments
// checked: one source for both), its output JSON Schema, and how it runs.
// Every tool runs an fbc command as a child process (child.h) and returns
// that command's JSON as structured content.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::tools::mcp {

enum class ArgType { String, Integer, Boolean };

struct ArgSpec {
  const char *name;
  ArgType type;
  bool required;
  const char *description;
};

struct ArgValue {
  ArgType type = ArgType::String;
  std::string s;
  int64_t i = 0;
  bool b = false;
};
using Args = std::map<std::string, ArgValue, std::less<>>;

// What a running tool may use of the server.
struct ToolContext {
  std::string fbc;                    // the fbc binary the children run
  std::string bundleDir;              // where run_test writes bundles
  std::function<void(pid_t)> onChild; // a child started (cancellation signals it)
  // Progress of a long call (run_test: rows done of total).
  std::function<void(uint64_t done, uint64_t total, const std::string &message)> progress;
  // run_test wrote a bundle (a new resource).
  std::function<void(const std::string &path)> bundleWritten;
};

struct ToolResult {
  bool isError = false;
  std::string structured; // a JSON object, compact; "" = none (errors)
  std::string text;       // the text content: the structured JSON, or the error
};

using ToolFn = ToolResult (*)(const Args &, const ToolContext &);

struct ToolSpec {
  const char *name;
  const char *title;
  const char *description;
  std::vector<ArgSpec> args;
  std::string outputSchema; // JSON text
  ToolFn run;
};

const std::vector<ToolSpec> &toolTable();
const ToolSpec *findTool(std::string_view name);
// {"type":"object","properties":{...},"required":[...],"additionalProperties":false}
std::string inputSchema(const ToolSpec &tool);

// The bundle's summary (`fbc inspect BUNDLE --format=json`), or one entry's
// bytes (`fbc inspect BUNDLE ENTRY`); exit status and output as the child's.
struct InspectOutput {
  bool ok = false;
  std::string out;   // the summary JSON (compact) or the entry's bytes
  std::string error; // when !ok
};
InspectOutput inspectBundle(const ToolContext &ctx, const std::string &bundle,
                            const std::string &entry);

} // namespace fbc::tools::mcp
