// Monitors and temporal properties at load time: match.event/any/all/never,
// monitor() (with the reference's static denylist for update=/check=),
// eventually(), always(), top-level assume() (held at load), and the
// monitors= / expect= / terminate_when= / assume= arguments the test
// registrations take. What a run does with them is runtime/temporal/monitors and
// runtime/temporal/temporal.
#include "ir/builtins/temporal_values.h"

#include "frontend/eval/interpreter.h"
#include "frontend/lib/args.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/struct.h"
#include "frontend/syntax/walk.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/quote.h"

#include <llvm/Support/Casting.h>

namespace fbc::ir::builtins {

using star::Value;

namespace {

// The reference's monitor sandbox: names update=/check= may not reference
// (they would mutate the run, block the event stream, or recurse), each
// with its reason. Sorted by name.
struct Denied {
  std::string_view name, reason;
};
constexpr std::string_view kFaultRace =
    "fault injection from inside a monitor races with the test body";
constexpr std::string_view kAssert = "monitors must signal failure via check=, not assert_*";
constexpr std::string_view kExpect =
    "registering a new expectation from inside a monitor is not supported";
constexpr std::string_view kAwait =
    "await_* primitives block the test body and cannot be called from a monitor";
constexpr std::string_view kScenarioDecl =
    "scenario declarations belong in the spec body, not in monitors";
constexpr Denied kDenylist[] = {
    {"always", kExpect},
    {"assert_before", kAssert},
    {"assert_eq", kAssert},
    {"assert_eventually", kAssert},
    {"assert_never", kAssert},
    {"assert_true", kAssert},
    {"await_event", kAwait},
    {"await_stable", kAwait},
    {"determinism", "determinism() is a spec-load declaration"},
    {"events", "events() is a test-body query; the monitor receives the matching event directly"},
    {"eventually", kExpect},
    {"fault", kFaultRace},
    {"fault_all", kFaultRace},
    {"fault_assumption", "fault declarations belong in the spec body, not in monitors"},
    {"fault_matrix", kScenarioDecl},
    {"fault_scenario", kScenarioDecl},
    {"fault_start", kFaultRace},
    {"fault_stop", kFaultRace},
    {"interface", "interface declarations are spec-load only"},
    {"mock_service", "mock_service declarations are spec-load only"},
    {"monitor", "registering a new monitor from inside a monitor is not supported"},
    {"nondet", "nondet() only meaningful inside the test body"},
    {"parallel", "parallel() only meaningful inside the test body"},
    {"partition", "partition() only meaningful inside the test body"},
    {"scenario", "scenario() is a spec-body declaration"},
    {"service", "service declarations are spec-load only"},
    {"trace",
     "trace() is a fault primitive; the monitor receives its own trace via the event/state args"},
    {"trace_start", "trace_*() is a test-body primitive"},
    {"trace_stop", "trace_*() is a test-body primitive"},
    {"wait_all", "wait_all() only meaningful inside the test body"},
    {"wait_first", "wait_first() only meaningful inside the test body"},
    {"wait_n", "wait_n() only meaningful inside the test body"},
};

const Denied *denied(std::string_view name) {
  for (const Denied &d : kDenylist)
    if (d.name == name)
      return &d;
  return nullptr;
}

// update= / check= referencing a denied builtin (not a local of the same
// name): a load error at the reference.
void checkSandbox(const CallSite &site, const std::string &monitor, const FunctionRef &fn) {
  if (!fn.syntax)
    return;
  syntax::forEachExpr(fn.syntax, [&](const syntax::Expr *e) {
    auto *id = llvm::dyn_cast<syntax::Ident>(e);
    if (!id || (id->binding && id->binding->scope != syntax::Scope::Predeclared))
      return;
    if (const Denied *d = denied(id->name))
      site.fail(Loc{fn.loc.file, id->pos}, "monitor " + quote(monitor) +
                                               " references disallowed builtin " + quote(d->name) +
                                               ": " + std::string(d->reason));
  });
}

Value matcherValue(star::Thread &t, Matcher m) {
  auto *v = t.heap.make<MatcherValue>();
  v->data = std::move(m);
  return Value::object(v);
}

Value matchEventFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)), "match.event() takes only keyword arguments; got " +
                                               std::to_string(args.positional.size()) +
                                               " positional");
  Matcher m;
  m.kind = MatcherKind::Event;
  m.loc = site.loc();
  for (const star::Kwarg &kw : args.kwargs) {
    auto *s = kw.value.as<star::String>();
    if (!s)
      site.fail(site.at(site.keywordValue(kw.name->view())),
                "match.event(" + std::string(kw.name->view()) +
                    "=...): value must be a string, got " + typeOf(kw.value));
    m.criteria.emplace_back(std::string(kw.name->view()), std::string(s->view()));
  }
  return matcherValue(t, std::move(m));
}

Value composeFn(star::Thread &t, const star::Args &args, MatcherKind kind, const char *fn) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (!args.kwargs.empty())
    site.fail(site.at(site.keyword(args.kwargs[0].name->view())),
              std::string(fn) + "() takes only positional arguments");
  Matcher m;
  m.kind = kind;
  m.loc = site.loc();
  for (size_t i = 0; i < args.positional.size(); ++i) {
    auto *c = valueAs<MatcherValue>(args.positional[i]);
    if (!c)
      site.fail(site.at(site.positional(i)), std::string(fn) +
                                                 "() arguments must be matchers, got " +
                                                 typeOf(args.positional[i]));
    m.children.push_back(c->data);
  }
  return matcherValue(t, std::move(m));
}

Value matchAnyFn(star::Thread &t, Value, const star::Args &args) {
  return composeFn(t, args, MatcherKind::Any, "match.any");
}

Value matchAllFn(star::Thread &t, Value, const star::Args &args) {
  return composeFn(t, args, MatcherKind::All, "match.all");
}

Value matchNeverFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (!args.positional.empty() || !args.kwargs.empty())
    site.fail("match.never() takes no arguments");
  Matcher m;
  m.kind = MatcherKind::Never;
  m.loc = site.loc();
  return matcherValue(t, std::move(m));
}

// A callable parameter bound by bindArgs (null/None: absent).
std::shared_ptr<const FunctionRef> callableParam(const CallSite &site, Value v, const char *fn,
                                                 const char *param) {
  if (!v || isNone(v))
    return nullptr;
  if (!isCallable(v))
    site.fail(site.at(site.keywordValue(param)), std::string(fn) + ": for parameter " + param +
                                                     ": got " + typeOf(v) + ", want callable");
  return std::make_shared<const FunctionRef>(functionRef(v));
}

// In a test body these register with the running test (the reference's
// in-test monitor() and inline eventually()/always()): the runtime takes
// the value made here.
Value toBody(star::Thread &t, const char *fn, Value made) {
  BodyRuntime *body = SpecBuilder::of(t).body;
  if (!body || !SpecBuilder::of(t).finished)
    return made;
  Value one[] = {made};
  return body->callBuiltin(t, fn, star::Args{one, {}});
}

Value temporalValue(star::Thread &t, Temporal data) {
  auto *v = t.heap.make<TemporalValue>();
  v->data = std::move(data);
  return toBody(t, temporalKindName(v->data.kind), Value::object(v));
}

// An anchor of always(between=): a lifecycle name or a matcher.
TemporalAnchor betweenAnchor(const CallSite &site, Value v, const Loc &at, const char *which) {
  TemporalAnchor a;
  if (auto *s = v.as<star::String>()) {
    a.name = std::string(s->view());
    if (a.name != "body_start" && a.name != "body_end" && a.name != "stable")
      site.fail(at, std::string(which) + ": unknown string anchor " + quote(a.name) +
                        " (valid: body_start, body_end, stable)");
    return a;
  }
  if (auto *m = valueAs<MatcherValue>(v)) {
    a.matcher = std::make_shared<const Matcher>(m->data);
    return a;
  }
  site.fail(at, std::string(which) + ": anchor must be string or matcher, got " + typeOf(v));
}

} // namespace

void MatcherValue::repr(star::Printer &p) const {
  p.write("<matcher " + data.display() + ">");
}

void MonitorValue::repr(star::Printer &p) const {
  p.write("<monitor " + data.name + ">");
}

void TemporalValue::repr(star::Printer &p) const {
  p.write("<");
  p.write(temporalKindName(data.kind));
  p.write(" ");
  p.write(data.pred.name);
  p.write(">");
}

TemporalValue *temporalValueOf(Value v) {
  if (!v.isObject() || v.kind() != star::Kind::Host)
    return nullptr;
  std::string_view n = v.obj()->typeName();
  if (n != temporalKindName(TemporalKind::Eventually) &&
      n != temporalKindName(TemporalKind::Always))
    return nullptr;
  return static_cast<TemporalValue *>(v.obj());
}

std::shared_ptr<Matcher> matcherOf(Value v) {
  if (auto *m = valueAs<MatcherValue>(v))
    return std::make_shared<Matcher>(m->data);
  if (!isCallable(v))
    return nullptr;
  auto m = std::make_shared<Matcher>();
  m->kind = MatcherKind::Predicate;
  m->fn = functionRef(v);
  m->loc = m->fn.loc;
  return m;
}

void installTemporal(star::Interpreter &interp) {
  star::Heap &h = interp.heap;
  auto fn = [&](const char *name, star::BuiltinFn f) {
    return Value::object(h.make<star::Builtin>(name, f));
  };
  interp.predeclared["match"] =
      Value::object(star::makeStruct(h, {{"all", fn("match.all", matchAllFn)},
                                         {"any", fn("match.any", matchAnyFn)},
                                         {"event", fn("match.event", matchEventFn)},
                                         {"never", fn("match.never", matchNeverFn)}}));
}

// monitor(name, on=, state_init=, update=, check=)
Value monitorFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  Value name, on, init, update, check;
  bindBuiltinArgs(t, "monitor", args, {"name", "on", "state_init?", "update?", "check?"},
                  {&name, &on, &init, &update, &check});
  auto *s = name.as<star::String>();
  if (!s)
    site.fail(site.at(site.param(0, "name")),
              "monitor: for parameter name: got " + typeOf(name) + ", want string");
  auto *v = t.heap.make<MonitorValue>();
  Monitor &m = v->data;
  m.name = std::string(s->view());
  m.loc = site.loc();
  std::shared_ptr<Matcher> matcher = matcherOf(on);
  if (!matcher)
    site.fail(site.at(site.param(1, "on")),
              "monitor(on=...): expected matcher or callable, got " + typeOf(on));
  m.on = *matcher;
  m.stateInit = init ? init : star::none();
  m.stateInitText = star::repr(m.stateInit);
  m.update = callableParam(site, update, "monitor", "update");
  m.check = callableParam(site, check, "monitor", "check");
  for (const auto &fn : {m.update, m.check})
    if (fn)
      checkSandbox(site, m.name, *fn);
  if (!b.finished) {
    v->index = int64_t(b.monitors.size());
    b.monitors.push_back(v);
    return Value::object(v);
  }
  return toBody(t, "monitor", Value::object(v));
}

namespace {

// eventually() / always(): the predicate and the call.
Temporal temporalOf(const CallSite &site, TemporalKind kind, Value pred) {
  const char *fn = temporalKindName(kind);
  if (!isCallable(pred))
    site.fail(site.at(site.param(0, "predicate")), std::string(fn) +
                                                       ": for parameter predicate: got " +
                                                       typeOf(pred) + ", want callable");
  Temporal x;
  x.kind = kind;
  x.pred = functionRef(pred);
  x.loc = site.loc();
  return x;
}

} // namespace

// eventually(predicate, anchor=)
Value eventuallyFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  Value pred, anchor;
  bindBuiltinArgs(t, "eventually", args, {"predicate", "anchor?"}, {&pred, &anchor});
  Temporal e = temporalOf(site, TemporalKind::Eventually, pred);
  if (anchor && !isNone(anchor)) {
    e.anchor = matcherOf(anchor);
    if (!e.anchor)
      site.fail(site.at(site.keywordValue("anchor")),
                "eventually(anchor=...): expected matcher or callable, got " + typeOf(anchor));
  }
  return temporalValue(t, std::move(e));
}

// always(predicate, between=(start, end))
Value alwaysFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  Value pred, between;
  bindBuiltinArgs(t, "always", args, {"predicate", "between?"}, {&pred, &between});
  Temporal a = temporalOf(site, TemporalKind::Always, pred);
  if (between && !isNone(between)) {
    const syntax::Expr *lit = site.keywordValue("between");
    auto *tup = between.as<star::Tuple>();
    if (!tup || tup->length() != 2)
      site.fail(site.at(lit), "always(between=...) must be a tuple of two anchors");
    a.start =
        betweenAnchor(site, tup->elems()[0], site.at(CallSite::element(lit, 0)), "between[0]");
    a.end = betweenAnchor(site, tup->elems()[1], site.at(CallSite::element(lit, 1)), "between[1]");
  }
  return temporalValue(t, std::move(a));
}

namespace {

// A predicate of assume: a callable or a bool.
Assume assumeOf(const CallSite &site, Value v, const Loc &at, const std::string &prefix) {
  Assume a;
  a.loc = at;
  if (auto *flag = v.as<star::Bool>()) {
    a.constant = true;
    a.value = flag->value;
    a.name = flag->value ? "const_True" : "const_False";
    return a;
  }
  if (!isCallable(v))
    site.fail(at, prefix + "predicate must be callable or bool, got " + typeOf(v));
  a.fn = functionRef(v);
  a.name = a.fn.name;
  return a;
}

} // namespace

// assume(predicate): held at load against the top-level named choose()
// calls (each its first option), as the reference does.
Value assumeFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "assume");
  if (!args.kwargs.empty() || args.positional.size() != 1)
    site.fail("assume(predicate): takes exactly one positional argument");
  Assume a = assumeOf(site, args.positional[0], site.at(site.positional(0)), "assume(): ");
  auto *choices = t.heap.make<star::Dict>();
  for (const auto &[name, option] : b.loadChoices)
    if (!choices->table.get(t, star::makeString(t.heap, name)))
      choices->table.set(t, star::makeString(t.heap, name), option);
  std::string error;
  bool held = assumeHolds(t, a, Value::object(choices), error);
  if (!error.empty())
    site.fail(error);
  if (!held)
    site.fail("assume(" + a.name + ") violated at spec load: assume(" + a.name + ") not satisfied");
  b.assumes.push_back(std::move(a));
  return star::none();
}

bool assumeHolds(star::Thread &t, const Assume &a, Value choices, std::string &error) {
  if (a.constant)
    return a.value;
  try {
    Value one[] = {choices};
    return star::truth(star::call(t, a.fn.value, llvm::ArrayRef<Value>(one)));
  } catch (const star::EvalError &e) {
    error = "assume(" + a.name + ") raised: " + e.message();
    return false;
  }
}

std::vector<uint32_t> claimMonitors(const CallSite &site, Value v, const std::string &prefix) {
  std::vector<Value> items;
  const syntax::Expr *lit = site.keywordValue("monitors");
  std::vector<uint32_t> out;
  if (isNone(v))
    return out;
  if (!listItems(v, items))
    site.fail(site.at(lit), prefix + " monitors= must be a list, got " + typeOf(v));
  SpecBuilder &b = SpecBuilder::of(site.thread());
  for (size_t i = 0; i < items.size(); ++i) {
    auto *m = valueAs<MonitorValue>(items[i]);
    Loc at = site.at(CallSite::element(lit, i));
    if (!m)
      site.fail(at, prefix + " monitors[" + std::to_string(i) + "] must be a monitor, got " +
                        typeOf(items[i]));
    if (m->index < 0)
      site.fail(at, prefix + " monitors[" + std::to_string(i) + "]: monitor " +
                        quote(m->data.name) + " was made in a test body");
    b.monitors[size_t(m->index)]->data.claimed = true;
    out.push_back(uint32_t(m->index));
  }
  return out;
}

std::shared_ptr<const Temporal> temporalArg(const CallSite &site, Value v, std::string_view test,
                                            std::string_view key) {
  if (isNone(v))
    return nullptr;
  TemporalValue *tv = temporalValueOf(v);
  if (!tv)
    site.fail(site.at(site.keywordValue(key)),
              "test(" + quote(test) + "): " + std::string(key) +
                  "= must be eventually(...) or always(...), got " + typeOf(v));
  return std::make_shared<const Temporal>(tv->data);
}

std::vector<Assume> assumeList(const CallSite &site, Value v, std::string_view test) {
  std::vector<Assume> out;
  if (isNone(v))
    return out;
  const syntax::Expr *lit = site.keywordValue("assume");
  auto *list = v.as<star::List>();
  if (!list)
    site.fail(site.at(lit),
              "test(" + quote(test) + "): assume= must be a list of predicates, got " + typeOf(v));
  for (size_t i = 0; i < list->elems.size(); ++i)
    out.push_back(assumeOf(site, list->elems[i], site.at(CallSite::element(lit, i)),
                           "test(" + quote(test) + "): assume[" + std::to_string(i) + "]: "));
  return out;
}

} // namespace fbc::ir::builtins
