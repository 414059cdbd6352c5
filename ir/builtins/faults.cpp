// deny(errno, ...), delay(duration, ...) and allow(...): fault values that
// fault_assumption() (and, at run time, fault()) attach to syscalls; and
// the protocol-level rules response(), error(), delay(delay=) and drop()
// that fault(svc.iface, ...) and fault_assumption(rules=) give the proxy.
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/duration.h"
#include "ir/quote.h"
#include "ir/syscalls.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace fbc::ir::builtins {

using star::Value;

namespace {

// Parses a decimal number that fills all of `s`.
bool parseNumber(std::string_view s, double &out) {
  std::string buf(s);
  if (buf.empty() || buf.find_first_of(" \t\n") != std::string::npos)
    return false;
  char *end = nullptr;
  out = std::strtod(buf.c_str(), &end);
  return end == buf.c_str() + buf.size() && std::isfinite(out);
}

// probability=: a float or int (values above 1 are percentages: 30 is
// 0.3), or a string "0.3" / "30%". The result must lie in [0, 1].
double parseProbability(const CallSite &site, std::string_view fn, Value v) {
  Loc at = site.at(site.keywordValue("probability"));
  double p = 0;
  bool percent = false;
  if (auto *f = v.as<star::Float>()) {
    p = f->value;
  } else if (v.isSmallInt()) {
    p = double(v.smallInt());
  } else if (v.isInt()) {
    p = -1; // an int too large for a probability (or a percentage)
  } else if (auto *s = v.as<star::String>()) {
    std::string_view text = s->view();
    if (!text.empty() && text.back() == '%') {
      percent = true;
      text.remove_suffix(1);
    }
    if (!parseNumber(text, p))
      site.fail(at,
                std::string(fn) +
                    "(): probability= must be a number or a percentage like "
                    "\"30%\", got " +
                    quote(s->view()),
                DiagCode::BadProbability);
  } else {
    site.fail(at,
              std::string(fn) +
                  "(): probability= must be a float, an int or a string like "
                  "\"30%\", got " +
                  typeOf(v),
              DiagCode::BadProbability);
  }
  if (percent || p > 1)
    p /= 100;
  if (!(p >= 0 && p <= 1) || !std::isfinite(p))
    site.fail(at,
              std::string(fn) +
                  "(): probability= must be between 0 and 1 (or \"0%\" and "
                  "\"100%\"), got " +
                  star::repr(v),
              DiagCode::BadProbability);
  return p;
}

std::string stringKwarg(const CallSite &site, std::string_view fn, std::string_view k, Value v) {
  auto *s = v.as<star::String>();
  if (!s)
    site.fail(site.at(site.keywordValue(k)),
              std::string(fn) + "(): " + std::string(k) + "= must be a string, got " + typeOf(v));
  return std::string(s->view());
}

// What the readers of a rule's keywords write: the fault's knobs, with
// max_fires= and mode= kept until every keyword is read (checkKnobs); a
// protocol rule's (proxyRule) matchers and values go to `rule`.
struct RuleArgs {
  std::string fn;
  Fault &f;
  Value maxFires = {}, mode = {};
  ProxyRule *rule = nullptr;
  ProxyAction action = ProxyAction::Respond;
  bool haveDelay = false;
};

void readProbability(RuleArgs &a, const Arg &arg) {
  a.f.probability = parseProbability(arg.site(), a.fn, arg.value);
}
void readMaxFires(RuleArgs &a, const Arg &arg) {
  a.maxFires = arg.value;
}
void readMode(RuleArgs &a, const Arg &arg) {
  a.mode = arg.value;
}
void readLabel(RuleArgs &a, const Arg &arg) {
  a.f.label = stringKwarg(arg.site(), a.fn, arg.name, arg.value);
}
void readFaultPath(RuleArgs &a, const Arg &arg) {
  a.f.path = stringKwarg(arg.site(), a.fn, arg.name, arg.value);
}
void ignoreKeyword(RuleArgs &, const Arg &) {}

// deny()'s and delay(duration)'s keywords.
constexpr Param<RuleArgs> kRuleParams[] = {
    {"probability", readProbability},
    {"max_fires", readMaxFires},
    {"mode", readMode},
    {"label", readLabel},
    {"path", readFaultPath},
};

// A packet rule's knobs (packet.cpp reads its other keywords).
constexpr Param<RuleArgs> kFanoutParams[] = {
    {"probability", readProbability},
    {"max_fires", readMaxFires},
    {"mode", readMode},
    {"label", readLabel},
    {kOtherKeywords, ignoreKeyword},
};

// The knobs' checks in the reference's order: max_fires type, max_fires >
// 0, probability < 1, mode value, max_fires with stochastic, exhaustive
// without max_fires.
void checkKnobs(const CallSite &site, RuleArgs &a) {
  std::string p = std::string(a.fn) + "(): ";
  Fault &f = a.f;
  Value maxFires = a.maxFires, mode = a.mode;
  if (maxFires) {
    Loc at = site.at(site.keywordValue("max_fires"));
    if (!maxFires.isInt())
      site.fail(at, p + "max_fires must be an integer, got " + typeOf(maxFires),
                DiagCode::BadMaxFires);
    if (!maxFires.isSmallInt())
      site.fail(at, p + "max_fires= is out of range, got " + star::repr(maxFires),
                DiagCode::BadMaxFires);
    if (maxFires.smallInt() <= 0)
      site.fail(at, p + "max_fires must be > 0, got " + std::to_string(maxFires.smallInt()),
                DiagCode::BadMaxFires);
    if (f.probability >= 1)
      site.fail(at, p + "max_fires= is only meaningful with probability < 1",
                DiagCode::BadMaxFires);
    f.maxFires = maxFires.smallInt();
  }
  if (mode) {
    Loc at = site.at(site.keywordValue("mode"));
    auto *s = mode.as<star::String>();
    if (s && s->view() == "exhaustive")
      f.mode = FaultMode::Exhaustive;
    else if (s && s->view() == "stochastic")
      f.mode = FaultMode::Stochastic;
    else
      site.fail(at,
                p + "mode= must be \"exhaustive\" or \"stochastic\", got " +
                    (s ? quote(s->view()) : star::repr(mode)),
                DiagCode::BadMode);
    if (f.mode == FaultMode::Stochastic && f.maxFires > 0)
      site.fail(at, p + "max_fires= is incompatible with mode=\"stochastic\"", DiagCode::BadMode);
    if (f.mode == FaultMode::Exhaustive && f.maxFires == 0)
      site.fail(at, p + "mode=\"exhaustive\" requires max_fires= > 0", DiagCode::BadMode);
  }
  if (f.maxFires > 0 && f.mode == FaultMode::None)
    f.mode = FaultMode::Exhaustive;
}

// Binds `params` of a rule's call and checks its knobs.
template <size_t N>
void bindRule(const CallSite &site, const star::Args &args, const Param<RuleArgs> (&params)[N],
              RuleArgs &a) {
  bindKeywords(BindCall(site, args, {a.fn + "()"}), params, a);
  checkKnobs(site, a);
}

void parseRuleKwargs(const CallSite &site, std::string_view fn, const star::Args &args, Fault &f) {
  RuleArgs a{std::string(fn), f};
  bindRule(site, args, kRuleParams, a);
}

// The single positional string of deny()/delay(), with Go's messages.
star::String *onePositional(const CallSite &site, const char *fn, const star::Args &args) {
  if (args.positional.size() != 1)
    site.fail(std::string(fn) + ": got " + std::to_string(args.positional.size()) +
              " arguments, want 1");
  auto *s = args.positional[0].as<star::String>();
  if (!s)
    site.fail(site.at(site.positional(0)), std::string(fn) + ": for parameter 1: got " +
                                               typeOf(args.positional[0]) + ", want string");
  return s;
}

// Whether protocol rule `action` takes matcher or value keyword `k`.
bool proxyAllows(ProxyAction action, std::string_view k) {
  if (k == "status")
    return action == ProxyAction::Respond || action == ProxyAction::Error;
  if (k == "message" || k == "code")
    return action == ProxyAction::Error;
  if (k == "body")
    return action == ProxyAction::Respond;
  if (k == "delay")
    return action == ProxyAction::Delay;
  if (k == "reset")
    return action == ProxyAction::Drop;
  if (k == "per")
    return action == ProxyAction::Drop || action == ProxyAction::Delay;
  // duplicate(topic=|subject=|exchange=, probability=): messages only.
  if (action == ProxyAction::Duplicate)
    return k == "topic" || k == "subject" || k == "exchange";
  return k == "method" || k == "path" || k == "query" || k == "command" || k == "key" ||
         k == "topic" || k == "subject" || k == "op" || k == "collection" || k == "exchange";
}

llvm::ArrayRef<std::string_view> proxyKeywordNames();

// A protocol rule's matcher or value: a keyword of the protocol rules that
// this action does not take is unknown to it (the message lists them all).
void readProxyKeyword(RuleArgs &a, const Arg &arg) {
  std::string_view k = arg.name;
  if (!proxyAllows(a.action, k))
    arg.call.failUnknown(k, proxyKeywordNames());
  const CallSite &site = arg.site();
  ProxyRule &r = *a.rule;
  Value v = arg.value;
  Loc at = arg.at();
  std::string p = a.fn + "(): ";
  if (k == "code") {
    // A MySQL error number (ER_LOCK_DEADLOCK 1213 ...): the codec writes
    // it into the ERR packet.
    if (!v.isSmallInt() || v.smallInt() < 1000 || v.smallInt() > 65535)
      site.fail(at, p + "code= must be a MySQL error number (1000-65535), got " + star::repr(v));
    r.errorNumber = v.smallInt();
  } else if (k == "status") {
    // An HTTP status, or a gRPC status code (0-16) on a grpc interface.
    if (v.isSmallInt() &&
        ((v.smallInt() >= 100 && v.smallInt() <= 599) || (v.smallInt() >= 0 && v.smallInt() <= 16)))
      r.status = v.smallInt();
    else if (auto *s = v.as<star::String>();
             s && a.action == ProxyAction::Error && s->view().size() == 5)
      r.code = std::string(s->view());
    else
      site.fail(
          at,
          p + "status= must be an HTTP status (100-599), a gRPC code (0-16)" +
              (a.action == ProxyAction::Error ? " or a 5-character SQLSTATE like \"57P01\"" : "") +
              ", got " + star::repr(v));
  } else if (k == "delay") {
    r.delayNs = durationArg(site, v, at, "delay() bad duration", /*allowZero=*/true);
    a.haveDelay = true;
  } else if (k == "reset") {
    auto *b = v.as<star::Bool>();
    if (!b)
      site.fail(at, p + "reset= must be a bool, got " + typeOf(v));
    r.reset = b->value;
  } else if (k == "per") {
    std::string per = stringKwarg(site, a.fn, k, v);
    if (per != "connection" && per != "request")
      site.fail(at, p + "per= must be \"request\" or \"connection\", got " + quote(per));
    r.perConnection = per == "connection";
  } else {
    std::string text = stringKwarg(site, a.fn, k, v);
    (k == "method"       ? r.method
     : k == "path"       ? r.path
     : k == "query"      ? r.query
     : k == "command"    ? r.command
     : k == "key"        ? r.key
     : k == "topic"      ? r.topic
     : k == "subject"    ? r.subject
     : k == "op"         ? r.op
     : k == "collection" ? r.collection
     : k == "exchange"   ? r.exchange
     : k == "message"    ? r.message
                         : r.body) = text;
    r.hasBody = r.hasBody || k == "body";
  }
}

// The protocol rules' keywords, in the order messages list them.
constexpr Param<RuleArgs> kProxyParams[] = {
    {"body", readProxyKeyword},       {"code", readProxyKeyword},
    {"collection", readProxyKeyword}, {"command", readProxyKeyword},
    {"delay", readProxyKeyword},      {"exchange", readProxyKeyword},
    {"key", readProxyKeyword},        {"label", readLabel},
    {"max_fires", readMaxFires},      {"message", readProxyKeyword},
    {"method", readProxyKeyword},     {"mode", readMode},
    {"op", readProxyKeyword},         {"path", readProxyKeyword},
    {"per", readProxyKeyword},        {"probability", readProbability},
    {"query", readProxyKeyword},      {"reset", readProxyKeyword},
    {"status", readProxyKeyword},     {"subject", readProxyKeyword},
    {"topic", readProxyKeyword},
};

// duplicate()'s: message duplication (Kafka, NATS, AMQP, UDP).
constexpr Param<RuleArgs> kDuplicateParams[] = {
    {"exchange", readProxyKeyword},   {"label", readLabel},
    {"max_fires", readMaxFires},      {"mode", readMode},
    {"probability", readProbability}, {"subject", readProxyKeyword},
    {"topic", readProxyKeyword},
};

llvm::ArrayRef<std::string_view> proxyKeywordNames() {
  static const std::vector<std::string_view> names = paramNames(kProxyParams);
  return names;
}

// response(), error(), delay(delay=), drop(), duplicate(): keyword arguments only.
Value proxyRule(star::Thread &t, const CallSite &site, ProxyAction action, const star::Args &args) {
  const char *fn = proxyActionName(action);
  std::string p = std::string(fn) + "(): ";
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)),
              p + "takes keyword arguments only" +
                  (action == ProxyAction::Delay ? ""
                   : action == ProxyAction::Duplicate
                       ? ", e.g. duplicate(topic=\"orders\")"
                       : ", e.g. " + std::string(fn) + "(path=\"/orders*\", status=503)"));
  auto *value = t.heap.make<ProxyRuleValue>();
  ProxyRule &r = value->data;
  r.action = action;
  r.loc = site.loc();
  Fault knobs;
  RuleArgs read{fn, knobs};
  read.rule = &r;
  read.action = action;
  if (action == ProxyAction::Duplicate)
    bindRule(site, args, kDuplicateParams, read);
  else
    bindRule(site, args, kProxyParams, read);
  if (action == ProxyAction::Delay && !read.haveDelay)
    site.fail("delay() requires delay= or a positional duration argument");
  if (action == ProxyAction::Duplicate && !r.topic.empty() && !r.subject.empty())
    site.fail(p + "topic= (Kafka) and subject= (NATS) are alternatives: give one");
  r.probability = knobs.probability;
  r.maxFires = knobs.maxFires;
  r.mode = knobs.mode;
  r.label = knobs.label;
  return Value::object(value);
}

} // namespace

llvm::ArrayRef<std::string_view> ruleKeywords() {
  static const std::vector<std::string_view> names = paramNames(kRuleParams);
  return names;
}

llvm::ArrayRef<std::string_view> proxyRuleKeywords() {
  return proxyKeywordNames();
}

Value responseFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  return proxyRule(t, site, ProxyAction::Respond, args);
}

Value errorFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  return proxyRule(t, site, ProxyAction::Error, args);
}

Value duplicateFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  return proxyRule(t, site, ProxyAction::Duplicate, args);
}

Value dropFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  return proxyRule(t, site, ProxyAction::Drop, args);
}

Value denyFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  star::String *name = onePositional(site, "deny", args);
  const ErrnoInfo *e = findErrno(name->view());
  if (!e)
    site.fail(site.at(site.positional(0)), unknownErrnoMessage(name->view()),
              DiagCode::UnknownErrno);
  auto *fault = t.heap.make<FaultValue>();
  Fault &f = fault->data;
  f.action = FaultAction::Deny;
  f.errnoName = std::string(e->name);
  f.errnoNumber = e->number;
  f.loc = site.loc();
  parseRuleKwargs(site, "deny", args, f);
  return Value::object(fault);
}

Value delayFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (args.positional.empty())
    return proxyRule(t, site, ProxyAction::Delay, args);
  star::String *d = onePositional(site, "delay", args);
  auto *fault = t.heap.make<FaultValue>();
  Fault &f = fault->data;
  f.action = FaultAction::Delay;
  f.loc = site.loc();
  f.delayNs = durationArg(site, args.positional[0], site.at(site.positional(0)),
                          "delay() bad duration " + quote(d->view()), /*allowZero=*/true);
  parseRuleKwargs(site, "delay", args, f);
  return Value::object(fault);
}

namespace {

// The reference ignores them on allow(); say so instead of failing the spec.
void warnNoEffect(RuleArgs &, const Arg &arg) {
  SpecBuilder::of(arg.thread())
      .warnings.emplace_back(arg.site().at(arg.site().keyword(arg.name)),
                             "allow() never fires, so " + std::string(arg.name) +
                                 "= has no effect (allow() only makes the service's "
                                 "filter trap the syscall)");
}

constexpr Param<RuleArgs> kAllowParams[] = {
    {"probability", warnNoEffect}, {"max_fires", warnNoEffect}, {"mode", warnNoEffect},
    {"label", readLabel},          {"path", readFaultPath},
};

} // namespace

Value allowFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)), "allow() takes no positional arguments");
  auto *fault = t.heap.make<FaultValue>();
  Fault &f = fault->data;
  f.action = FaultAction::Allow;
  f.probability = 0; // a rule that matches and never fires
  f.loc = site.loc();
  RuleArgs read{"allow", f};
  bindKeywords(BindCall(site, args, {"allow()"}), kAllowParams, read);
  return Value::object(fault);
}

// probability=, max_fires= and mode= of a packet rule (packet.cpp), read
// and checked as on deny()/delay(); its other keywords are the caller's.
void checkFanoutKwargs(const CallSite &site, std::string_view fn, const star::Args &args) {
  Fault f;
  RuleArgs read{std::string(fn), f};
  bindRule(site, args, kFanoutParams, read);
}

} // namespace fbc::ir::builtins
