// `fbc run`'s engine: executes a loaded spec's tests against real processes.
//
// Per test: compute the rules the test could put in force (test_rules.h)
// and from them each service's trap set; start every service fresh, in
// dependency order, under its filter (healthchecks polled); run the body on
// a worker thread with the body-time builtins bound (fault(), steps,
// assert_*, sleep, expect_*); for a fault_scenario or matrix cell apply the
// assumptions around the scenario and hand its result to the expectation;
// stop the services; classify the outcome (pass / fail / error /
// inconclusive, with a reason) and keep the ordered trace.
//
// A body that outlives its timeout is cancelled (sleeps and steps return at
// once, Starlark computation stops at its next step) and the test is
// inconclusive. An interrupt (the flag in RunConfig, set from a signal
// handler that has already SIGKILLed every service process group) ends the
// run after the current test without recording it.
#pragma once

#include "ir/body_runtime.h"
#include "ir/leaf_program.h"
#include "ir/load_spec.h"
#include "runtime/body_threads.h"
#include "runtime/rules.h"
#include "runtime/trace.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

class Supervisor;

struct RunReport;
struct TestOutcome;

struct RunConfig {
  uint64_t seed = 0;
  int64_t timeoutNs = 60 * 1000000000LL; // body timeout of def tests
  bool timeoutExplicit = false;          // --timeout given: it applies to every test
  int streamFd = -1;                     // >= 0: stream service output there (-v)
  int64_t stopGraceMs = 2000;            // SIGTERM → SIGKILL
  const std::atomic<bool> *interrupted = nullptr;
  // The leaf program (lowered from the plan): every leaf of every test runs
  // (docs/leaves.md). Null: each test runs once, choose() gives option 0.
  const ir::LeafProgram *leaves = nullptr;
  std::optional<uint64_t> leafId; // --leaf: only this leaf of each test
  // Called with each row as soon as it is recorded (the report so far, the
  // row), so a long run's results can be shown as they come.
  std::function<void(const RunReport &, const TestOutcome &)> onOutcome;
};

// The leaf a row belongs to (tests that fan out only). Keys sorted.
struct LeafInfo {
  std::string id;    // "0" .. "N-1"
  std::string label; // "retries=1, wal[10], spec.star:7#0"
  std::vector<std::pair<std::string, uint64_t>> choices;
  std::vector<std::pair<std::string, std::vector<bool>>> probability;
  std::vector<std::pair<std::string, uint64_t>> interleavings;
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

// Thrown by halt() through the body's Starlark frames (not an EvalError, so
// nothing on the way that handles Starlark errors can swallow it).
struct HaltSignal : std::exception {
  explicit HaltSignal(std::string r) : reason(std::move(r)) {}
  const char *what() const noexcept override { return reason.c_str(); }
  std::string reason; // "halt()" or "halt: <reason>"
};

// One fault rule's life in a test: applied, then removed with its hits.
struct FaultSummary {
  std::string service;
  std::string syscall; // the keyword
  std::string action;  // deny | delay | allow
  std::string errnoName;
  std::string delay; // "500ms" for delay
  std::string label;
  std::string path;
  uint64_t hits = 0;
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
  int64_t durationMs = 0;
  int64_t startWallNs = 0; // CLOCK_REALTIME when the trace started
  std::string returnValue; // repr of the body's / scenario's result, "" for None
  std::vector<TraceEvent> events;
  std::vector<FaultSummary> faults;
  std::map<std::string, SyscallSummary> syscallSummary;
  std::string expectation; // fault_scenario / matrix cell
  bool expectationViolated = false;
  std::optional<uint32_t> matrix; // matrix cells
  std::string scenario, fault;
  std::optional<LeafInfo> leaf;
  // The reference's matrix outcome word: passed, failed,
  // expectation_violated, errored, inconclusive.
  std::string outcomeWord() const;
};

struct RunReport {
  std::string starFile;
  uint64_t seed = 0;
  std::vector<std::string> serviceNames; // by ServiceId
  std::vector<TestOutcome> tests;        // in execution order
  int64_t durationMs = 0;
  bool interrupted = false;
  size_t notRun = 0; // tests not run because of the interrupt
  std::vector<RunWarning> warnings;
  size_t count(Result r) const;
};

class Executor final : public ir::BodyRuntime {
public:
  Executor(ir::LoadedSpec &loaded, RunConfig cfg);
  ~Executor() override;
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  // Runs `tests` in order. Call from the thread that should own the service
  // processes (their PR_SET_PDEATHSIG follows the forking thread).
  RunReport run(const std::vector<const ir::Test *> &tests);

  // ir::BodyRuntime
  star::Value callBuiltin(star::Thread &t, std::string_view name, const star::Args &args) override;
  star::Value callStep(star::Thread &t, star::Value receiver, std::string_view method,
                       const star::Args &args) override;
  star::Value callExpect(star::Thread &t, const ir::Expect &e, const star::Args &args) override;

private:
  TestOutcome runTest(const ir::Test &t, bool &interrupted);
  TestOutcome baseOutcome(const ir::Test &t) const;
  // Appends a row to the report and tells cfg_.onOutcome.
  void record(RunReport &report, TestOutcome o);
  // The error row of a --leaf that `t` does not have ("3 leaves").
  TestOutcome noSuchLeaf(const ir::Test &t, uint64_t leaf, const std::string &has) const;
  // Runs the leaves of a test that fans out; false when interrupted.
  bool runLeaves(const ir::Test &t, const ir::LeafTest &lt, RunReport &report);
  void warnOnce(star::Thread &t, std::string message);
  // The leaf's digit for the axis of `kind` named `name` (or, for choose,
  // at `loc`); nullopt when the axis is not planned for this test. During
  // leaf 0 an axis of unknown size records `size`.
  std::optional<uint64_t> leafDigit(ir::AxisKind kind, const std::string &name, const ir::Loc &loc,
                                    uint64_t size);
  star::Value choose(star::Thread &t, const star::Args &args);
  star::Value parallel(star::Thread &t, const star::Args &args);
  bool cancelled() const;
  bool interrupted() const;

  star::Value fault(star::Thread &t, const star::Args &args);
  star::Value faultAll(star::Thread &t, const star::Args &args);
  star::Value runWithRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules,
                           star::Value run);
  star::Value faultStart(star::Thread &t, const star::Args &args);
  // trace(svc, syscalls=[...], run=fn), trace_start(svc, syscalls=[...]),
  // trace_stop(svc)
  star::Value traceBuiltin(star::Thread &t, std::string_view name, const star::Args &args);
  star::Value faultStop(star::Thread &t, const star::Args &args);
  // Removes fault_start() / trace_start() scopes, innermost first, and
  // forgets them.
  void endScopes(std::vector<uint64_t> &scopes);
  star::Value assertEq(star::Thread &t, const star::Args &args);
  star::Value assertTrue(star::Thread &t, const star::Args &args);
  star::Value sleep(star::Thread &t, const star::Args &args);
  [[noreturn]] void halt(star::Thread &t, const star::Args &args);
  // events(**filters, where=), assert_eventually(...), assert_never(...)
  star::Value queryEvents(star::Thread &t, std::string_view who, const star::Args &args);
  star::Value assertBefore(star::Thread &t, const star::Args &args);
  std::vector<std::string> serviceNames() const; // by ServiceId
  void checkExpect(star::Thread &t, const ir::Expect &e, star::Value result);

  // Pushes `rules` as one fault scope after checking that every syscall they
  // name is trapped on its target; fails the body otherwise.
  uint64_t pushRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules);
  void rulesFromKwargs(star::Thread &t, const char *who, ServiceId target, const star::Args &args,
                       std::vector<RuleSpec> &out);

  ir::LoadedSpec &loaded_;
  RunConfig cfg_;
  // The running test's state (body thread and main thread).
  Supervisor *sup_ = nullptr;
  std::vector<std::vector<int>> traps_;
  std::map<ServiceId, std::vector<uint64_t>> started_;      // fault_start scopes per service
  std::map<ServiceId, std::vector<uint64_t>> traceStarted_; // trace_start scopes per service
  BodyThreads body_; // the body's Starlark threads, their lock and cancellation
  std::mutex sleepMu_;
  std::condition_variable sleepCv_;
  // The running leaf (null for a test without fan-out).
  const ir::LeafTest *leafTest_ = nullptr;
  ir::LeafAssignment leaf_;
  bool sizing_ = false;         // leaf 0 of a test with an axis of unknown size
  std::vector<uint64_t> sized_; // per axis: the size seen during leaf 0 (0: not reached)
  std::vector<std::string> warnedAt_;
  std::vector<RunWarning> warnings_;
};

} // namespace fbc::rt
