#include "tools/fbc/mcp/tools.h"

#include "tools/fbc/mcp/child.h"
#include "tools/fbc/mcp/json_text.h"

#include <simdjson.h>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace fbc::tools::mcp {

namespace {

// The arguments every spec tool takes first.
const ArgSpec kSpecArg{"spec", ArgType::String, true,
                       "Path of the spec file (.star), absolute or relative to the server's "
                       "working directory"};

const std::string *str(const Args &a, std::string_view k) {
  auto it = a.find(k);
  return it == a.end() ? nullptr : &it->second.s;
}
std::optional<int64_t> integer(const Args &a, std::string_view k) {
  auto it = a.find(k);
  return it == a.end() ? std::nullopt : std::optional<int64_t>(it->second.i);
}
bool flag(const Args &a, std::string_view k, bool otherwise = false) {
  auto it = a.find(k);
  return it == a.end() ? otherwise : it->second.b;
}

// Reads a member that may be absent (then `out` keeps its value).
template <typename T>
void readOptional(simdjson::simdjson_result<simdjson::dom::element> member, T &out) {
  if (member.get(out) != simdjson::SUCCESS)
    return;
}

ChildResult runFbc(const ToolContext &ctx, std::vector<std::string> args,
                   const std::function<void(const std::string &)> &onErrLine = {}) {
  args.insert(args.begin(), ctx.fbc);
  return runChild(args, ctx.onChild, onErrLine);
}

// A failed command: its stderr (or why it did not start) as the error text.
ToolResult failure(const ChildResult &c, const std::string &what) {
  ToolResult r;
  r.isError = true;
  std::string why = !c.spawnError.empty() ? c.spawnError : c.err;
  while (!why.empty() && why.back() == '\n')
    why.pop_back();
  r.text =
      what + " failed (exit " + std::to_string(c.exit) + ")" + (why.empty() ? "" : ":\n") + why;
  return r;
}

ToolResult structured(std::string json) {
  ToolResult r;
  r.text = json;
  r.structured = std::move(json);
  return r;
}

// A command whose stdout is JSON on the exit codes in `ok`: {exit_code,
// stderr, <key>: its JSON}.
ToolResult jsonCommand(const ToolContext &ctx, const std::vector<std::string> &args,
                       std::initializer_list<int> ok, const char *key) {
  ChildResult c = runFbc(ctx, args);
  std::optional<std::string> json = minifyJson(c.out);
  bool accepted = false;
  for (int e : ok)
    accepted |= c.exit == e;
  if (!accepted || !json)
    return failure(c, "fbc " + args.front());
  return structured(
      JsonObject().num("exit_code", c.exit).str("stderr", c.err).raw(key, *json).done());
}

ToolResult checkSpec(const Args &a, const ToolContext &ctx) {
  std::vector<std::string> args{"check", *str(a, "spec"), "--format=json"};
  if (flag(a, "strict"))
    args.push_back("--strict");
  if (auto n = integer(a, "max_instances"))
    args.insert(args.end(), {"--max-instances", std::to_string(*n)});
  return jsonCommand(ctx, args, {0, 1}, "check");
}

ToolResult plan(const Args &a, const ToolContext &ctx) {
  std::vector<std::string> args{"plan", *str(a, "spec"), "--format=json"};
  if (flag(a, "coverage"))
    args.push_back("--coverage");
  // Exit 1 with a plan on stdout: body errors (reported in diagnostics[]).
  return jsonCommand(ctx, args, {0, 1}, "plan");
}

ToolResult listTests(const Args &a, const ToolContext &ctx) {
  ChildResult c = runFbc(ctx, {"plan", *str(a, "spec"), "--format=json"});
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::array tests;
  if ((c.exit != 0 && c.exit != 1) || parser.parse(simdjson::padded_string(c.out)).get(root) ||
      root["tests"].get(tests))
    return failure(c, "fbc plan");
  std::vector<std::string> list;
  for (simdjson::dom::element t : tests) {
    std::string_view name, kind;
    int64_t instances = 0;
    bool estimated = false;
    readOptional(t["name"], name);
    readOptional(t["kind"], kind);
    readOptional(t["instances"], instances);
    readOptional(t["estimated"], estimated);
    list.push_back(JsonObject()
                       .str("name", name)
                       .str("kind", kind)
                       .num("leaves", instances)
                       .boolean("leaves_exact", !estimated)
                       .done());
  }
  int64_t total = 0;
  bool estimated = false;
  readOptional(root["totals"]["instances"], total);
  readOptional(root["totals"]["estimated"], estimated);
  return structured(JsonObject()
                        .str("spec", *str(a, "spec"))
                        .num("total_leaves", total)
                        .boolean("total_exact", !estimated)
                        .raw("tests", jsonArray(list))
                        .done());
}

// "fbc-progress 3/5 passed=2 failed=1 NAME" (fbc run --progress-lines).
void forwardProgress(const ToolContext &ctx, const std::string &line) {
  unsigned long long done = 0, total = 0;
  int consumed = 0;
  if (!ctx.progress ||
      std::sscanf(line.c_str(), "fbc-progress %llu/%llu %n", &done, &total, &consumed) < 2)
    return;
  ctx.progress(done, total, line.substr(std::string_view("fbc-progress ").size()));
}

std::string newBundlePath(const ToolContext &ctx) {
  static std::atomic<unsigned> counter{0};
  return ctx.bundleDir + "/mcp-run-" + std::to_string(std::time(nullptr)) + "-" +
         std::to_string(getpid()) + "-" + std::to_string(++counter) + ".fb";
}

ToolResult runTest(const Args &a, const ToolContext &ctx) {
  std::string bundle = newBundlePath(ctx);
  std::vector<std::string> args{"run",      *str(a, "spec"), "--format=json", "--progress-lines",
                                "--bundle", bundle};
  if (const std::string *t = str(a, "test"))
    args.insert(args.end(), {"--test", *t});
  if (auto leaf = integer(a, "leaf"))
    args.insert(args.end(), {"--leaf", std::to_string(*leaf)});
  if (auto seed = integer(a, "seed"))
    args.insert(args.end(), {"--seed", std::to_string(*seed)});
  if (const std::string *t = str(a, "timeout"))
    args.insert(args.end(), {"--timeout", *t});
  ChildResult c = runFbc(ctx, args, [&](const std::string &l) { forwardProgress(ctx, l); });
  // 0 passed, 2 a failure or error, 3 inconclusive, 130 interrupted: a
  // report; 1: the spec did not load or a flag was wrong.
  std::optional<std::string> report = minifyJson(c.out);
  if (!report || c.exit == 1)
    return failure(c, "fbc run");
  bool written = access(bundle.c_str(), F_OK) == 0;
  if (written && ctx.bundleWritten)
    ctx.bundleWritten(bundle);
  JsonObject o;
  o.num("exit_code", c.exit).boolean("passed", c.exit == 0);
  if (written)
    o.str("bundle", bundle).str("bundle_uri", "fbc-bundle://" + bundle);
  return structured(o.raw("report", *report).done());
}

ToolResult inspectTool(const Args &a, const ToolContext &ctx) {
  const std::string *file = str(a, "file");
  InspectOutput out = inspectBundle(ctx, *str(a, "bundle"), file ? *file : "");
  if (!out.ok) {
    ToolResult r;
    r.isError = true;
    r.text = out.error;
    return r;
  }
  JsonObject o;
  o.str("bundle", *str(a, "bundle"));
  if (file)
    o.str("file", *file).str("text", out.out);
  else
    o.raw("summary", out.out);
  return structured(o.done());
}

ToolResult diffBundles(const Args &a, const ToolContext &ctx) {
  std::vector<std::string> args{"diff", *str(a, "a"), *str(a, "b"), "--format=json"};
  if (flag(a, "normalize", true))
    args.push_back("--normalize");
  return jsonCommand(ctx, args, {0, 1}, "diff");
}

ToolResult suggest(const Args &a, const ToolContext &ctx) {
  ChildResult text = runFbc(ctx, {"plan", *str(a, "spec"), "--suggest"});
  if (text.exit != 0 && text.exit != 1)
    return failure(text, "fbc plan --suggest");
  ChildResult json = runFbc(ctx, {"plan", *str(a, "spec"), "--suggest", "--format=json"});
  simdjson::dom::parser parser;
  simdjson::dom::element root, coverage;
  if (parser.parse(simdjson::padded_string(json.out)).get(root) || root["coverage"].get(coverage))
    return failure(json, "fbc plan --suggest --format=json");
  // The stubs are what follows the coverage table: from the first "# " line.
  size_t at = text.out.find("\n# ");
  std::string stubs = at == std::string::npos ? "" : text.out.substr(at + 1);
  return structured(JsonObject()
                        .num("exit_code", text.exit)
                        .raw("coverage", simdjson::minify(coverage))
                        .str("stubs", stubs)
                        .done());
}

// Output schemas: what each tool's structured content always has (the
// embedded command JSON is documented with its command: docs/check.md,
// docs/plan.md, docs/run.md, docs/bundle.md).
constexpr const char *kCommandOut =
    R"({"type":"object","properties":{"exit_code":{"type":"integer"},"stderr":{"type":"string"},)"
    R"("%KEY%":{"type":"object"}},"required":["exit_code","stderr","%KEY%"]})";

std::string commandSchema(const char *key) {
  std::string s = kCommandOut;
  for (size_t at; (at = s.find("%KEY%")) != std::string::npos;)
    s.replace(at, 5, key);
  return s;
}

std::vector<ToolSpec> buildTable() {
  return {
      {"check_spec",
       "Check a spec",
       "Find a spec's mistakes without running it (fbc check): located findings with stable "
       "codes (docs/diagnostics.md) and suggestions. Never runs a test body or starts a service.",
       {kSpecArg,
        {"strict", ArgType::Boolean, false, "Vacuity findings are errors"},
        {"max_instances", ArgType::Integer, false,
         "PLAN_COST_EXCEEDED when the plan has more instances"}},
       commandSchema("check"),
       checkSpec},
      {"plan",
       "Plan a spec",
       "The static plan (fbc plan --format=json): every test with its leaf count and where it "
       "comes from, the total, the topology; with coverage, the dependency edges and which "
       "tests fault them. Runs nothing.",
       {kSpecArg, {"coverage", ArgType::Boolean, false, "Add the edge coverage"}},
       commandSchema("plan"),
       plan},
      {"list_tests",
       "List a spec's tests",
       "The spec's tests in plan order, each with its kind and leaf count (run_test's leaf "
       "argument is 0 .. leaves-1).",
       {kSpecArg},
       R"({"type":"object","properties":{"spec":{"type":"string"},"total_leaves":{"type":"integer"},)"
       R"("total_exact":{"type":"boolean"},"tests":{"type":"array","items":{"type":"object",)"
       R"("properties":{"name":{"type":"string"},"kind":{"type":"string"},"leaves":{"type":"integer"},)"
       R"("leaves_exact":{"type":"boolean"}},"required":["name","kind","leaves","leaves_exact"]}}},)"
       R"("required":["spec","total_leaves","total_exact","tests"]})",
       listTests},
      {"run_test",
       "Run tests",
       "Run the spec's tests, or one test, or one leaf of it, against real processes (fbc run "
       "--format=json): the JSON report (version 2) and the run bundle, which is then a "
       "resource. Progress notifications after each row when the call has a progressToken.",
       {kSpecArg,
        {"test", ArgType::String, false,
         "Only matching tests: a name, a name without test_, a glob, or ~regex"},
        {"leaf", ArgType::Integer, false, "Only this leaf of each selected test"},
        {"seed", ArgType::Integer, false, "Seed of every probabilistic rule (default: random)"},
        {"timeout", ArgType::String, false, "Body timeout per test, a Go duration (default 60s)"}},
       R"({"type":"object","properties":{"exit_code":{"type":"integer"},"passed":{"type":"boolean"},)"
       R"("bundle":{"type":"string"},"bundle_uri":{"type":"string"},"report":{"type":"object"}},)"
       R"("required":["exit_code","passed","report"]})",
       runTest},
      {"inspect_bundle",
       "Inspect a run bundle",
       "A run bundle's summary (fbc inspect --format=json: run, seed, spec, outcome counts, one "
       "row per test or leaf, the files), or the text of one of its files (e.g. trace.json).",
       {{"bundle", ArgType::String, true, "Path of the bundle (.fb)"},
        {"file", ArgType::String, false, "One entry of the bundle to return as text"}},
       R"({"type":"object","properties":{"bundle":{"type":"string"},"summary":{"type":"object"},)"
       R"("file":{"type":"string"},"text":{"type":"string"}},"required":["bundle"]})",
       inspectTool},
      {"diff_bundles",
       "Compare two run bundles",
       "Which rows (tests, leaves) changed outcome or trace between two bundles and the first "
       "event where their traces part (fbc diff --format=json).",
       {{"a", ArgType::String, true, "The first bundle (.fb)"},
        {"b", ArgType::String, true, "The second bundle (.fb)"},
        {"normalize", ArgType::Boolean, false,
         "Leave pids, measured times, ports and temporary paths out (default true)"}},
       commandSchema("diff"),
       diffBundles},
      {"suggest",
       "Suggest fault tests",
       "The dependency edges no test faults and a fault_scenario stub for each (fbc plan "
       "--suggest).",
       {kSpecArg},
       R"({"type":"object","properties":{"exit_code":{"type":"integer"},"coverage":{"type":"object"},)"
       R"("stubs":{"type":"string"}},"required":["exit_code","coverage","stubs"]})",
       suggest},
  };
}

} // namespace

const std::vector<ToolSpec> &toolTable() {
  static const std::vector<ToolSpec> table = buildTable();
  return table;
}

const ToolSpec *findTool(std::string_view name) {
  for (const ToolSpec &t : toolTable())
    if (name == t.name)
      return &t;
  return nullptr;
}

std::string inputSchema(const ToolSpec &tool) {
  JsonObject props;
  std::vector<std::string> required;
  for (const ArgSpec &a : tool.args) {
    const char *type = a.type == ArgType::String    ? "string"
                       : a.type == ArgType::Integer ? "integer"
                                                    : "boolean";
    props.raw(a.name, JsonObject().str("type", type).str("description", a.description).done());
    if (a.required)
      required.push_back(jsonString(a.name));
  }
  return JsonObject()
      .str("type", "object")
      .raw("properties", props.done())
      .raw("required", jsonArray(required))
      .boolean("additionalProperties", false)
      .done();
}

InspectOutput inspectBundle(const ToolContext &ctx, const std::string &bundle,
                            const std::string &entry) {
  std::vector<std::string> args{"inspect", bundle};
  if (entry.empty())
    args.push_back("--format=json");
  else
    args.push_back(entry);
  ChildResult c = runFbc(ctx, args);
  InspectOutput r;
  if (c.exit != 0 || !c.spawnError.empty()) {
    r.error = failure(c, "fbc inspect").text;
    return r;
  }
  if (entry.empty()) {
    std::optional<std::string> json = minifyJson(c.out);
    if (!json) {
      r.error = "fbc inspect --format=json printed no JSON object";
      return r;
    }
    r.out = *json;
  } else {
    r.out = std::move(c.out);
  }
  r.ok = true;
  return r;
}

} // namespace fbc::tools::mcp
