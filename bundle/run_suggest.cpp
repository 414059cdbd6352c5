// `fbc plan --suggest --from`: see run_suggest.h.
#include "bundle/run_suggest.h"

#include "bundle/inspect.h"
#include "bundle/trace_reader.h"
#include "ir/json_writer.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "ir/syscalls.h"
#include "runtime/rules/path_glob.h"
#include "runtime/rules/rules.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace fbc::bundle {

namespace {

// The family keyword a syscall belongs to ("pwrite64" -> "write", "openat"
// -> "open"), read from ir/syscalls' one family table; the name itself when
// no family holds it.
std::string familyOf(std::string_view syscall) {
  for (std::string_view kw : ir::syscallKeywords())
    for (std::string_view member : ir::syscallFamily(kw))
      if (member == syscall)
        return std::string(kw);
  return std::string(syscall);
}

// The errno a stub denies: what the call fails with when its resource gives
// out (a full disk, an I/O error; a refused or reset peer on a socket).
std::string_view stubErrno(std::string_view family, bool onFile) {
  if (family == "connect")
    return "ECONNREFUSED";
  if (family == "open")
    return "EACCES";
  if (!onFile && family != "close")
    return "ECONNRESET";
  return family == "write" ? "ENOSPC" : "EIO";
}

// A stub's variable name: lower case ("GET" -> "get"), as a Starlark
// identifier.
std::string identifier(std::string_view name) {
  return ir::starlarkIdentifier(llvm::StringRef(name).lower());
}

// Calls (or requests) on one target and the tests that made them.
struct Use {
  uint64_t calls = 0;
  std::set<std::string> tests;
  bool file = false; // calls on files (a syscall stub then names the path)
  void add(const Use &u) {
    calls += u.calls;
    tests.insert(u.tests.begin(), u.tests.end());
    file |= u.file;
  }
};

// Targets that differ only in their last part, `sep`-separated, become one
// ("pg_wal/000001", "pg_wal/000002" -> "pg_wal/*"; "user:1", "user:2" ->
// "user:*"); a lone one keeps its name. `keepParent`: the group keeps the
// whole parent ("/kv/*"), else only its last part ("pg_wal/*", "kv.wal").
std::map<std::string, Use> grouped(const std::map<std::string, Use> &targets, char sep,
                                   bool keepParent) {
  std::map<std::string, std::set<std::string>> byParent;
  for (const auto &[t, u] : targets)
    if (size_t at = t.rfind(sep); at != std::string::npos)
      byParent[t.substr(0, at)].insert(t);
  std::map<std::string, Use> out;
  for (const auto &[t, u] : targets) {
    size_t at = t.rfind(sep);
    std::string group = t;
    if (at != std::string::npos) {
      std::string parent = t.substr(0, at);
      std::string shown = parent;
      if (!keepParent)
        shown = parent.substr(parent.rfind(sep) == std::string::npos ? 0 : parent.rfind(sep) + 1);
      group = byParent[parent].size() > 1 ? shown + sep + "*" : keepParent ? t : t.substr(at + 1);
    }
    out[group].add(u);
  }
  return out;
}

// What the spec and the run fault: syscall rules by service (family, path
// glob) and the interfaces protocol rules target.
struct Faulted {
  std::multimap<std::pair<std::string, std::string>, std::unique_ptr<rt::PathGlob>> syscalls;
  std::set<std::string> interfaces; // "api.public"

  void addSyscall(const std::string &service, std::string_view syscall, const std::string &path) {
    syscalls.emplace(std::pair(service, familyOf(syscall)), std::make_unique<rt::PathGlob>(path));
  }
  bool syscall(const std::string &service, const std::string &family,
               std::string_view target) const {
    auto [b, e] = syscalls.equal_range({service, family});
    for (auto it = b; it != e; ++it)
      if (it->second->empty() || it->second->matches(target))
        return true;
    return false;
  }
};

Faulted faultedBy(const ir::Spec &spec, const std::vector<TraceRow> &rows) {
  Faulted f;
  for (const ir::FaultAssumption &a : spec.assumptions) {
    if (!a.target.valid())
      continue;
    if (!a.target.interface.empty() || !a.proxyRules.empty())
      f.interfaces.insert(a.target.service + "." + a.target.interface);
    for (const ir::FaultRule &r : a.rules) {
      if (r.op.empty())
        f.addSyscall(a.target.service, r.keyword, r.fault.path);
      for (const std::string &s : r.op.empty() ? std::vector<std::string>{} : r.syscalls)
        f.addSyscall(a.target.service, s, r.fault.path);
    }
  }
  // What the bodies faulted (fault(), fault_start(), ...), as the run saw it.
  for (const TraceRow &row : rows)
    for (const TraceEventRow &e : row.events) {
      if (e.type == "fault_applied")
        f.addSyscall(e.service, e.field("syscall"), std::string(e.field("path")));
      else if (e.type == "proxy_fault_applied")
        f.interfaces.insert(e.service + "." + std::string(e.field("interface")));
    }
  return f;
}

// "127.0.0.1:7001" -> the service and interface listening on that port.
const ir::Service *serviceAt(const ir::Spec &spec, std::string_view dest, std::string &iface) {
  size_t colon = dest.rfind(':');
  if (colon == std::string_view::npos)
    return nullptr;
  std::string port(dest.substr(colon + 1));
  for (const ir::Service &s : spec.services)
    for (const ir::Interface &i : s.interfaces)
      if (std::to_string(i.port) == port) {
        iface = i.name;
        return &s;
      }
  return nullptr;
}

std::string globalOf(const ir::Spec &spec, const std::string &service) {
  const ir::Service *s = spec.findService(service);
  return s && !s->globals.empty() ? s->globals.front()
                                  : service + "  # TODO: the service's variable";
}

// One operation family before grouping: (kind, service, operation) -> targets.
using Key = std::tuple<std::string, std::string, std::string>;

void addSyscallUses(const ir::Spec &spec, const TraceRow &row, const Faulted &faulted,
                    std::map<Key, std::map<std::string, Use>> &uses) {
  for (const auto &[svc, ops] : row.operations)
    for (const TraceOperation &op : ops) {
      std::string family = familyOf(op.syscall);
      if (op.target.empty() || op.target == "*" || rt::isSystemPath(op.target))
        continue;
      std::string owner = svc, target = op.target;
      if (family == "connect" || family == "sendto") {
        // A connection is faulted on the service it reaches (a connect rule
        // on it refuses its callers) or on the caller itself.
        std::string iface;
        if (const ir::Service *to = serviceAt(spec, op.target, iface)) {
          if (faulted.syscall(to->name, family, "") || faulted.syscall(svc, family, op.target))
            continue;
          owner = to->name;
          target = svc + " -> " + to->name + "." + iface;
        } else {
          continue; // another host, a Unix socket: nothing a connect rule names
        }
      } else if (op.target.front() != '/') {
        // Reads and writes on sockets and pipes: a connection is faulted at
        // connect or through the proxy, and how a stream splits into calls
        // varies from run to run.
        continue;
      }
      if (owner == svc && faulted.syscall(svc, family, op.target))
        continue;
      Use &u = uses[{"syscall", owner, family}][target];
      u.calls += op.calls;
      u.tests.insert(row.name);
      u.file = target.front() == '/';
    }
}

// How the protocol table says `protocol`'s steps name their requests.
ir::StepRequest stepRequestOf(std::string_view protocol) {
  const ir::Protocol *p = ir::findProtocol(protocol);
  return p ? p->stepRequest : ir::StepRequest::None;
}

// A step's request on an interface: its operation and target by protocol
// (HTTP method and path, a command and its key, a SQL query, a message's
// subject); false for a step no protocol rule can match (a TCP send, a
// NATS subscribe).
bool requestOf(const TraceEventRow &e, std::string &op, std::string &target) {
  switch (stepRequestOf(e.field("protocol"))) {
  case ir::StepRequest::MethodAndPath:
    op = llvm::StringRef(e.field("method")).upper();
    target = std::string(e.field("path"));
    return !target.empty();
  case ir::StepRequest::CommandLine: {
    std::string_view cmd = e.field("command");
    size_t sp = cmd.find(' ');
    op = llvm::StringRef(cmd.substr(0, sp)).upper();
    target = sp == std::string_view::npos ? "" : std::string(cmd.substr(sp + 1));
    target = target.substr(0, target.find(' '));
    return !op.empty();
  }
  case ir::StepRequest::Sql:
    op = "query";
    target = std::string(e.field("sql"));
    return !target.empty();
  case ir::StepRequest::Subject: // a request publishes as a publish does
    op = "publish";
    target = std::string(e.field("subject"));
    return e.field("method") != "subscribe" && !target.empty();
  case ir::StepRequest::None:
    break;
  }
  return false;
}

void addRequestUses(const TraceRow &row, const Faulted &faulted,
                    std::map<Key, std::map<std::string, Use>> &uses) {
  for (const TraceEventRow &e : row.events) {
    std::string op, target;
    if (e.type != "step_send" || !requestOf(e, op, target))
      continue;
    std::string on = std::string(e.field("target")) + "." + std::string(e.field("interface"));
    if (faulted.interfaces.count(on))
      continue;
    Use &u = uses[{"request:" + std::string(e.field("protocol")), on, op}][target];
    ++u.calls;
    u.tests.insert(row.name);
  }
}

// `tests`: a suggestion's, sorted.
std::string testsLine(const std::vector<std::string> &tests) {
  std::string s = "# exercised by:";
  size_t n = 0;
  for (const std::string &t : tests) {
    if (n++ == 3) {
      s += " and " + std::to_string(tests.size() - 3) + " more";
      break;
    }
    s += (n > 1 ? ", " : " ") + t;
  }
  return s + "\n";
}

std::string plural(uint64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void syscallStub(const ir::Spec &spec, bool onFile, RunSuggestion &s,
                 std::set<std::string> &names) {
  bool connection = s.target.find(" -> ") != std::string::npos;
  std::string what =
      connection ? " to " + s.target.substr(s.target.find(" -> ") + 4) : " on " + s.target;
  std::string by = connection ? s.target.substr(0, s.target.find(" -> ")) : s.service;
  s.evidence = by + ": " + s.operation + what + ", " + plural(s.calls, "call", "calls") + " in " +
               plural(s.tests.size(), "test", "tests") + ", never faulted";
  std::string name = identifier(s.service + "_" + s.operation + "_fails");
  for (int k = 2; !names.insert(name).second; ++k)
    name = identifier(s.service + "_" + s.operation + "_fails_" + std::to_string(k));
  std::string args = ir::quote(stubErrno(s.operation, onFile));
  if (onFile)
    args += ", path = " + ir::quote("**/" + s.target);
  s.stub = name + " = fault_assumption(" + ir::quote(name) +
           ",\n    target = " + globalOf(spec, s.service) + ",\n    " + s.operation + " = deny(" +
           args + "),\n)\n" + testsLine(s.tests);
}

void requestStub(const ir::Spec &spec, const std::string &protocol, RunSuggestion &s,
                 std::set<std::string> &names) {
  ir::StepRequest shape = stepRequestOf(protocol);
  auto [unit, units] = shape == ir::StepRequest::MethodAndPath ? std::pair("request", "requests")
                       : shape == ir::StepRequest::Subject     ? std::pair("message", "messages")
                                                               : std::pair("command", "commands");
  std::string shown = s.operation == "query" ? "query " + ir::quote(s.target)
                      : s.target.empty()     ? s.operation
                                             : s.operation + " " + s.target;
  s.evidence = s.service + ": " + shown + ", " + plural(s.calls, unit, units) + " in " +
               plural(s.tests.size(), "test", "tests") + ", never faulted";
  std::string matchers;
  if (s.operation == "query")
    matchers = "query = " + ir::quote(s.target);
  else if (shape == ir::StepRequest::MethodAndPath)
    matchers = "method = " + ir::quote(s.operation) + ", path = " + ir::quote(s.target);
  else if (shape == ir::StepRequest::Subject)
    matchers = "subject = " + ir::quote(s.target);
  else
    matchers = "command = " + ir::quote(s.operation) +
               (s.target.empty() ? "" : ", key = " + ir::quote(s.target));
  std::string svc = s.service.substr(0, s.service.find('.'));
  std::string iface = s.service.substr(s.service.find('.') + 1);
  std::string name = identifier(svc + "_" + iface + "_" + s.operation + "_errors");
  for (int k = 2; !names.insert(name).second; ++k)
    name = identifier(svc + "_" + iface + "_" + s.operation + "_errors_" + std::to_string(k));
  s.stub = name + " = fault_assumption(" + ir::quote(name) +
           ",\n    target = " + globalOf(spec, svc) + "." + iface + ",\n    rules  = [error(" +
           matchers + ")],\n)\n" + testsLine(s.tests);
}

} // namespace

llvm::Expected<RunSuggestions> suggestFromRun(const ir::Spec &spec, const std::string &bundlePath) {
  llvm::Expected<OpenedBundle> b = openBundle(bundlePath);
  if (!b)
    return b.takeError();
  llvm::Expected<std::vector<TraceRow>> rows = readTraceRows(*b);
  if (!rows)
    return rows.takeError();
  RunSuggestions out;
  out.bundle = bundlePath;
  Faulted faulted = faultedBy(spec, *rows);
  std::map<Key, std::map<std::string, Use>> uses;
  for (const TraceRow &row : *rows) {
    out.operationsRecorded |= !row.operations.empty();
    if (row.result != "pass")
      continue;
    ++out.passingRows;
    addSyscallUses(spec, row, faulted, uses);
    addRequestUses(row, faulted, uses);
  }
  std::set<std::string> names;
  for (const auto &[key, targets] : uses) {
    const auto &[kind, service, operation] = key;
    bool syscall = kind == "syscall";
    std::string protocol = syscall ? "" : kind.substr(kind.find(':') + 1);
    ir::StepRequest shape = syscall ? ir::StepRequest::None : stepRequestOf(protocol);
    char sep = syscall || shape == ir::StepRequest::MethodAndPath ? '/'
               : shape == ir::StepRequest::Subject                ? '.'
                                                                  : ':';
    bool exact = shape == ir::StepRequest::Sql;
    std::map<std::string, Use> groups =
        exact ? targets : grouped(targets, sep, /*keepParent=*/!syscall);
    for (const auto &[target, use] : groups) {
      RunSuggestion s;
      s.kind = syscall ? "syscall" : "request";
      s.service = service;
      s.operation = operation;
      s.target = target;
      s.calls = use.calls;
      s.tests.assign(use.tests.begin(), use.tests.end());
      s.file = use.file;
      out.items.push_back(std::move(s));
    }
  }
  std::sort(out.items.begin(), out.items.end(), [](const RunSuggestion &a, const RunSuggestion &b) {
    return std::tuple(-int64_t(a.calls), a.service, a.operation, a.target) <
           std::tuple(-int64_t(b.calls), b.service, b.operation, b.target);
  });
  for (RunSuggestion &s : out.items) {
    if (s.kind == "syscall") {
      syscallStub(spec, s.file, s, names);
      continue;
    }
    const ir::Service *svc = spec.findService(s.service.substr(0, s.service.find('.')));
    const ir::Interface *i =
        svc ? svc->findInterface(s.service.substr(s.service.find('.') + 1)) : nullptr;
    requestStub(spec, i ? i->protocol : "", s, names);
  }
  return out;
}

void emitRunSuggestionsText(const RunSuggestions &s, llvm::raw_ostream &os) {
  os << "\nSuggestions from " << s.bundle << " ("
     << plural(s.passingRows, "passing row", "passing rows") << "; "
     << (s.operationsRecorded ? "syscalls recorded by fbc run --record-ops"
                              : "no syscalls recorded: run with fbc run --record-ops to see them")
     << "):\n";
  if (s.items.empty())
    os << "# Every operation the passing tests depended on is faulted by some test. Nothing to "
          "suggest.\n";
  for (const RunSuggestion &r : s.items)
    os << "\n# " << r.evidence << "\n" << r.stub;
}

void emitRunSuggestionsJson(const RunSuggestions &s, ir::JsonWriter &w) {
  w.key("run_suggestions").beginObject();
  w.field("bundle", s.bundle);
  w.field("passing_rows", s.passingRows);
  w.field("syscalls_recorded", s.operationsRecorded);
  w.key("suggestions").beginArray();
  for (const RunSuggestion &r : s.items) {
    w.beginObject();
    w.field("kind", r.kind);
    w.field("service", r.service);
    w.field("operation", r.operation);
    w.field("target", r.target);
    w.field("calls", r.calls);
    w.key("tests").beginArray(true);
    for (const std::string &t : r.tests)
      w.value(t);
    w.endArray();
    w.field("evidence", r.evidence);
    w.field("stub", r.stub);
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

} // namespace fbc::bundle
