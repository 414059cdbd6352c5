// The Executor's side of monitors and temporal properties: which monitors
// and expectations a test has and the events each sees, the watcher's turn
// while the body runs, the verdicts at its end, test(assume=), and the
// body-time builtins: await_event(), await_stable(), and monitor() /
// eventually() / always() called in a test body (they register with the
// running test).
#include "runtime/driver/executor.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/call_site.h"
#include "ir/builtins/temporal_values.h"
#include "ir/composed_assumptions.h"
#include "ir/duration.h"
#include "ir/quote.h"
#include "ir/temporal.h"
#include "runtime/body/builtin_args.h"
#include "runtime/supervisor/supervisor.h"

#include <chrono>

namespace fbc::rt {

using star::Value;

namespace {

Expectation expectationOf(std::shared_ptr<const ir::Temporal> def) {
  Expectation x;
  x.def = std::move(def);
  return x;
}

// The reference's clock= rule for await_*: "wall" only.
void wallClock(star::Thread &t, const char *fn, Value clock) {
  if (!clock || clock.is(star::Kind::None))
    return;
  auto *s = clock.as<star::String>();
  if (s && s->view() == "wall")
    return;
  if (s && s->view() == "virtual")
    throw CannotRunSignal(atCaller(t, std::string(fn) +
                                          ": clock=\"virtual\" requires gVisor (Path C); not "
                                          "available in this release"));
  failBadArgument(t, std::string(fn) + ": clock=" + star::repr(clock) +
                         ": must be \"wall\" (\"virtual\" reserved for a future release)");
}

} // namespace

void Executor::beginTemporal(const ir::Test &t) {
  temporal_ = std::make_unique<TemporalRun>();
  const ir::Spec &spec = loaded_.spec();
  if (t.temporal && t.temporal->expect)
    temporal_->expectations.push_back(expectationOf(t.temporal->expect));
  if (t.temporal && t.temporal->terminateWhen)
    temporal_->terminateWhen = expectationOf(t.temporal->terminateWhen);
  for (uint32_t i : ir::testMonitors(spec, t))
    (spec.monitors[i].claimed ? temporal_->scenarioMonitors : temporal_->bodyMonitors)
        .push_back(&spec.monitors[i]);
}

// Where a monitor's window opens or closes, the lines the services have
// written so far are read first: a line logged before a step returned is
// an event of the window the step was in.
uint64_t Executor::seqNow() {
  sup_->pumpObservedOutput();
  return sup_->trace().size();
}

uint64_t Executor::windowStart(bool monitors) {
  return monitors ? seqNow() : 0;
}

void Executor::openBody() {
  if (temporal_->bodyMonitors.empty())
    return;
  for (const ir::Monitor *m : temporal_->bodyMonitors)
    temporal_->monitors.push_back({m, seqNow(), UINT64_MAX});
}

void Executor::closeScenario(uint64_t from) {
  for (const ir::Monitor *m : temporal_->scenarioMonitors)
    temporal_->monitors.push_back({m, from, seqNow()});
}

void Executor::assumptionMonitors(const std::string &assumption, uint64_t from) {
  const ir::Spec &spec = loaded_.spec();
  for (const ir::FaultAssumption *a : ir::composedAssumptions(spec, assumption))
    for (uint32_t i : a->monitors)
      temporal_->monitors.push_back({&spec.monitors[i], from, seqNow()});
}

std::optional<std::pair<bool, std::string>> Executor::failedAssume(const ir::Test &t,
                                                                   star::Thread &th) {
  if (!t.temporal || t.temporal->assumes.empty())
    return std::nullopt;
  std::string error;
  Value choices = leafChoices(th, leafTest_, leaf_, error);
  if (!choices)
    return std::pair{false, error};
  for (const ir::Assume &a : t.temporal->assumes) {
    bool held = ir::builtins::assumeHolds(th, a, choices, error);
    if (!error.empty())
      return std::pair{false, error};
    if (!held)
      return std::pair{true, "assume(" + a.name + ") not satisfied"};
  }
  return std::nullopt;
}

std::optional<Ending> Executor::watchTemporal(star::Thread &wt) {
  sup_->pumpObservedOutput();
  std::lock_guard turn(body_.lock());
  temporal_->catchUp(sup_->trace(), serviceNames());
  return temporal_->poll(wt);
}

Executor::TemporalEnd Executor::endTemporal(star::Thread &wt, Ending cause) {
  TemporalEnd out;
  if (!temporal_->watching() && temporal_->monitors.empty())
    return out;
  sup_->pumpObservedOutput();
  std::lock_guard turn(body_.lock());
  temporal_->catchUp(sup_->trace(), serviceNames());
  temporal_->poll(wt); // the events recorded since the watcher's last turn
  out.monitor = temporal_->runMonitors(wt);
  // A violated expectation is the reason before an eventually() that was
  // never satisfied: the violation is what ended the body, whichever was
  // declared first.
  std::optional<std::string> neverSatisfied;
  for (Expectation &x : temporal_->expectations) {
    std::string why;
    Verdict v = x.finalize(wt, temporal_->events, cause, why);
    if (std::optional<std::string> &first = x.failed ? out.failed : neverSatisfied;
        v == Verdict::Fail && !first)
      first = x.def->name() + ": " + why;
    out.pending |= v == Verdict::Pending;
  }
  if (!out.failed)
    out.failed = std::move(neverSatisfied);
  return out;
}

bool Executor::pause() {
  InterpreterLock::Released waiting(body_.lock());
  std::unique_lock lock(sleepMu_);
  if (!cancelled())
    sleepCv_.wait_for(lock, std::chrono::milliseconds(10));
  return !cancelled();
}

Value Executor::temporalBuiltin(star::Thread &t, std::string_view name, const star::Args &args) {
  if (name == "await_event")
    return awaitEvent(t, args);
  if (name == "await_stable")
    return awaitStable(t, args);
  // monitor() / eventually() / always() in a body: the spec builtin made
  // the value; it registers with the running test from here on.
  Value made = args.positional[0];
  if (auto *m = ir::builtins::valueAs<ir::builtins::MonitorValue>(made))
    temporal_->monitors.push_back({&m->data, seqNow(), UINT64_MAX});
  else if (auto *x = ir::builtins::temporalValueOf(made))
    temporal_->expectations.push_back(expectationOf(std::make_shared<const ir::Temporal>(x->data)));
  return made;
}

// await_event(matcher_or_predicate, clock="wall"): the first event of the
// test that matches (one already recorded, or the next), as an event.
Value Executor::awaitEvent(star::Thread &t, const star::Args &args) {
  if (args.positional.size() != 1)
    failBadArgument(t,
                    "await_event() takes exactly one positional argument (a matcher or predicate)");
  Value clock;
  ir::builtins::bindBuiltinArgs(t, "await_event", star::Args{{}, args.kwargs}, {"clock?"},
                                {&clock});
  wallClock(t, "await_event", clock);
  std::shared_ptr<ir::Matcher> m = ir::builtins::matcherOf(args.positional[0]);
  if (!m)
    failBadArgument(t, "await_event(): expected matcher or callable, got " +
                           std::string(star::typeName(args.positional[0])));
  std::vector<std::string> names = serviceNames();
  size_t seen = 0;
  do {
    sup_->pumpObservedOutput();
    for (const TraceEvent &e : sup_->trace().eventsFrom(seen)) {
      ++seen;
      FlatEvent f = flattenEvent(e, names);
      if (eventMatches(t, *m, f))
        return eventValue(t, f);
    }
  } while (pause());
  t.fail("await_event: context deadline exceeded");
}

// await_stable(quiescence_window="1s", ignore=None, clock="wall"): returns
// once no event but the ignored ones has been recorded for the window.
Value Executor::awaitStable(star::Thread &t, const star::Args &args) {
  if (!args.positional.empty())
    failBadArgument(t, "await_stable() takes only keyword arguments");
  Value window, ignore, clock;
  ir::builtins::bindBuiltinArgs(t, "await_stable", args,
                                {"quiescence_window?", "ignore?", "clock?"},
                                {&window, &ignore, &clock});
  wallClock(t, "await_stable", clock);
  int64_t ns = 1000000000;
  if (window) {
    auto *s = window.as<star::String>();
    if (!s)
      failBadArgument(t, "await_stable: for parameter quiescence_window: got " +
                             std::string(star::typeName(window)) + ", want string");
    std::string error;
    std::optional<int64_t> d = ir::parseDuration(s->view(), error);
    if (!d)
      failBadDuration(t, "await_stable() bad quiescence_window: " + error);
    ns = *d;
  }
  if (ns <= 0)
    failBadArgument(t, "await_stable: awaitStable: window must be > 0");
  std::shared_ptr<ir::Matcher> ignored;
  if (ignore && !ignore.is(star::Kind::None)) {
    ignored = ir::builtins::matcherOf(ignore);
    if (!ignored)
      failBadArgument(t, "await_stable(ignore=...): expected matcher or callable, got " +
                             std::string(star::typeName(ignore)));
  }
  std::vector<std::string> names = serviceNames();
  size_t seen = sup_->trace().size();
  int64_t quietSince = monotonicNs();
  do {
    sup_->pumpObservedOutput();
    for (const TraceEvent &e : sup_->trace().eventsFrom(seen)) {
      ++seen;
      if (!ignored || !eventMatches(t, *ignored, flattenEvent(e, names)))
        quietSince = monotonicNs();
    }
    if (monotonicNs() - quietSince >= ns) {
      temporal_->signal("stable"); // always(between=(..., "stable"))
      return star::none();
    }
  } while (pause());
  t.fail("await_stable: context deadline exceeded");
}

} // namespace fbc::rt
