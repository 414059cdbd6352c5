// Small helpers for the JSON text `fbc mcp` sends: an object built member by
// member (strings escaped by ir::writeJsonString, embedded documents
// minified), and reading a child's JSON output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::tools::mcp {

// Builds one JSON object's text, compact (MCP's stdio transport is one
// message per line).
class JsonObject {
public:
  JsonObject &str(std::string_view key, std::string_view value);
  JsonObject &num(std::string_view key, int64_t value);
  JsonObject &boolean(std::string_view key, bool value);
  // `json` is already JSON text with no newline (minify() output, or built here).
  JsonObject &raw(std::string_view key, std::string_view json);
  std::string done() const { return text_ + "}"; }

private:
  void key(std::string_view k);
  std::string text_ = "{";
};

std::string jsonString(std::string_view s);

// "[" items joined by "," "]": each item already JSON text.
std::string jsonArray(const std::vector<std::string> &items);

// `text` parsed and written back compact; nullopt when it is not JSON, or
// (objectOnly) not a JSON object.
std::optional<std::string> minifyJson(std::string_view text, bool objectOnly = true);

} // namespace fbc::tools::mcp
