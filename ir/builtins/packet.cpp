// The packet rules: packet_drop packet_pass packet_reset packet_delay
// packet_reorder packet_duplicate packet_corrupt packet_window. Each checks
// its arguments with the reference's messages and returns a packet_fault
// value (ir::PacketRule) for fault(iface, ...) and fault_assumption(rules=);
// a test that applies one needs the gVisor runtime (ir/host_needs.h).
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/duration.h"
#include "ir/quote.h"

#include <functional>

namespace fbc::ir::builtins {

using star::Value;

namespace {

struct Extra {
  const char *name; // a keyword, or "" for the positional argument
  std::function<void(const CallSite &, const std::string &fn, Value, const Loc &)> check;
};

int64_t intArg(const CallSite &site, const std::string &fn, const std::string &key, Value v,
               const Loc &at) {
  if (!v.isSmallInt())
    site.fail(at, fn + "(): " + key + " must be an integer, got " + typeOf(v));
  return v.smallInt();
}

void atLeast(const CallSite &site, const std::string &fn, const std::string &key, Value v,
             const Loc &at, int64_t min) {
  int64_t n = intArg(site, fn, key, v, at);
  if (n < min)
    site.fail(at, fn + "(): " + key + " must be >= " + std::to_string(min) + ", got " +
                      std::to_string(n));
}

std::string stringArg(const CallSite &site, const std::string &fn, const std::string &key, Value v,
                      const Loc &at) {
  auto *s = v.as<star::String>();
  if (!s)
    site.fail(at, fn + "(): " + key + " must be a string, got " + typeOf(v));
  return std::string(s->view());
}

void oneOf(const CallSite &site, const std::string &fn, const std::string &key, Value v,
           const Loc &at, std::initializer_list<std::string_view> allowed, const char *said) {
  std::string s = stringArg(site, fn, key, v, at);
  for (std::string_view a : allowed)
    if (s == a)
      return;
  site.fail(at, fn + "(): " + key + " must be " + said + ", got " + quote(s));
}

void durationExtra(const CallSite &site, const std::string &fn, Value v, const Loc &at) {
  auto *s = v.as<star::String>();
  if (!s)
    site.fail(at, fn + "(): duration must be a string like \"250ms\", got " + typeOf(v));
  std::string err;
  std::optional<int64_t> d = parseDuration(s->view(), err);
  if (!d)
    site.fail(at, fn + "(): invalid duration " + quote(s->view()) + ": " + err);
  if (*d <= 0)
    site.fail(at, fn + "(): duration must be positive, got " + quote(s->view()));
}

// What the matchers' readers share: the builtin's name and how many of
// nth=, after= and every= were given.
struct PacketArgs {
  const std::string &fn;
  int triggers = 0;
};

void readDir(PacketArgs &a, const Arg &arg) {
  oneOf(arg.site(), a.fn, "dir", arg.value, arg.at(), {"c2s", "s2c", "both"},
        "\"c2s\", \"s2c\" or \"both\"");
}

void readProto(PacketArgs &a, const Arg &arg) {
  oneOf(arg.site(), a.fn, "proto", arg.value, arg.at(), {"tcp", "udp", "icmp"},
        "\"tcp\", \"udp\" or \"icmp\"");
}

void readString(PacketArgs &a, const Arg &arg) {
  stringArg(arg.site(), a.fn, std::string(arg.name), arg.value, arg.at());
}

void readPort(PacketArgs &a, const Arg &arg) {
  int64_t n = intArg(arg.site(), a.fn, std::string(arg.name), arg.value, arg.at());
  if (n <= 0 || n > 65535)
    arg.site().fail(arg.at(), a.fn + "(): port must be within 1..65535, got " + std::to_string(n));
}

void readLength(PacketArgs &a, const Arg &arg) {
  atLeast(arg.site(), a.fn, std::string(arg.name), arg.value, arg.at(), 0);
}

void readWhere(PacketArgs &a, const Arg &arg) {
  if (!isCallable(arg.value))
    arg.site().fail(arg.at(), a.fn + "(): where must be a function, got " + typeOf(arg.value));
}

void readTrigger(PacketArgs &a, const Arg &arg) {
  int64_t n = intArg(arg.site(), a.fn, std::string(arg.name), arg.value, arg.at());
  if (n <= 0)
    arg.site().fail(arg.at(), a.fn + "(): " + std::string(arg.name) + " must be > 0, got " +
                                  std::to_string(n));
  ++a.triggers;
}

// checkFanoutKwargs() reads them once every keyword is read.
void readFanout(PacketArgs &, const Arg &) {}

// Every packet rule's keywords; each rule's own (Extra) follow them.
constexpr Param<PacketArgs> kMatcherParams[] = {
    {"dir", readDir},
    {"proto", readProto},
    {"flags", readString},
    {"port", readPort},
    {"len", readLength},
    {"len_gt", readLength},
    {"len_lt", readLength},
    {"payload_prefix", readString},
    {"payload_contains", readString},
    {"where", readWhere},
    {"nth", readTrigger},
    {"after", readTrigger},
    {"every", readTrigger},
    {"probability", readFanout},
    {"max_fires", readFanout},
    {"mode", readFanout},
    {"label", readString},
};

Value packetRule(star::Thread &t, const star::Args &args, const std::string &fn,
                 std::initializer_list<Extra> extras) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  const Extra *positional = nullptr;
  for (const Extra &e : extras)
    if (!*e.name)
      positional = &e;
  auto *v = t.heap.make<PacketRuleValue>();
  PacketRule &r = v->data;
  r.builtin = fn;
  r.loc = site.loc();
  auto render = [&](std::string_view k, Value x) {
    r.args +=
        (r.args.empty() ? "" : ", ") + (k.empty() ? "" : std::string(k) + "=") + star::repr(x);
  };
  if (!args.positional.empty()) {
    if (!positional)
      site.fail(site.at(site.positional(0)), fn + "(): takes only keyword arguments");
    if (args.positional.size() > 1)
      site.fail(site.at(site.positional(1)), fn + "(): takes at most 1 positional argument, got " +
                                                 std::to_string(args.positional.size()));
    positional->check(site, fn, args.positional[0], site.at(site.positional(0)));
    render("", args.positional[0]);
  }
  // The matchers, then this rule's own keywords.
  std::vector<const Extra *> keywords;
  for (const Extra &e : extras)
    if (*e.name)
      keywords.push_back(&e);
  constexpr size_t kMatchers = std::size(kMatcherParams);
  PacketArgs read{fn};
  bindParams(
      BindCall(site, args, {fn + "()"}), kMatchers + keywords.size(),
      [&](size_t i) {
        return ParamDecl{
            i < kMatchers ? kMatcherParams[i].name : keywords[i - kMatchers]->name, Optional, {}};
      },
      [&](size_t i, const Arg &arg) {
        if (i < kMatchers)
          kMatcherParams[i].read(read, arg);
        else
          keywords[i - kMatchers]->check(site, fn, arg.value, arg.at());
        render(arg.name, arg.value);
      },
      false);
  // probability=, max_fires= and mode= read as on deny()/delay().
  checkFanoutKwargs(site, fn, args);
  if (read.triggers > 1)
    site.fail(fn + "(): nth=, after= and every= are mutually exclusive; pick one");
  return Value::object(v);
}

Extra positiveInt(const char *key, int64_t min) {
  return {key, [key, min](const CallSite &site, const std::string &fn, Value v, const Loc &at) {
            atLeast(site, fn, key, v, at, min);
          }};
}

Extra choice(const char *key, std::initializer_list<std::string_view> allowed, const char *said) {
  std::vector<std::string_view> list(allowed);
  return {key,
          [key, list, said](const CallSite &site, const std::string &fn, Value v, const Loc &at) {
            std::string s = stringArg(site, fn, key, v, at);
            for (std::string_view a : list)
              if (s == a)
                return;
            site.fail(at, fn + "(): " + key + " must be " + said + ", got " + quote(s));
          }};
}

} // namespace

ir::GatewayArg gatewayArgOf(Value v, std::string name) {
  using Kind = ir::GatewayArg::Kind;
  ir::GatewayArg a;
  a.name = std::move(name);
  a.type = std::string(star::typeName(v));
  if (auto *svc = valueAs<ServiceValue>(v)) {
    a.kind = Kind::Service;
    a.str = svc->data.name;
  } else if (auto *s = v.as<star::String>()) {
    a.kind = Kind::String;
    a.str = std::string(s->view());
  } else if (v.isSmallInt()) {
    a.kind = Kind::Int;
    a.num = v.smallInt();
  } else if (auto *l = v.as<star::List>()) {
    a.kind = Kind::List;
    for (Value item : l->elems)
      a.items.push_back(gatewayArgOf(item, ""));
  } else {
    a.kind = isCallable(v) ? Kind::Callable : Kind::Other;
  }
  return a;
}

void PacketRuleValue::repr(star::Printer &p) const {
  p.write("<packet_fault " + data.builtin.substr(sizeof "packet_" - 1) + ">");
}

Value packetDropFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(t, args, "packet_drop", {});
}
Value packetPassFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(t, args, "packet_pass", {});
}
Value packetResetFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(t, args, "packet_reset", {});
}
Value packetDelayFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(t, args, "packet_delay", {{"", durationExtra}, {"duration", durationExtra}});
}
Value packetReorderFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(t, args, "packet_reorder", {positiveInt("by", 1)});
}
Value packetDuplicateFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(t, args, "packet_duplicate", {positiveInt("count", 2)});
}
Value packetCorruptFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(
      t, args, "packet_corrupt",
      {positiveInt("offset", 0), positiveInt("length", 1),
       choice("corrupt_mode", {"flip", "zero", "random"}, "\"flip\", \"zero\" or \"random\""),
       choice("checksum", {"fix", "break"}, "\"fix\" or \"break\"")});
}
Value packetWindowFn(star::Thread &t, Value, const star::Args &args) {
  return packetRule(
      t, args, "packet_window",
      {{"size", [](const CallSite &site, const std::string &fn, Value v, const Loc &at) {
          atLeast(site, fn, "size", v, at, 0);
          if (v.smallInt() > 65535)
            site.fail(at,
                      fn + "(): size must be within 0..65535, got " + std::to_string(v.smallInt()));
        }}});
}
} // namespace fbc::ir::builtins
