// The gateway builtins' argument checks: see gateway_calls.h.
#include "ir/gateway_calls.h"

#include "ir/duration.h"
#include "ir/quote.h"

#include <algorithm>
#include <array>

namespace fbc::ir {

namespace {

using Kind = GatewayArg::Kind;
using Error = std::optional<GatewayArgError>;

constexpr std::array<std::string_view, 8> kBuiltins = {
    "bandwidth",      "mtu",   "partition",   "partition_start",
    "partition_stop", "watch", "watch_start", "watch_stop"};

// The operations gVisor traces, and those users ask for that it cannot
// (named so the message explains the gap).
constexpr std::array<std::string_view, 5> kWatchableOps = {"open", "read", "write", "close",
                                                           "connect"};
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kUntraceableOps = {{
    {"fsync", "gVisor has no fsync trace point"},
    {"fdatasync", "gVisor has no fdatasync trace point"},
    {"msync", "gVisor has no msync trace point"},
    {"sync_file_range", "gVisor has no sync_file_range trace point"},
    {"sync", "gVisor has no sync trace point"},
}};

// The type name a message names.
std::string typeOf(const GatewayArg &a) {
  switch (a.kind) {
  case Kind::String:
    return "string";
  case Kind::Int:
    return "int";
  case Kind::List:
    return "list";
  case Kind::Service:
    return "service";
  case Kind::Callable:
  case Kind::Other:
  case Kind::Unknown:
    break;
  }
  return a.type;
}

// The reference reads these with AsString and ignores its failure: a
// non-string reads as "".
std::optional<std::string> asString(const GatewayArg &a) {
  if (a.kind == Kind::Unknown)
    return std::nullopt;
  return a.kind == Kind::String ? a.str : "";
}

struct Call {
  std::string_view fn;
  const std::vector<GatewayArg> &args;
  std::vector<size_t> positional;
  std::string fnText() const { return std::string(fn); }
  Error at(size_t i, std::string msg) const { return GatewayArgError{std::move(msg), i}; }
  Error whole(std::string msg) const { return GatewayArgError{std::move(msg)}; }
  std::optional<size_t> keyword(std::string_view k) const {
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].name == k)
        return i;
    return std::nullopt;
  }
};

// partition(a, b, ...) / partition_start / partition_stop / watch(svc, ...):
// a positional service argument.
Error serviceArg(const Call &c, size_t i, std::string_view ordinal) {
  const GatewayArg &a = c.args[c.positional[i]];
  if (a.kind == Kind::Unknown || a.kind == Kind::Service)
    return std::nullopt;
  return c.at(c.positional[i],
              c.fnText() + "() " + std::string(ordinal) + " must be a service, got " + typeOf(a));
}

Error runArg(const Call &c, size_t i) {
  const GatewayArg &a = c.args[i];
  if (a.kind == Kind::Unknown || a.kind == Kind::Callable)
    return std::nullopt;
  return c.at(i, c.fnText() + "() run= must be a callable, got " + typeOf(a));
}

// partition()/watch() need run= (`needsRun` says why); their _start()
// forms hold the window open and refuse it.
Error runWindow(const Call &c, bool hasRun, const std::string &scoped, const char *needsRun) {
  if (c.fn == scoped && !hasRun)
    return c.whole(needsRun);
  if (c.fn == scoped + "_start" && hasRun)
    return c.at(*c.keyword("run"),
                scoped + "_start() does not take run=; use " + scoped + "() for a scoped window");
  return std::nullopt;
}

Error partitionCall(const Call &c) {
  if (c.positional.size() != 2)
    return c.whole(c.fnText() + "() takes exactly two service arguments");
  if (Error e = serviceArg(c, 0, "first argument"))
    return e;
  if (Error e = serviceArg(c, 1, "second argument"))
    return e;
  const GatewayArg &a = c.args[c.positional[0]], &b = c.args[c.positional[1]];
  bool stop = c.fn == "partition_stop";
  bool hasRun = false;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const GatewayArg &kw = c.args[i];
    if (kw.name.empty())
      continue;
    if (stop)
      return c.at(i, "partition_stop(): unexpected keyword argument " + quote(kw.name));
    if (kw.name == "direction") {
      std::optional<std::string> s = asString(kw);
      if (s && *s != "both" && *s != "a_to_b" && *s != "b_to_a")
        return c.at(i, c.fnText() +
                           "(): direction must be \"both\", \"a_to_b\" or \"b_to_a\", got " +
                           quote(*s));
    } else if (kw.name == "run") {
      if (Error e = runArg(c, i))
        return e;
      hasRun = true;
    } else {
      return c.at(i, c.fnText() + "(): unknown keyword argument " + quote(kw.name) +
                         "; valid: direction, run");
    }
  }
  if (Error e = runWindow(c, hasRun, "partition",
                          "partition() requires run= with a callback; use "
                          "partition_start()/partition_stop() to hold a partition across steps"))
    return e;
  if (!stop && a.kind == Kind::Service && b.kind == Kind::Service && a.str == b.str)
    return c.whole("partition(): cannot partition " + quote(a.str) + " from itself");
  return std::nullopt;
}

// files= / ops=: a list of strings.
Error stringList(const Call &c, size_t i, const char *what, const char *items) {
  const GatewayArg &l = c.args[i];
  if (l.kind == Kind::Unknown)
    return std::nullopt;
  std::string key = c.fnText() + "() " + l.name + "=";
  if (l.kind != Kind::List)
    return c.at(i, key + " must be " + what + ", got " + typeOf(l));
  for (const GatewayArg &item : l.items)
    if (item.kind != Kind::Unknown && item.kind != Kind::String)
      return c.at(i, key + " " + items + " must be strings, got " + typeOf(item));
  return std::nullopt;
}

Error watchOps(const Call &c, size_t i) {
  if (Error e = stringList(c, i, "a list of operation names", "items"))
    return e;
  for (const GatewayArg &item : c.args[i].items) {
    if (item.kind != Kind::String)
      continue;
    auto untraceable = std::find_if(kUntraceableOps.begin(), kUntraceableOps.end(),
                                    [&](const auto &u) { return u.first == item.str; });
    if (untraceable != kUntraceableOps.end())
      return c.at(i, c.fnText() + "() ops=[" + quote(item.str) +
                         "]: " + std::string(untraceable->second) +
                         ", so this would observe nothing. Watch \"write\" instead to see the "
                         "data reach the file, and note that write ordering is not the same as "
                         "durability (RFC-054 decision record M0.3)");
    if (std::find(kWatchableOps.begin(), kWatchableOps.end(), item.str) == kWatchableOps.end())
      return c.at(i, c.fnText() + "() ops=[" + quote(item.str) +
                         "]: unknown operation; valid: open, read, write, close, connect");
  }
  return std::nullopt;
}

Error watchCall(const Call &c) {
  if (c.fn == "watch_stop") {
    if (c.positional.size() != 1)
      return c.whole("watch_stop() takes exactly one argument (the service)");
    return serviceArg(c, 0, "argument");
  }
  if (c.positional.empty())
    return c.whole(c.fnText() + "() requires a service as its first argument");
  if (Error e = serviceArg(c, 0, "first argument"))
    return e;
  if (c.positional.size() > 1)
    return c.at(c.positional[1], c.fnText() + "() takes one positional argument (the "
                                              "service); pass files=/ops=/run= as keywords");
  bool hasRun = false;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const std::string &k = c.args[i].name;
    if (k.empty())
      continue;
    Error e;
    if (k == "files")
      e = stringList(c, i, "a list of path globs", "items");
    else if (k == "ops")
      e = watchOps(c, i);
    else if (k == "run")
      e = runArg(c, i), hasRun = true;
    else
      e = c.at(i, c.fnText() + "(): unknown keyword argument " + quote(k) +
                      "; valid: files, ops, run");
    if (e)
      return e;
  }
  return runWindow(c, hasRun, "watch",
                   "watch() requires run= with a callback; use watch_start()/watch_stop() for "
                   "imperative control");
}

// A link rate as tc writes it: a positive number and a unit.
bool validRate(std::string_view r) {
  size_t digits = r.find_first_not_of("0123456789.");
  if (digits == 0 || digits == std::string_view::npos)
    return false;
  std::string_view number = r.substr(0, digits), unit = r.substr(digits);
  if (number.find_first_not_of("0.") == std::string_view::npos ||
      std::count(number.begin(), number.end(), '.') > 1)
    return false;
  for (std::string_view u : {"bit", "kbit", "mbit", "gbit", "bps", "kbps", "mbps", "gbps"})
    if (unit == u)
      return true;
  return false;
}

// bandwidth(rate, dir=, queue=) and mtu(size), read as the reference reads
// them (starlark.UnpackArgs): by position or by name, then their values.
Error shaperCall(const Call &c) {
  bool bw = c.fn == "bandwidth";
  std::vector<std::string_view> params = bw ? std::vector<std::string_view>{"rate", "dir", "queue"}
                                            : std::vector<std::string_view>{"size"};
  std::vector<std::optional<size_t>> bound(params.size());
  if (c.positional.size() > params.size())
    return c.whole(c.fnText() + ": got " + std::to_string(c.positional.size()) +
                   " arguments, want at most " + std::to_string(params.size()));
  for (size_t p = 0; p < c.positional.size(); ++p)
    bound[p] = c.positional[p];
  for (size_t i = 0; i < c.args.size(); ++i) {
    const std::string &k = c.args[i].name;
    if (k.empty())
      continue;
    auto it = std::find(params.begin(), params.end(), k);
    if (it == params.end())
      return c.at(i, c.fnText() + ": unexpected keyword argument " + quote(k));
    size_t p = size_t(it - params.begin());
    if (bound[p])
      return c.at(i, c.fnText() + ": got multiple values for keyword argument " + quote(k));
    bound[p] = i;
  }
  if (!bound[0])
    return c.whole(c.fnText() + ": missing argument for " + std::string(params[0]));
  // Types first, as UnpackArgs checks them before the builtin looks.
  for (size_t p = 0; p < params.size(); ++p) {
    if (!bound[p])
      continue;
    const GatewayArg &a = c.args[*bound[p]];
    Kind want = bw ? Kind::String : Kind::Int;
    if (a.kind != Kind::Unknown && a.kind != want)
      return c.at(*bound[p], c.fnText() + ": for parameter " + std::string(params[p]) + ": got " +
                                 typeOf(a) + ", want " + (want == Kind::String ? "string" : "int"));
  }
  if (!bw) {
    const GatewayArg &size = c.args[*bound[0]];
    if (size.kind == Kind::Int && size.num < 68)
      return c.at(*bound[0], "mtu(size=" + std::to_string(size.num) +
                                 ") is below the IPv4 minimum of 68; a path that small cannot "
                                 "carry a fragmented datagram and does not model any real "
                                 "network");
    return std::nullopt;
  }
  if (bound[1]) {
    const GatewayArg &dir = c.args[*bound[1]];
    if (dir.kind == Kind::String && dir.str != "both" && dir.str != "" && dir.str != "c2s" &&
        dir.str != "s2c")
      return c.at(*bound[1],
                  "bandwidth() dir must be \"c2s\", \"s2c\" or \"both\", got " + quote(dir.str));
  }
  const GatewayArg &rate = c.args[*bound[0]];
  if (rate.kind == Kind::String && !validRate(rate.str))
    return c.at(*bound[0], "bandwidth(): rate must be a positive number with a unit (bit, "
                           "kbit, mbit, gbit, bps, kbps, mbps, gbps), got " +
                               quote(rate.str));
  if (bound[2]) {
    const GatewayArg &queue = c.args[*bound[2]];
    if (queue.kind == Kind::String && !queue.str.empty()) {
      std::string err;
      std::optional<int64_t> d = parseDuration(queue.str, err);
      if (!d)
        return c.at(*bound[2], "bandwidth() bad queue " + quote(queue.str) + ": " + err);
      if (*d <= 0)
        return c.at(*bound[2], "bandwidth() queue must be positive, got " + quote(queue.str));
    }
  }
  return std::nullopt;
}

} // namespace

bool isGatewayBuiltin(std::string_view builtin) {
  return std::find(kBuiltins.begin(), kBuiltins.end(), builtin) != kBuiltins.end();
}

std::optional<GatewayArgError> gatewayArgError(std::string_view builtin,
                                               const std::vector<GatewayArg> &args) {
  Call c{builtin, args, {}};
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].name.empty())
      c.positional.push_back(i);
  if (builtin.rfind("partition", 0) == 0)
    return partitionCall(c);
  if (builtin.rfind("watch", 0) == 0)
    return watchCall(c);
  return shaperCall(c);
}

} // namespace fbc::ir
