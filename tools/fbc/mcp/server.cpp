#include "tools/fbc/mcp/server.h"

#include "tools/fbc/mcp/child.h"
#include "tools/fbc/mcp/json_text.h"
#include "tools/fbc/mcp/tools.h"

#include <simdjson.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace fbc::tools::mcp {

const char *const kProtocolVersions[4] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

namespace {

// JSON-RPC 2.0 and MCP error codes.
enum ErrorCode {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kResourceNotFound = -32002,
};

constexpr size_t kMaxMessage = 64u << 20;
constexpr std::string_view kBundleScheme = "fbc-bundle://";

struct Failure {
  int code;
  std::string message;
};

// A tools/call in flight.
struct Call {
  std::atomic<pid_t> child{-1};
  std::atomic<bool> cancelled{false};
  std::atomic<bool> answered{false}; // its thread is done with it
};

class Server {
public:
  Server(int outFd, const ServerOptions &opts) : outFd_(outFd), opts_(opts) {
    // The params of a message without any: an empty object (kept alive by
    // its own parser, as parser_ is reused for every line).
    if (emptyParser_.parse(simdjson::padded_string(std::string_view("{}"))).get(noParams_))
      std::abort(); // "{}" always parses
  }
  ~Server() {
    for (auto &[thread, call] : threads_)
      thread.join();
  }
  void handleLine(std::string_view line);
  void tooLarge() {
    respondError("null", {kInvalidRequest, "Invalid Request: a message larger than " +
                                               std::to_string(kMaxMessage >> 20) + " MiB"});
  }

private:
  void send(const std::string &message);
  void respond(const std::string &id, const std::string &result) {
    send(JsonObject().str("jsonrpc", "2.0").raw("id", id).raw("result", result).done());
  }
  void respondError(const std::string &id, const Failure &f) {
    send(JsonObject()
             .str("jsonrpc", "2.0")
             .raw("id", id)
             .raw("error", JsonObject().num("code", f.code).str("message", f.message).done())
             .done());
  }
  void notify(std::string_view method, const std::string &params) {
    send(JsonObject().str("jsonrpc", "2.0").str("method", method).raw("params", params).done());
  }

  void request(const std::string &id, std::string_view method, simdjson::dom::object params);
  void notification(std::string_view method, simdjson::dom::object params);
  std::string initialize(simdjson::dom::object params);
  std::string toolsList();
  void toolsCall(const std::string &id, simdjson::dom::object params);
  std::string resourcesList();
  std::string resourcesRead(simdjson::dom::object params);
  std::string resourceTemplates();
  ToolContext context(const std::shared_ptr<Call> &call, const std::string &progressToken);

  int outFd_;
  ServerOptions opts_;
  simdjson::dom::parser parser_;
  simdjson::dom::parser emptyParser_;
  simdjson::dom::object noParams_;
  std::mutex writeMu_;
  bool outputClosed_ = false;
  std::mutex callsMu_;
  std::map<std::string, std::shared_ptr<Call>> calls_; // by request id (JSON text)
  std::set<std::string> sessionBundles_;               // under callsMu_
  // Each call's thread (touched by the reading thread only); joined when
  // the next call starts, so a long session does not keep every finished
  // thread's stack.
  std::vector<std::pair<std::thread, std::shared_ptr<Call>>> threads_;
};

void Server::send(const std::string &message) {
  std::lock_guard<std::mutex> lock(writeMu_);
  if (outputClosed_)
    return;
  std::string line = message + "\n";
  for (size_t done = 0; done < line.size();) {
    ssize_t n = write(outFd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      outputClosed_ = true; // the client went away: nothing more to say
      return;
    }
    done += static_cast<size_t>(n);
  }
}

void Server::handleLine(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos)
    return;
  simdjson::dom::element root;
  if (auto err = parser_.parse(simdjson::padded_string(line)).get(root))
    return respondError("null",
                        {kParseError, std::string("Parse error: ") + simdjson::error_message(err)});
  simdjson::dom::object msg;
  if (root.get(msg))
    return respondError("null",
                        {kInvalidRequest, root.is_array() ? "Invalid Request: batches are not "
                                                            "supported (one message per line)"
                                                          : "Invalid Request: not an object"});
  std::string id;
  simdjson::dom::element idElement;
  bool hasId = !msg["id"].get(idElement);
  if (hasId) {
    if (!idElement.is_string() && !idElement.is_int64() && !idElement.is_uint64())
      return respondError("null",
                          {kInvalidRequest, "Invalid Request: id must be a string or an integer"});
    id = simdjson::minify(idElement);
  }
  std::string_view version, method;
  if (msg["jsonrpc"].get(version) || version != "2.0")
    return respondError(hasId ? id : "null",
                        {kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\""});
  if (msg["method"].get(method)) {
    simdjson::dom::element ignored;
    if (hasId && (!msg["result"].get(ignored) || !msg["error"].get(ignored)))
      return; // a response: fbc sends no requests, so none is awaited
    return respondError(hasId ? id : "null", {kInvalidRequest, "Invalid Request: no method"});
  }
  simdjson::dom::object params = noParams_;
  simdjson::dom::element paramsElement;
  if (!msg["params"].get(paramsElement) && paramsElement.get(params)) {
    if (hasId)
      respondError(id, {kInvalidParams, "Invalid params: params must be an object"});
    return;
  }
  if (!hasId)
    return notification(method, params);
  request(id, method, params);
}

void Server::notification(std::string_view method, simdjson::dom::object params) {
  if (method != "notifications/cancelled")
    return; // notifications/initialized and the rest need nothing
  simdjson::dom::element requestId;
  if (params.at_key("requestId").get(requestId))
    return;
  std::lock_guard<std::mutex> lock(callsMu_);
  auto it = calls_.find(simdjson::minify(requestId));
  if (it == calls_.end())
    return;
  it->second->cancelled = true;
  if (pid_t pid = it->second->child; pid > 0)
    kill(pid, SIGINT); // fbc run stops its services and exits 130
}

void Server::request(const std::string &id, std::string_view method, simdjson::dom::object params) {
  try {
    if (method == "initialize")
      return respond(id, initialize(params));
    if (method == "ping")
      return respond(id, "{}");
    if (method == "tools/list")
      return respond(id, toolsList());
    if (method == "tools/call")
      return toolsCall(id, params);
    if (method == "resources/list")
      return respond(id, resourcesList());
    if (method == "resources/templates/list")
      return respond(id, resourceTemplates());
    if (method == "resources/read")
      return respond(id, resourcesRead(params));
    respondError(id, {kMethodNotFound, "Method not found: " + std::string(method)});
  } catch (const Failure &f) {
    respondError(id, f);
  } catch (const std::exception &e) {
    respondError(id, {kInternalError, std::string("Internal error: ") + e.what()});
  }
}

std::string Server::initialize(simdjson::dom::object params) {
  std::string_view asked;
  const char *version = kProtocolVersions[0];
  if (!params.at_key("protocolVersion").get(asked))
    for (const char *v : kProtocolVersions)
      if (asked == v)
        version = v;
  return JsonObject()
      .str("protocolVersion", version)
      .raw("capabilities", R"({"tools":{"listChanged":false},"resources":{"listChanged":true}})")
      .raw("serverInfo", JsonObject()
                             .str("name", "fbc")
                             .str("title", "fbc: fault-injection specs")
                             .str("version", FBC_VERSION)
                             .done())
      .str("instructions",
           "Tools take a spec path (.star): check_spec and plan read it without running "
           "anything, list_tests names its tests and leaves, run_test runs them against real "
           "processes and writes a run bundle (a resource, fbc-bundle://PATH), inspect_bundle "
           "and diff_bundles read bundles, suggest proposes fault tests for uncovered edges.")
      .done();
}

std::string Server::toolsList() {
  std::vector<std::string> tools;
  for (const ToolSpec &t : toolTable())
    tools.push_back(JsonObject()
                        .str("name", t.name)
                        .str("title", t.title)
                        .str("description", t.description)
                        .raw("inputSchema", inputSchema(t))
                        .raw("outputSchema", t.outputSchema)
                        .done());
  return JsonObject().raw("tools", jsonArray(tools)).done();
}

// The arguments checked against the tool's table: unknown, missing and
// mistyped arguments are invalid params.
Args readArgs(const ToolSpec &tool, simdjson::dom::object params) {
  Args args;
  simdjson::dom::element argsElement;
  simdjson::dom::object given = {};
  bool hasArgs = !params.at_key("arguments").get(argsElement) && !argsElement.is_null();
  if (hasArgs && argsElement.get(given))
    throw Failure{kInvalidParams, "Invalid params: arguments must be an object"};
  if (hasArgs)
    for (auto [key, value] : given) {
      auto spec = std::find_if(tool.args.begin(), tool.args.end(),
                               [&](const ArgSpec &a) { return key == a.name; });
      if (spec == tool.args.end()) {
        std::string names;
        for (const ArgSpec &a : tool.args)
          names += (names.empty() ? "" : ", ") + std::string(a.name);
        throw Failure{kInvalidParams, "Invalid params: tool " + std::string(tool.name) +
                                          " has no argument \"" + std::string(key) +
                                          "\" (arguments: " + names + ")"};
      }
      ArgValue v;
      v.type = spec->type;
      std::string_view text;
      bool ok = spec->type == ArgType::String    ? !value.get(text)
                : spec->type == ArgType::Integer ? !value.get(v.i)
                                                 : !value.get(v.b);
      v.s = std::string(text);
      if (!ok)
        throw Failure{kInvalidParams, "Invalid params: argument \"" + std::string(key) +
                                          "\" must be " +
                                          (spec->type == ArgType::String    ? "a string"
                                           : spec->type == ArgType::Integer ? "an integer"
                                                                            : "a boolean")};
      args[std::string(key)] = std::move(v);
    }
  for (const ArgSpec &a : tool.args)
    if (a.required && !args.count(a.name))
      throw Failure{kInvalidParams, "Invalid params: tool " + std::string(tool.name) +
                                        " requires argument \"" + a.name + "\""};
  return args;
}

ToolContext Server::context(const std::shared_ptr<Call> &call, const std::string &progressToken) {
  ToolContext ctx;
  ctx.fbc = selfExecutable();
  ctx.bundleDir = opts_.bundleDir;
  ctx.onChild = [call](pid_t pid) {
    call->child = pid;
    if (call->cancelled)
      kill(pid, SIGINT);
  };
  if (!progressToken.empty())
    ctx.progress = [this, progressToken](uint64_t done, uint64_t total, const std::string &m) {
      notify("notifications/progress", JsonObject()
                                           .raw("progressToken", progressToken)
                                           .num("progress", static_cast<int64_t>(done))
                                           .num("total", static_cast<int64_t>(total))
                                           .str("message", m)
                                           .done());
    };
  ctx.bundleWritten = [this](const std::string &path) {
    {
      std::lock_guard<std::mutex> lock(callsMu_);
      sessionBundles_.insert(path);
    }
    notify("notifications/resources/list_changed", "{}");
  };
  return ctx;
}

std::string toolResultJson(const ToolResult &r) {
  JsonObject o;
  o.raw("content", jsonArray({JsonObject().str("type", "text").str("text", r.text).done()}));
  if (!r.structured.empty())
    o.raw("structuredContent", r.structured);
  return o.boolean("isError", r.isError).done();
}

void Server::toolsCall(const std::string &id, simdjson::dom::object params) {
  std::string_view name;
  if (params.at_key("name").get(name))
    throw Failure{kInvalidParams, "Invalid params: tools/call needs a tool name"};
  const ToolSpec *tool = findTool(name);
  if (!tool)
    throw Failure{kInvalidParams, "Invalid params: unknown tool \"" + std::string(name) + "\""};
  Args args = readArgs(*tool, params);
  std::string token;
  simdjson::dom::element tokenElement;
  if (!params.at_pointer("/_meta/progressToken").get(tokenElement) &&
      (tokenElement.is_string() || tokenElement.is_int64()))
    token = simdjson::minify(tokenElement);
  auto call = std::make_shared<Call>();
  {
    std::lock_guard<std::mutex> lock(callsMu_);
    if (calls_.count(id))
      throw Failure{kInvalidRequest, "Invalid Request: id " + id + " is already in use"};
    calls_[id] = call;
  }
  ToolContext ctx = context(call, token);
  std::erase_if(threads_, [](auto &t) {
    if (!t.second->answered)
      return false;
    t.first.join();
    return true;
  });
  std::thread thread([this, tool, args = std::move(args), ctx, call, id] {
    ToolResult r = tool->run(args, ctx);
    {
      std::lock_guard<std::mutex> lock(callsMu_);
      calls_.erase(id);
    }
    if (!call->cancelled) // a cancelled request gets no response
      respond(id, toolResultJson(r));
    call->answered = true;
  });
  threads_.emplace_back(std::move(thread), call);
}

bool isBundle(const std::string &path) {
  struct stat st {};
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".fb") == 0 &&
         stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string Server::resourcesList() {
  std::set<std::string> paths;
  if (DIR *d = opendir(opts_.bundleDir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string path = opts_.bundleDir + "/" + e->d_name;
      if (isBundle(path))
        paths.insert(path);
    }
    closedir(d);
  }
  {
    std::lock_guard<std::mutex> lock(callsMu_);
    for (const std::string &p : sessionBundles_)
      if (isBundle(p))
        paths.insert(p);
  }
  std::vector<std::string> list;
  for (const std::string &p : paths)
    list.push_back(JsonObject()
                       .str("uri", std::string(kBundleScheme) + p)
                       .str("name", p.substr(p.rfind('/') + 1))
                       .str("description", "Run bundle " + p + ": its summary (fbc inspect)")
                       .str("mimeType", "application/json")
                       .done());
  return JsonObject().raw("resources", jsonArray(list)).done();
}

std::string Server::resourceTemplates() {
  return JsonObject()
      .raw("resourceTemplates",
           jsonArray({JsonObject()
                          .str("uriTemplate", "fbc-bundle://{+path}")
                          .str("name", "bundle")
                          .str("title", "A run bundle's summary")
                          .str("description", "fbc inspect --format=json of the bundle at an "
                                              "absolute path")
                          .str("mimeType", "application/json")
                          .done(),
                      JsonObject()
                          .str("uriTemplate", "fbc-bundle://{+path}?entry={entry}")
                          .str("name", "bundle-entry")
                          .str("title", "One file of a run bundle")
                          .str("description", "The bytes of one entry (manifest.json, trace.json, "
                                              "services/NAME.log, spec/...) of the bundle")
                          .done()}))
      .done();
}

std::string mimeTypeOf(const std::string &entry) {
  auto endsWith = [&](std::string_view s) {
    return entry.size() >= s.size() && entry.compare(entry.size() - s.size(), s.size(), s) == 0;
  };
  if (endsWith(".json"))
    return "application/json";
  if (endsWith(".sh"))
    return "text/x-shellscript";
  return "text/plain";
}

std::string Server::resourcesRead(simdjson::dom::object params) {
  std::string_view uriView;
  if (params.at_key("uri").get(uriView))
    throw Failure{kInvalidParams, "Invalid params: resources/read needs a uri"};
  std::string uri(uriView);
  if (uri.rfind(kBundleScheme, 0) != 0)
    throw Failure{kResourceNotFound,
                  "Resource not found: " + uri + " (resources are fbc-bundle://PATH)"};
  std::string path = uri.substr(kBundleScheme.size()), entry;
  if (size_t q = path.find("?entry="); q != std::string::npos) {
    entry = path.substr(q + 7);
    path.resize(q);
  }
  if (path.empty() || path.front() != '/' || !isBundle(path))
    throw Failure{kResourceNotFound, "Resource not found: " + uri};
  InspectOutput out = inspectBundle(context(std::make_shared<Call>(), ""), path, entry);
  if (!out.ok)
    throw Failure{kInternalError, out.error};
  std::string content = JsonObject()
                            .str("uri", uri)
                            .str("mimeType", entry.empty() ? "application/json" : mimeTypeOf(entry))
                            .str("text", out.out)
                            .done();
  return JsonObject().raw("contents", jsonArray({content})).done();
}

} // namespace

int serve(int inFd, int outFd, const ServerOptions &opts) {
  signal(SIGPIPE, SIG_IGN); // a client gone away is a failed write, not a death
  Server server(outFd, opts);
  std::string buffer;
  bool oversized = false; // discarding a message past kMaxMessage
  char chunk[65536];
  for (;;) {
    ssize_t n = read(inFd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    buffer.append(chunk, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = buffer.find('\n', start)) != std::string::npos; start = nl + 1) {
      if (!oversized)
        server.handleLine(std::string_view(buffer).substr(start, nl - start));
      oversized = false;
    }
    buffer.erase(0, start);
    if (buffer.size() > kMaxMessage) {
      if (!oversized)
        server.tooLarge();
      oversized = true;
      buffer.clear();
    }
  }
  if (!oversized)
    server.handleLine(buffer); // a last message without its newline
  return 0;
}

} // namespace fbc::tools::mcp
