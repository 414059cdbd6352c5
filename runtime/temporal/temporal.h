// Monitors and temporal properties in a running test (ir/spec.h
// "temporal"): event matching, the `trace` object predicates get, the
// eventually()/always() state machines with the reference's three-valued
// verdicts, and the monitors run over their scope's events. The Executor
// drives them (runtime/body/temporal_builtins.cpp, runtime/driver/leaf_lifecycle.cpp);
// every call into Starlark here is made holding the interpreter lock.
#pragma once

#include "frontend/lib/objects.h"
#include "ir/leaf_program.h"
#include "ir/spec.h"
#include "runtime/trace/trace.h"
#include "runtime/values/event_value.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

// Whether `m` matches `e`. A Predicate matcher calls its callable with the
// event on `t`; one that fails does not match (as the reference).
bool eventMatches(star::Thread &t, const ir::Matcher &m, const FlatEvent &e);

// A monitor's or the trace object's view of an event (strict: a missing
// field is an error).
star::Value eventValue(star::Thread &t, const FlatEvent &e);

// The `trace` object an eventually()/always() predicate is called with: the
// test's events up to `limit` (the event just seen). Methods as the
// reference's: event(m) / last(m) (the last match or None), first(m),
// events(m) (a list), count(m), events_between(start, end) (events strictly
// between two events, None = open), events_within(m, window, of=event);
// `m` is a matcher, a callable, or match.event keywords.
class TraceValue final : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  static constexpr bool kNeedsDestroy = false;
  TraceValue(const std::vector<FlatEvent> *events, size_t limit)
      : star::Object(star::Kind::Host), events(events), limit(limit) {
    freeze();
  }
  std::string_view typeName() const override { return "trace"; }
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  const std::vector<FlatEvent> *events;
  size_t limit;
};

enum class Verdict { Pending, Pass, Fail };
// What ended the test's body (the reference's termination causes).
enum class Ending { Natural, TerminateWhen, Timeout, ImmediateFail };

// One eventually() / always() of the running test.
struct Expectation {
  std::shared_ptr<const ir::Temporal> def;
  bool satisfied = false, anchorReached = false; // eventually
  bool started = false, ended = false;           // always: its window
  bool failed = false;
  std::string failure; // "always(p) violated", "predicate raised: ..."
  // How far the anchor matchers have scanned the events (each event is
  // matched once).
  size_t anchorScan = 0, startScan = 0, endScan = 0;

  // A lifecycle anchor fired: "body_start", "body_end", "stable".
  void signal(std::string_view anchor);
  // After the event at events[limit - 1].
  Verdict evaluate(star::Thread &t, const std::vector<FlatEvent> &events, size_t limit);
  // At the end of the test: the verdict, with `why` for a fail or a pending.
  Verdict finalize(star::Thread &t, const std::vector<FlatEvent> &events, Ending cause,
                   std::string &why);
};

// A monitor and the events it sees: seq in (from, to].
struct MonitorScope {
  const ir::Monitor *def = nullptr;
  uint64_t from = 0, to = UINT64_MAX;
};

// The running test's monitors and expectations, and the events flattened
// so far.
struct TemporalRun {
  std::vector<Expectation> expectations; // test(expect=) and inline ones
  std::optional<Expectation> terminateWhen;
  std::vector<MonitorScope> monitors;
  std::vector<FlatEvent> events;
  size_t evaluated = 0; // events the expectations have seen
  // The test's monitors not yet given a scope: the spec-wide ones see the
  // body's events, the claimed ones (assumptions', monitors=) the
  // scenario's.
  std::vector<const ir::Monitor *> bodyMonitors, scenarioMonitors;

  bool watching() const { return !expectations.empty() || terminateWhen.has_value(); }
  // Flattens what `trace` recorded since the last call.
  void catchUp(const Trace &trace, const std::vector<std::string> &names);
  // Evaluates the expectations on each event not seen yet, in order; what
  // ends the body, if anything does (an always() violated, terminate_when).
  std::optional<Ending> poll(star::Thread &t);
  void signal(std::string_view anchor);
  // Each monitor over its scope's events in seq order (update, then check);
  // the first violation's reason (`monitor violation: monitor "m" violated at
  // event seq=4 type="stdout" service="api"`).
  std::optional<std::string> runMonitors(star::Thread &t) const;
};

// test(assume=[...]): the choices dict (each named choose() axis of the
// leaf -> the option it takes, from the constants the leaf program carries:
// ir::PlanAxis::constants). An option that is not a constant is `error`.
star::Value leafChoices(star::Thread &t, const ir::LeafTest *lt, const ir::LeafAssignment &leaf,
                        std::string &error);

} // namespace fbc::rt
