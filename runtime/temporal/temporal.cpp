// Event matching, the `trace` object, and the eventually()/always() state
// machines: see temporal.h. The verdict rules are the reference's (its
// RFC-041 table): eventually passes once its predicate holds (after its
// anchor, if any); pending at the end it fails when the body returned or
// terminate_when fired, and is inconclusive on a timeout. always fails at
// the first event after which its predicate is false inside its window;
// a window whose end never came, or an unbounded one, is inconclusive on a
// timeout.
#include "runtime/temporal/temporal.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/args.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/temporal_values.h"
#include "ir/duration.h"

namespace fbc::rt {

using star::Value;

bool eventMatches(star::Thread &t, const ir::Matcher &m, const FlatEvent &e) {
  switch (m.kind) {
  case ir::MatcherKind::Event:
    return matchesFilters(e, m.criteria, Criteria::Matcher);
  case ir::MatcherKind::Any:
    for (const ir::Matcher &c : m.children)
      if (eventMatches(t, c, e))
        return true;
    return false;
  case ir::MatcherKind::All:
    for (const ir::Matcher &c : m.children)
      if (!eventMatches(t, c, e))
        return false;
    return true;
  case ir::MatcherKind::Never:
    return false;
  case ir::MatcherKind::Predicate:
    try {
      Value one[] = {eventValue(t, e)};
      return star::truth(star::call(t, m.fn.value, llvm::ArrayRef<Value>(one)));
    } catch (const star::EvalError &) {
      return false;
    }
  }
  return false;
}

Value eventValue(star::Thread &t, const FlatEvent &e) {
  auto *v = t.heap.make<EventValue>(e);
  v->strict = true;
  return Value::object(v);
}

// ---------------------------------------------------------------- trace

namespace {

const TraceValue &self(Value v) {
  return *static_cast<const TraceValue *>(v.obj());
}

// The matcher of a trace method: one positional matcher / callable, or
// match.event keywords.
ir::Matcher matcherArg(star::Thread &t, const char *fn, const star::Args &args) {
  if (args.positional.size() == 1 && args.kwargs.empty()) {
    if (std::shared_ptr<ir::Matcher> m = ir::builtins::matcherOf(args.positional[0]))
      return *m;
    t.fail(std::string(fn) + "(): expected matcher or callable, got " +
           std::string(star::typeName(args.positional[0])));
  }
  if (!args.positional.empty())
    t.fail(std::string(fn) + "(): takes one matcher or match.event keywords");
  ir::Matcher m;
  m.kind = ir::MatcherKind::Event;
  for (const star::Kwarg &k : args.kwargs) {
    auto *s = k.value.as<star::String>();
    if (!s)
      t.fail(std::string(fn) + "(" + std::string(k.name->view()) +
             "=...): value must be a string, got " + std::string(star::typeName(k.value)));
    m.criteria.emplace_back(std::string(k.name->view()), std::string(s->view()));
  }
  return m;
}

std::vector<const FlatEvent *> matching(star::Thread &t, const TraceValue &tr,
                                        const ir::Matcher &m) {
  std::vector<const FlatEvent *> out;
  for (size_t i = 0; i < tr.limit; ++i)
    if (eventMatches(t, m, (*tr.events)[i]))
      out.push_back(&(*tr.events)[i]);
  return out;
}

Value listOf(star::Thread &t, const std::vector<const FlatEvent *> &evs) {
  std::vector<Value> out;
  for (const FlatEvent *e : evs)
    out.push_back(eventValue(t, *e));
  return Value::object(t.heap.make<star::List>(std::move(out)));
}

// event(m) / last(m) (the last match) and first(m): one event, or None.
Value oneMatch(star::Thread &t, Value s, const star::Args &args, const char *fn, bool last) {
  std::vector<const FlatEvent *> evs = matching(t, self(s), matcherArg(t, fn, args));
  if (evs.empty())
    return star::none();
  return eventValue(t, last ? *evs.back() : *evs.front());
}

Value traceLast(star::Thread &t, Value s, const star::Args &args) {
  return oneMatch(t, s, args, "trace.last", true);
}

Value traceEvent(star::Thread &t, Value s, const star::Args &args) {
  return oneMatch(t, s, args, "trace.event", true);
}

Value traceFirst(star::Thread &t, Value s, const star::Args &args) {
  return oneMatch(t, s, args, "trace.first", false);
}

Value traceEvents(star::Thread &t, Value s, const star::Args &args) {
  return listOf(t, matching(t, self(s), matcherArg(t, "trace.events", args)));
}

Value traceCount(star::Thread &t, Value s, const star::Args &args) {
  return Value::small(int64_t(matching(t, self(s), matcherArg(t, "trace.count", args)).size()));
}

// An event argument's seq, or -1 for None.
int64_t seqArg(star::Thread &t, const char *fn, Value v) {
  if (v.is(star::Kind::None))
    return -1;
  if (v.isObject() && v.obj()->typeName() == EventValue::kTypeName)
    return int64_t(static_cast<const EventValue *>(v.obj())->ev.seq);
  t.fail(std::string(fn) + "(): want an event or None, got " + std::string(star::typeName(v)));
}

Value traceBetween(star::Thread &t, Value s, const star::Args &args) {
  Value a, b;
  star::bindPositional(t, "trace.events_between", args, 2, {&a, &b});
  int64_t from = seqArg(t, "trace.events_between", a), to = seqArg(t, "trace.events_between", b);
  const TraceValue &tr = self(s);
  std::vector<const FlatEvent *> out;
  for (size_t i = 0; i < tr.limit; ++i) {
    const FlatEvent &e = (*tr.events)[i];
    if (from >= 0 && int64_t(e.seq) <= from)
      continue;
    if (to >= 0 && int64_t(e.seq) >= to)
      break;
    out.push_back(&e);
  }
  return listOf(t, out);
}

// events_within(matcher, window, of=event): matches whose time is within
// `window` of `of`'s (every match when of is None).
Value traceWithin(star::Thread &t, Value s, const star::Args &args) {
  Value m, window, of;
  star::bindArgs(t, "trace.events_within", args, {"matcher", "window", "of?"}, {&m, &window, &of});
  std::shared_ptr<ir::Matcher> matcher = ir::builtins::matcherOf(m);
  if (!matcher)
    t.fail("trace.events_within(): expected matcher or callable, got " +
           std::string(star::typeName(m)));
  auto *w = window.as<star::String>();
  std::string error;
  std::optional<int64_t> ns = w ? ir::parseDuration(w->view(), error) : std::nullopt;
  if (!ns)
    t.fail("trace.events_within() bad window: " +
           (w ? error : "want a duration string, got " + std::string(star::typeName(window))));
  const TraceValue &tr = self(s);
  const FlatEvent *anchor = nullptr;
  if (of && !of.is(star::Kind::None)) {
    if (!of.isObject() || of.obj()->typeName() != EventValue::kTypeName)
      t.fail("trace.events_within(of=...): must be an event or None, got " +
             std::string(star::typeName(of)));
    anchor = &static_cast<const EventValue *>(of.obj())->ev;
  }
  std::vector<const FlatEvent *> out;
  for (const FlatEvent *e : matching(t, tr, *matcher))
    if (!anchor || std::llabs(e->timeNs - anchor->timeNs) <= *ns)
      out.push_back(e);
  return listOf(t, out);
}

struct Method {
  const char *name;
  star::BuiltinFn fn;
};
constexpr Method kMethods[] = {
    {"count", traceCount},
    {"event", traceEvent},
    {"events", traceEvents},
    {"events_between", traceBetween},
    {"events_within", traceWithin},
    {"first", traceFirst},
    {"last", traceLast},
};

} // namespace

void TraceValue::repr(star::Printer &p) const {
  p.write("<trace>");
}

Value TraceValue::attr(star::Thread &t, std::string_view name) {
  for (const Method &m : kMethods)
    if (name == m.name)
      return Value::object(t.heap.make<star::Builtin>(m.name, m.fn, Value::object(this)));
  if (name == "causal_chain")
    t.fail("trace.causal_chain() is not supported by fbc: its events carry no vector clocks");
  t.fail("trace has no attribute " + star::repr(star::makeString(t.heap, name)));
}

void TraceValue::attrNames(std::vector<std::string> &out) const {
  for (const Method &m : kMethods)
    out.push_back(m.name);
}

// ---------------------------------------------------------- expectations

void Expectation::signal(std::string_view anchor) {
  if (def->kind != ir::TemporalKind::Always)
    return;
  if (!def->start.matcher && def->start.name == anchor)
    started = true;
  if (!def->end.matcher && def->end.name == anchor)
    ended = true;
}

namespace {

// Whether an event before `limit` matches `m`, scanning on from `from`.
bool reached(star::Thread &t, const ir::Matcher &m, const std::vector<FlatEvent> &events,
             size_t limit, size_t &from) {
  for (; from < limit; ++from)
    if (eventMatches(t, m, events[from])) {
      ++from;
      return true;
    }
  return false;
}

bool predicateHolds(star::Thread &t, const ir::Temporal &def, const std::vector<FlatEvent> &events,
                    size_t limit, std::string &raised) {
  try {
    Value one[] = {Value::object(t.heap.make<TraceValue>(&events, limit))};
    return star::truth(star::call(t, def.pred.value, llvm::ArrayRef<Value>(one)));
  } catch (const star::EvalError &e) {
    raised = "predicate raised: " + e.message();
    return false;
  }
}

} // namespace

Verdict Expectation::evaluate(star::Thread &t, const std::vector<FlatEvent> &events, size_t limit) {
  if (failed)
    return Verdict::Fail;
  std::string raised;
  if (def->kind == ir::TemporalKind::Eventually) {
    if (satisfied)
      return Verdict::Pass;
    // Not started until an event matches its anchor.
    if (def->anchor && !anchorReached) {
      anchorReached = reached(t, *def->anchor, events, limit, anchorScan);
      if (!anchorReached)
        return Verdict::Pending;
    }
    if (predicateHolds(t, *def, events, limit, raised)) {
      satisfied = true;
      return Verdict::Pass;
    }
    if (!raised.empty()) {
      failed = true;
      failure = raised;
      return Verdict::Fail;
    }
    return Verdict::Pending;
  }
  if (!started) {
    if (def->start.matcher) {
      started = reached(t, *def->start.matcher, events, limit, startScan);
      if (!started)
        return Verdict::Pending;
    } else if (def->start.name.empty() || def->start.name == "body_start") {
      started = true; // the body is running by the time events arrive
    } else {
      return Verdict::Pending; // "body_end" / "stable": signalled
    }
  }
  if (!ended && def->end.matcher)
    ended = reached(t, *def->end.matcher, events, limit, endScan);
  if (ended)
    return Verdict::Pass;
  if (!predicateHolds(t, *def, events, limit, raised)) {
    failed = true;
    failure = raised.empty() ? def->name() + " violated" : raised;
    return Verdict::Fail;
  }
  return Verdict::Pending;
}

Verdict Expectation::finalize(star::Thread &t, const std::vector<FlatEvent> &events, Ending cause,
                              std::string &why) {
  Verdict v = evaluate(t, events, events.size());
  if (v == Verdict::Fail) {
    why = failure;
    return v;
  }
  std::string name = def->name();
  if (def->kind == ir::TemporalKind::Eventually) {
    if (v == Verdict::Pass)
      return v;
    switch (cause) {
    case Ending::TerminateWhen:
      why = name + " never satisfied; terminate_when fired";
      return Verdict::Fail;
    case Ending::ImmediateFail:
      why = name + " never satisfied; an always() violation ended the body first";
      return Verdict::Fail;
    case Ending::Timeout:
      why = name + " never satisfied within timeout";
      return Verdict::Pending;
    case Ending::Natural:
      why = name + " never satisfied before body returned";
      return Verdict::Fail;
    }
  }
  bool endPending = !ended && def->end.set();
  if (endPending && cause == Ending::Timeout) {
    why = name + " end-anchor never reached within timeout";
    return Verdict::Pending;
  }
  if (!def->end.set() && cause == Ending::Timeout) {
    why = name + " held through a truncated (timed-out) prefix — safety not definitively "
                 "established";
    return Verdict::Pending;
  }
  return Verdict::Pass;
}

// ------------------------------------------------------------- the run

void TemporalRun::catchUp(const Trace &trace, const std::vector<std::string> &names) {
  size_t seen = trace.size() < events.size() ? trace.size() : events.size();
  for (const TraceEvent &e : trace.eventsFrom(seen))
    events.push_back(flattenEvent(e, names));
}

std::optional<Ending> TemporalRun::poll(star::Thread &t) {
  for (; evaluated < events.size(); ++evaluated) {
    size_t limit = evaluated + 1;
    for (Expectation &x : expectations)
      if (x.evaluate(t, events, limit) == Verdict::Fail &&
          x.def->kind == ir::TemporalKind::Always) {
        ++evaluated;
        return Ending::ImmediateFail;
      }
    if (terminateWhen && terminateWhen->evaluate(t, events, limit) == Verdict::Pass) {
      ++evaluated;
      return Ending::TerminateWhen;
    }
  }
  return std::nullopt;
}

void TemporalRun::signal(std::string_view anchor) {
  for (Expectation &x : expectations)
    x.signal(anchor);
  if (terminateWhen)
    terminateWhen->signal(anchor);
}

} // namespace fbc::rt
