// The packet rules: packet_drop packet_pass packet_reset packet_delay
// packet_reorder packet_duplicate packet_corrupt packet_window. Each checks
// its arguments with the reference's messages and returns a packet_fault
// value (ir::PacketRule) for fault(iface, ...) and fault_assumption(rules=);
// a test that applies one needs the gVisor runtime (ir/host_needs.h).
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/duration.h"
#include "ir/quote.h"

#include <functional>

namespace fbc::ir::builtins {

using star::Value;

namespace {

constexpr const char *kMatchers = "dir, proto, flags, port, len, len_gt, len_lt, payload_prefix, "
                                  "payload_contains, where, nth, after, every, probability, "
                                  "max_fires, mode, label";

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

Value packetRule(star::Thread &t, const star::Args &args, const std::string &fn,
                 std::initializer_list<Extra> extras) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  const Extra *positional = nullptr;
  std::string extraNames;
  for (const Extra &e : extras) {
    if (!*e.name)
      positional = &e;
    else
      extraNames += std::string(extraNames.empty() ? "" : ", ") + e.name;
  }
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
  int triggers = 0;
  for (const star::Kwarg &kw : args.kwargs) {
    std::string k(kw.name->view());
    Value x = kw.value;
    Loc at = site.at(site.keywordValue(k));
    if (k == "dir") {
      oneOf(site, fn, k, x, at, {"c2s", "s2c", "both"}, "\"c2s\", \"s2c\" or \"both\"");
    } else if (k == "proto") {
      oneOf(site, fn, k, x, at, {"tcp", "udp", "icmp"}, "\"tcp\", \"udp\" or \"icmp\"");
    } else if (k == "flags" || k == "payload_prefix" || k == "payload_contains" || k == "label") {
      stringArg(site, fn, k, x, at);
    } else if (k == "port") {
      int64_t n = intArg(site, fn, k, x, at);
      if (n <= 0 || n > 65535)
        site.fail(at, fn + "(): port must be within 1..65535, got " + std::to_string(n));
    } else if (k == "len" || k == "len_gt" || k == "len_lt") {
      atLeast(site, fn, k, x, at, 0);
    } else if (k == "where") {
      if (!isCallable(x))
        site.fail(at, fn + "(): where must be a function, got " + typeOf(x));
    } else if (k == "nth" || k == "after" || k == "every") {
      int64_t n = intArg(site, fn, k, x, at);
      if (n <= 0)
        site.fail(at, fn + "(): " + k + " must be > 0, got " + std::to_string(n));
      ++triggers;
    } else if (k == "probability" || k == "max_fires" || k == "mode") {
      // checkFanoutKwargs() below
    } else {
      const Extra *extra = nullptr;
      for (const Extra &e : extras)
        if (*e.name && k == e.name)
          extra = &e;
      if (!extra)
        site.fail(site.at(site.keyword(k)), fn + "(): unknown keyword argument " + quote(k) +
                                                "; valid: " + kMatchers +
                                                (extraNames.empty() ? "" : ", " + extraNames));
      extra->check(site, fn, x, at);
    }
    render(k, x);
  }
  // probability=, max_fires= and mode= read as on deny()/delay().
  checkFanoutKwargs(site, fn, args);
  if (triggers > 1)
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
