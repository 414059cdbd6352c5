// The rows of a run: a test's (or leaf's) outcome, its result and reason,
// trace, fault summaries and leaf identity, and the run's report that
// collects them (what runtime/report/report.h formats). No behaviour here beyond
// naming results and counting them.
#pragma once

#include "ir/diagnostic_codes.h"
#include "ir/spec.h"
#include "runtime/trace/trace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

// The leaf a row belongs to (tests that fan out only). Keys sorted.
struct LeafInfo {
  std::string id;    // "0" .. "N-1"
  std::string label; // "retries=1, wal[10], spec.star:7#0"
  std::vector<std::pair<std::string, uint64_t>> choices;
  std::vector<std::pair<std::string, std::string>> choiceValues; // the options ("1000")
  std::vector<std::pair<std::string, std::vector<bool>>> probability;
  std::vector<std::pair<std::string, uint64_t>> interleavings;
  // fbc run --explore: the calls the leaf released, in order
  // ("api/t1#2 sendto"), and its choices label (ir::LeafFields::schedule).
  std::vector<std::string> schedule;
  std::string scheduleChoices;
};

// What a parallel(interleavings="dpor") test explored (docs/run.md
// "Exploring orderings"), carried by its last leaf's row: how many classes
// of orders its leaves ran (explore::Dpor::classes(): leaves of one class
// count once) of how many mediated events (the most calls a leaf released; `eventsVary` when leaves
// released different numbers), and why the search is not complete ("" when it is).
struct ExploreCoverage {
  uint64_t classes = 0, events = 0;
  bool eventsVary = false;
  std::string incomplete; // "stopped at the budget of 3 leaves", ...
  // "explored 6 classes of the orderings of 12 mediated events; complete
  // at the mediated boundary under conservative independence", or
  // "...; not complete: <incomplete>".
  std::string statement() const;
  // What no exploration covers.
  static const char *notCovered();
};

// A run-time warning at a spec location (a choose() that is not a planned
// axis, ...), reported once per location.
struct RunWarning {
  ir::Loc loc;
  std::string message;
};

// Halted: the body called halt(), a verdict-less end (a pruned leaf): it
// counts as neither passed nor failed and does not change the exit code.
enum class Result { Pass, Fail, Error, Inconclusive, Halted };
const char *resultName(Result r); // "pass", "fail", "error", "inconclusive", "halted"

// One fault rule's life in a test: applied, then removed with its hits. A
// syscall rule (fault_applied/fault_removed) or a protocol rule on an
// interface's proxy (proxy_fault_applied/proxy_fault_removed: `interface`
// set, `rule` its display()).
struct FaultSummary {
  std::string service;
  std::string syscall; // the keyword
  std::string action;  // deny | delay | allow | trace; a protocol rule's response | error | ...
  std::string errnoName;
  std::string delay; // "500ms" for delay
  std::string label;
  std::string path;
  std::string filter; // what it trapped, "write,writev,..." (its fault_applied event)
  std::string interface, protocol, rule; // a protocol rule: "public", "http", "error(...)"
  uint64_t hits = 0;
  uint64_t matches = 0; // syscalls (requests) that passed its filters (hits: those it fired on)
  // Removed without one match (its fault_zero_traffic event): what it
  // watched and what it saw instead, and whether its whole fault saw
  // nothing (the event's `bypassed`: no deny/delay rule of the same
  // assumption or fault() call matched either; for protocol rules, no rule
  // of the same scope).
  bool zeroTraffic = false;
  bool faultBypassed = false;
  std::string watched, seenPaths, seenDestinations, seenRequests, hint;

  bool isProtocolRule() const { return !interface.empty(); }
  // A deny or delay rule (or a protocol rule) whose fault never happened.
  bool bypassed() const { return zeroTraffic && faultBypassed; }
  // What it was on: "kv", or a protocol rule's "api.public".
  std::string target() const;
  // "fsync=deny(EIO) path=\"**/x\" label=\"wal\"" (a trace rule: "fsync"), or
  // a protocol rule as written, "error(path=\"/x\", status=503)".
  std::string ruleText() const;
  // A bypassed rule in one line: "kv fsync=deny(EIO) (no fsync/fdatasync
  // call of kv reached the rule while it was in force)".
  std::string bypassedText() const;
};

struct TestOutcome {
  std::string name;
  ir::TestKind kind = ir::TestKind::Def;
  Result result = Result::Pass;
  std::string reason;
  // Where a failing (or timed-out) body was, "spec.star:6:11: in test_x",
  // outermost first.
  std::vector<std::string> traceback;
  uint64_t seed = 0;
  // fbc run --runs N: which run this row is (1-based, its seed is `seed`),
  // of how many at most, and how many passed before it. A leaf's runs stop
  // at the first that fails or errors; the row is that run (else the last).
  struct Runs {
    uint32_t run = 0, of = 0, passedBefore = 0;
  };
  std::optional<Runs> runs;
  int64_t durationMs = 0;
  int64_t startWallNs = 0; // CLOCK_REALTIME when the trace started
  std::string returnValue; // repr of the body's / scenario's result, "" for None
  std::vector<TraceEvent> events;
  std::vector<FaultSummary> faults;
  std::map<std::string, SyscallSummary> syscallSummary;
  // fbc run --record-ops: each service's calls by syscall and target
  // (Trace::operations); empty without it.
  std::map<std::string, std::vector<OperationCount>> operations;
  std::string expectation; // fault_scenario / matrix cell
  bool expectationViolated = false;
  // The body passed but none of the deny/delay rules below ever matched a
  // syscall, or none of a proxy scope's rules a request
  // (FaultSummary::bypassed): decideFaultVerdict() sets it.
  bool faultBypassed = false;
  // Strict L1 determinism failed the test (unmediated_io.h: the reason says
  // which category, service and syscall).
  bool strictDeterminismViolation = false;
  std::optional<uint32_t> matrix; // matrix cells
  std::string scenario, fault;
  std::optional<LeafInfo> leaf;
  // The last leaf of a parallel(interleavings="dpor") test's exploration.
  std::optional<ExploreCoverage> coverage;
  // By ServiceId: the service's {stdout, stderr} during this test (only with
  // RunConfig::keepServiceOutput; each is the last SupervisorOptions::
  // outputCap bytes).
  std::vector<std::pair<std::string, std::string>> serviceOutput;
  // Why the row did not pass, where its verdict alone does not say it: set
  // where the row is classified (a healthcheck that timed out, a service
  // that crashed at start, a body mistake the run found, an assertion, a
  // capability this machine lacks). rowCode() reads it; nothing else should.
  std::optional<ir::DiagCode> cause;
  // The reference's outcome word, the one name every output uses for a
  // row: passed, fault_bypassed (a pass whose faults never fired), failed,
  // strict_determinism_violation, expectation_violated, errored,
  // inconclusive, halted.
  std::string outcomeWord() const;
  // The rules that make it fault_bypassed, in application order.
  std::vector<const FaultSummary *> bypassedRules() const;
};

// The verdicts that follow from a finished row's trace, decided here and
// nowhere else (call once o.faults is filled): a pass with a deny/delay
// rule that never matched a syscall (or a protocol rule no request
// matched) is fault_bypassed (still a pass, exit
// code 0); with require_faults_fire it is a failure instead, its reason
// naming each rule and what it saw.
void decideFaultVerdict(TestOutcome &o, bool requireFaultsFire);

// The stable diagnostic code of a row (ir/diagnostic_codes.h), the one
// mapping from an outcome to its code that every output writes (the JSON
// rows, the text report, JUnit, the bundle's manifest and so the HTML
// report): FAULT_NOT_FIRED for a fault_bypassed row and a
// require_faults_fire failure, EXPECTATION_VIOLATED, TEST_TIMEOUT for an
// inconclusive row, SERVICE_CRASHED for a failure during which a service
// died, else the cause the classifier recorded. None for a pass, a halted
// row, a strict determinism violation (no code names it yet) and an error
// whose cause has no code (a port in use, a resource limit).
std::optional<ir::DiagCode> rowCode(const TestOutcome &o);

// How many rows of each kind, from their outcome words
// (TestOutcome::outcomeWord, a bundle row's `outcome`): the one mapping from
// a row's verdict to the counts that the text summary line, the JSON
// report's header, the manifest's summary and fbc merge print.
struct ResultCounts {
  uint64_t passed = 0;  // passed and fault_bypassed
  uint64_t failed = 0;  // failed, expectation_violated, strict_determinism_violation
  uint64_t errored = 0; // errored (and any word this version does not know)
  uint64_t inconclusive = 0, halted = 0;
  // Rows already counted above, by the verdict that makes them so.
  uint64_t faultBypassed = 0, expectationViolated = 0, strictDeterminismViolation = 0;
  void add(std::string_view outcomeWord);
};

struct RunReport {
  std::string starFile;
  std::string serviceDir; // the absolute folder services ran in
  uint64_t seed = 0;
  std::vector<std::string> serviceNames; // by ServiceId
  std::vector<TestOutcome> tests;        // in execution order
  int64_t durationMs = 0;
  bool interrupted = false;
  size_t notRun = 0; // rows (leaves) not run because of the interrupt
  std::vector<RunWarning> warnings;
  ResultCounts counts() const;
  // The run's flags that change a row's verdict, as the replay line repeats
  // them: --explore's (" --explore=all --explore-budget=5") and
  // " --require-faults-fire" (without it, a row it failed replays as a
  // pass); "" with neither.
  std::string replayFlags;
  // --show fail: the text report prints only the rows that did not pass
  // (nor halt), and one line when every row passed.
  bool showFailOnly = false;
};

// Applied/removed pairs of every fault rule in `events`, in application
// order, with the hits each removal reported.
std::vector<FaultSummary> faultSummaries(const std::vector<TraceEvent> &events,
                                         const std::vector<std::string> &names);

} // namespace fbc::rt
