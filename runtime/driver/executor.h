// `fbc run`'s engine: executes a loaded spec's tests against real processes.
// The Executor is one object whose members live in files by concern:
//
//   executor.cpp        the leaf driver: the selected tests' leaves as a
//                       list of jobs in plan order (mixed-radix from the
//                       leaf program), each run, rows recorded in that order
//   leaf_scheduler.cpp  -j N: up to N jobs at once, each on a thread of its
//                       own in a network namespace of its own, on an
//                       Executor of its own; rows still in plan order
//   test_lifecycle.cpp  one test: trap sets, services started under their
//                       filters, the body on a worker thread, the timeout,
//                       the classification of the outcome
//   launch_config.cpp   IR service -> what the supervisor starts
//   body_builtins.cpp   the body-time builtin table (name -> member) and
//                       the plain builtins: choose, parallel, sleep, halt,
//                       assert_eq, assert_true, nondet
//   fault_builtins.cpp  fault(), fault_all(), fault_start(), fault_stop()
//                       and the rule scopes they push
//   trace_builtins.cpp  trace(), trace_start(), trace_stop()
//   event_builtins.cpp  events(), assert_eventually/never/before()
//   step_builtins.cpp   svc.get()/post()/.../send(): HTTP and TCP steps
//   expectations.cpp    expect_success / expect_error_within / expect_hang
//
// A body that outlives its timeout is cancelled (sleeps and steps return at
// once, Starlark computation stops at its next step) and the test is
// inconclusive. An interrupt (the flag in RunConfig, set from a signal
// handler that has already SIGKILLed every service process group) ends the
// run after the current test without recording it.
#pragma once

#include "backend/shard.h"
#include "ir/body_runtime.h"
#include "ir/leaf_program.h"
#include "ir/load/load_spec.h"
#include "runtime/driver/body_threads.h"
#include "runtime/rules/rules.h"
#include "runtime/temporal/temporal.h"
#include "runtime/trace/outcome.h"
#include "runtime/trace/trace.h"

#include <llvm/ADT/ArrayRef.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fbc::ir::builtins {
class InterfaceRefValue;
}

namespace fbc::ir {
struct ContractOperation; // ir/contract.h
} // namespace fbc::ir

namespace fbc::ir::builtins {
class ClientValue; // ir/builtins/client_value.h
}

namespace fbc::rt {

class Supervisor;
struct SupervisorOptions;
class ProxyHub;
class ProxyFaultScopes;
namespace explore {
class HoldWindow;
class Chooser;
struct LeafSchedule;
} // namespace explore

struct RunConfig {
  uint64_t seed = 0;
  // --runs N: each leaf runs up to N times, run k (from 0) with seed
  // `seed + k`, until one fails or errors (explored leaves run once).
  uint32_t runs = 1;
  bool showFailOnly = false;             // --show fail (RunReport::showFailOnly)
  int64_t timeoutNs = 60 * 1000000000LL; // body timeout of def tests
  bool timeoutExplicit = false;          // --timeout given: it applies to every test
  int streamFd = -1;                     // >= 0: stream service output there (-v)
  int64_t stopGraceMs = 2000;            // SIGTERM → SIGKILL
  const std::atomic<bool> *interrupted = nullptr;
  // The leaf program (lowered from the plan): every leaf of every test runs
  // (docs/leaves.md), each service trapping what it says. Required: the
  // caller lowers it (backend::leafPipeline()); the runtime plans nothing.
  const ir::LeafProgram *leaves = nullptr;
  std::optional<uint64_t> leafId; // --leaf: only this leaf of each test
  // --shard: only these leaves (per leaf-program test, in plan order); a
  // test with none selected gets no row. Null: every leaf.
  const backend::LeafSelection *selection = nullptr;
  // Keep each service's stdout/stderr per test (TestOutcome::serviceOutput),
  // for the run's bundle.
  bool keepServiceOutput = false;
  // --require-faults-fire: every test as if it said require_faults_fire=True
  // (a pass whose fault never fired is a failure naming the rules).
  bool requireFaultsFire = false;
  // --record-ops: every service also traps every faultable syscall family
  // (ir::syscallKeywords), and each row counts its services' calls by what
  // they were on (TestOutcome::operations), for `fbc plan --suggest
  // --from`. The one widening of the leaf program's trap sets.
  bool recordOperations = false;
  // The folder services run in and their relative binaries resolve against;
  // "" = the spec's folder. `fbc replay` runs a snapshot of the spec from a
  // temporary folder with the original folder here.
  std::string serviceDir;
  // Each leaf in a network namespace of its own (runtime/os/leaf_isolation.h;
  // the caller checks netnsAvailable() first and leaves it off for specs
  // whose services need the host's network: remote and container
  // services): the leaf runs on a thread of its own that enters a fresh
  // namespace, so its services bind their declared ports whatever else on
  // the host holds them. With a reused service the run's leaves share one
  // namespace (the reused services outlive each leaf). Off: every leaf runs
  // in fbc's own namespace.
  bool leafNetns = false;
  // fbc run --host-network: asked for, so the replay line repeats it.
  bool hostNetwork = false;
  // Leaves run at once (fbc run -j N); above 1 needs leafNetns. Rows,
  // warnings and the exit code are the same as with 1, in plan order.
  int jobs = 1;
  // Called with each row as soon as it is recorded (the report so far, the
  // row), so a long run's results can be shown as they come. Rows are
  // recorded in plan order whatever order leaves finish in.
  std::function<void(const RunReport &, const TestOutcome &)> onOutcome;
  // fbc replay of an explored run: the schedules its rows released, per
  // test name and leaf id; such a test runs exactly these leaves.
  struct Schedule {
    std::string test;
    uint64_t leaf = 0;
    std::vector<std::string> released;
  };
  std::vector<Schedule> schedules;
};

// " --explore=all --explore-budget=5": the flags that make fbc run explore
// as `e` says, defaults left out ("" when not exploring).
std::string exploreFlags(const ir::ExploreOptions &e);

// Thrown by halt() through the body's Starlark frames (not an EvalError, so
// nothing on the way that handles Starlark errors can swallow it).
struct HaltSignal : std::exception {
  explicit HaltSignal(std::string r) : reason(std::move(r)) {}
  const char *what() const noexcept override { return reason.c_str(); }
  std::string reason; // "halt()" or "halt: <reason>"
};

// Thrown where a body reaches a part this machine cannot run that the plan
// could not see (a partition() through a computed name, a recipe's Kafka
// rule): the test is an error row with the cannot-run reason, as a need the
// plan saw makes it, not a failure of the system under test.
struct CannotRunSignal : std::exception {
  explicit CannotRunSignal(std::string r) : reason(std::move(r)) {}
  const char *what() const noexcept override { return reason.c_str(); }
  std::string reason;
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

  // The body-time builtins the runtime implements, sorted by name
  // (body_builtins.cpp). Every member takes the name it was called by.
  using BuiltinFn = star::Value (Executor::*)(star::Thread &, std::string_view, const star::Args &);
  struct Builtin {
    std::string_view name;
    BuiltinFn fn;
  };
  static llvm::ArrayRef<Builtin> builtinTable();

private:
  // ---- leaf driver (executor.cpp)
  // One unit of the driver's work, in plan order: a leaf of a test (a test
  // without fan-out is its leaf 0), a row known without running anything
  // (an error), or the rest of a test whose axes leaf 0 sizes.
  struct LeafJob;
  using Jobs = std::vector<std::unique_ptr<LeafJob>>;
  TestOutcome baseOutcome(const ir::Test &t) const;
  // Appends a row to the report and tells cfg_.onOutcome.
  void record(RunReport &report, TestOutcome o);
  // The error row of a --leaf that `t` does not have ("3 leaves").
  TestOutcome noSuchLeaf(const ir::Test &t, uint64_t leaf, const std::string &has) const;
  // The jobs of `tests`, in plan order; `work` receives the copies of the
  // leaf tests whose unknown axes the run sizes.
  Jobs planJobs(const std::vector<const ir::Test *> &tests,
                std::vector<std::unique_ptr<ir::LeafTest>> &work) const;
  // Replaces the "rest of a test" job at `at` (its sizing leaf done) by
  // what it stands for.
  void expandRest(Jobs &jobs, size_t at) const;
  // The rows a job stands for (not_run when it never ran).
  uint64_t rowsOf(const LeafJob &job) const;
  // ---- explored tests (explore_jobs.cpp)
  // The first jobs of explored test `lt` (leaf 0, or the replayed leaves).
  void planExplore(size_t pos, const ir::LeafTest &lt, Jobs &jobs) const;
  // After the explored leaf at `at` ran: the next one, if any, after it.
  void exploreNext(Jobs &jobs, size_t at);
  // The running leaf's hold window for a parallel() call (null: the leaf
  // is not explored), around its branches.
  std::unique_ptr<explore::HoldWindow> openHoldWindow(size_t branches);
  // Runs a leaf job on this Executor (any thread); fills its result.
  void runJob(LeafJob &job);
  // runJob() after moving the calling thread (one of the leaf's own) into a
  // fresh network namespace; a namespace that cannot be made is the leaf's
  // error row.
  void runJobInNewNetns(LeafJob &job);
  // runJob() as cfg_.leafNetns says: on this thread, or on a thread of its
  // own in a fresh namespace (joined before returning).
  void runJobIsolated(LeafJob &job);
  // The leaf's runs (RunConfig::runs), each with its seed: the row of the
  // first that fails or errors, else of the last.
  TestOutcome runRepeated(const LeafJob &job, const ir::LeafTest &lt, bool &intr);
  // After `job` ran (on the driver's thread): the axes it sized, its row's
  // leaf fields.
  void finishJob(LeafJob &job) const;
  // Runs the jobs one at a time on this thread / up to cfg_.jobs at once
  // (leaf_scheduler.cpp), recording rows as they are ready (recordReady());
  // both return the index of the first job an interrupt stopped
  // (jobs.size() when all ran).
  size_t runJobsInline(Jobs &jobs, RunReport &report);
  size_t runJobsConcurrently(Jobs &jobs, RunReport &report);
  // runJobsInline() on a thread that first enters a fresh network
  // namespace, shared by every leaf (a spec with reused services); the
  // reused services stop before that thread ends.
  size_t runJobsInOneNetns(Jobs &jobs, RunReport &report);
  // Records the rows of the finished jobs from `next` on, in plan order, up
  // to the first job not finished or interrupted.
  void recordReady(Jobs &jobs, size_t &next, RunReport &report);
  void warnOnce(star::Thread &t, std::string message);
  // The running leaf's digit for the axis of the call at `loc` (choose,
  // parallel: axes are keyed by call site) or of probability-site `key`;
  // nullopt when the leaf program has no such axis for this test. During
  // leaf 0 an axis of unknown size records `size`.
  std::optional<uint64_t> leafDigitAt(ir::AxisKind kind, const ir::Loc &loc, uint64_t size);
  std::optional<uint64_t> leafDigitAt(const ir::RuleSite &site, uint64_t size);
  std::optional<uint64_t> leafDigit(int axis, uint64_t size);
  bool cancelled() const;
  bool interrupted() const;

  // ---- test lifecycle (test_lifecycle.cpp)
  // Runs test `lt.test` once, trapping what `lt.traps` says.
  TestOutcome runTest(const ir::LeafTest &lt, bool &interrupted);
  // runTest(), with a resource failure (a thread or process that could not
  // be created, memory) turned into the test's error row: the run goes on.
  TestOutcome runTestGuarded(const ir::LeafTest &lt, bool &interrupted);
  // How the body ended (on its worker thread).
  struct BodyEnd;
  // Runs the test's body (setup, scenario + assumptions + expectation) on
  // `th`; what it returned or how it failed goes into `end`.
  void runBody(const ir::Test &t, star::Thread &th, BodyEnd &end);
  // Runs the body on a worker thread until it ends, the timeout passes or
  // the run is interrupted; classifies the outcome into `o`.
  void superviseBody(const ir::Test &t, TestOutcome &o, bool &intr);
  // How long the body may run: --timeout, else the fault_scenario / matrix
  // cell / test() timeout.
  int64_t bodyTimeoutNs(const ir::Test &t) const;

  // ---- reused services (reused_services.cpp)
  // A spec with a service(reuse=True) runs its tests on one stage: a
  // supervisor, proxies (in front of every interface some test's protocol
  // rules target) and a scratch directory for the reused services, opened
  // by the first test and closed at the end of the run. Reused services
  // keep running from test to test; the others start fresh per test.
  struct Stage;
  // Whether the spec has a reused service.
  bool reusesServices() const;
  // The run's stage (opened with `so` by the first call); null with `error`.
  Stage *openStage(const SupervisorOptions &so, std::string &error);
  // The service spec of service `i` in the running test: a reused one's
  // traps every test's (the union), its scratch the stage's.
  bool reusedSpec(size_t i) const;
  // Of the services in start order, those the test starts: a reused service
  // still running and answering its healthcheck is left out; one that died
  // or stopped answering is stopped and started again (service_recreated,
  // with the reason, in the test's trace).
  std::vector<ServiceId> servicesToStart(const std::vector<ServiceId> &order);
  // Once the test's services are up (`order`: all of them in start order,
  // `started`: those the test started): the seed= and reset= functions its
  // body runs first, in start order.
  void planHooks(const std::vector<ServiceId> &order, const std::vector<ServiceId> &started);
  // On the body's thread, before the body: runs them (service_seed /
  // service_reset first); false with `error` naming the service.
  bool runHooks(star::Thread &th, std::string &error);
  struct Hook {
    ServiceId service;
    const ir::FunctionRef *fn;
    bool seed; // else reset
  };
  std::vector<Hook> hooks_;
  std::unique_ptr<Stage> stage_;

  // ---- plain body builtins (body_builtins.cpp)
  star::Value choose(star::Thread &t, std::string_view, const star::Args &args);
  star::Value nondet(star::Thread &t, std::string_view, const star::Args &args);
  star::Value parallel(star::Thread &t, std::string_view, const star::Args &args);
  star::Value assertEq(star::Thread &t, std::string_view, const star::Args &args);
  star::Value assertTrue(star::Thread &t, std::string_view, const star::Args &args);
  star::Value sleep(star::Thread &t, std::string_view, const star::Args &args);
  // Throws HaltSignal.
  star::Value halt(star::Thread &t, std::string_view, const star::Args &args);

  // ---- fault builtins (fault_builtins.cpp)
  star::Value fault(star::Thread &t, std::string_view, const star::Args &args);
  star::Value faultAll(star::Thread &t, std::string_view, const star::Args &args);
  star::Value faultStart(star::Thread &t, std::string_view, const star::Args &args);
  star::Value faultStop(star::Thread &t, std::string_view, const star::Args &args);
  star::Value runWithRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules,
                           star::Value run);
  // The single positional argument of `who` (fault_start, fault_stop,
  // trace*), a service, as its running id; with `keywords` false no keyword
  // argument is allowed. A service that is not running fails the call
  // when `mustRun`, else gives nullopt.
  std::optional<ServiceId> serviceArg(star::Thread &t, std::string_view who, const star::Args &args,
                                      bool keywords, bool mustRun);
  // Removes fault_start() / trace_start() scopes, innermost first, and
  // forgets them.
  void endScopes(std::vector<uint64_t> &scopes);
  // Pushes `rules` as one fault scope after checking that every syscall they
  // name is trapped on its target; fails the body otherwise.
  uint64_t pushRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules);
  void rulesFromKwargs(star::Thread &t, const char *who, ServiceId target, const star::Args &args,
                       std::vector<RuleSpec> &out);
  // The running leaf's pins for the first `bits` occurrences of probability
  // site `key` (null, with a warning, when the plan has no such axis).
  DecisionOverride leafOverride(star::Thread &t, const char *who, const ir::RuleSite &site,
                                const std::string &key, uint64_t bits);

  // ---- the gVisor gateway's builtins (gateway_builtins.cpp)
  // bandwidth() mtu() partition*() watch*(): checks the arguments, then
  // fails the test with why this machine cannot run it.
  [[noreturn]] star::Value gatewayBuiltin(star::Thread &t, std::string_view name,
                                          const star::Args &args);
  // Fails the test with why `builtin` (a packet rule, partition(), ...)
  // cannot run here.
  [[noreturn]] void refuseGatewayNeed(star::Thread &t, std::string_view builtin);
  // fault(svc.iface, packet_drop(), ...): refuses the first packet rule.
  void refusePacketRules(star::Thread &t, const star::Args &args);

  // ---- protocol rules on interfaces (proxy_builtins.cpp)
  // fault(svc.iface, rule, ..., run=), fault_start(svc.iface, rule, ...),
  // fault_stop(svc.iface).
  star::Value faultInterface(star::Thread &t, const ir::builtins::InterfaceRefValue &ref,
                             const star::Args &args, star::Value run);
  star::Value faultStartInterface(star::Thread &t, const ir::builtins::InterfaceRefValue &ref,
                                  const star::Args &args);
  star::Value faultStopInterface(const ir::builtins::InterfaceRefValue &ref);
  // A fault(svc.iface, ...) / fault_start() call's rules, lowered as an
  // assumption's are (backend::lowerProxyRule; at: the call).
  std::vector<ir::LoweredProxyRule> lowerCallProxyRules(star::Thread &t, const char *who,
                                                        const ir::builtins::InterfaceRefValue &ref,
                                                        const std::vector<ir::ProxyRule> &rules);
  // Checks lowered `rules` (one interface's) against the interface's proxy
  // and protocol, pins the leaf's occurrences, pushes them as one proxy
  // scope (proxy_fault_applied).
  uint64_t pushProxyRules(star::Thread &t, const char *who,
                          std::span<const ir::LoweredProxyRule> rules,
                          const std::string &source = "");
  // The leaf program's protocol rules of an assumption and those it
  // composes, one scope per composed assumption's interface.
  std::vector<uint64_t> pushAssumptionProxyRules(star::Thread &t, const char *who,
                                                 const std::string &assumption);
  // Pops a proxy scope: proxy_fault_removed with each rule's matches and
  // hits, preceded by fault_zero_traffic for a rule that matched nothing.
  void popProxyRules(uint64_t scope);
  // Where the body's steps and clients reach interface `iface` of
  // `service` in the running test: its proxy (127.0.0.1) if it has one, else
  // its address (ir::Service::address(): loopback, or a remote host).
  ir::Address dialAddress(const std::string &service, const ir::Interface &iface) const;

  // ---- trace and event builtins (trace_builtins.cpp, event_builtins.cpp)
  // trace(svc, syscalls=[...], run=fn), trace_start(svc, syscalls=[...]),
  // trace_stop(svc)
  star::Value traceBuiltin(star::Thread &t, std::string_view name, const star::Args &args);
  // events(**filters, where=), assert_eventually(...), assert_never(...)
  star::Value queryEvents(star::Thread &t, std::string_view who, const star::Args &args);
  star::Value assertBefore(star::Thread &t, std::string_view, const star::Args &args);
  std::vector<std::string> serviceNames() const; // by ServiceId
  std::string serviceDir() const;                // RunConfig::serviceDir or the spec's folder

  // ---- monitors and temporal properties (temporal_builtins.cpp)
  // await_event(), await_stable(), and monitor() / eventually() / always()
  // made in a test body (the value the spec builtin made is the argument).
  star::Value temporalBuiltin(star::Thread &t, std::string_view name, const star::Args &args);
  star::Value awaitEvent(star::Thread &t, const star::Args &args);
  star::Value awaitStable(star::Thread &t, const star::Args &args);
  // Waits up to 10 ms with the interpreter lock given up; false once the
  // body is cancelled.
  bool pause();
  // The test's monitors and expectations (test(expect=, terminate_when=),
  // ir::testMonitors), before its body starts.
  void beginTemporal(const ir::Test &t);
  // From the body's thread: the spec-wide monitors see the events from here
  // on; a scenario's claimed monitors see those from `from` to now; a
  // fault(assumption, run=)'s monitors likewise.
  void openBody();
  uint64_t seqNow(); // the last event's seq, observed lines read
  // seqNow() where a window with `monitors` opens (0 otherwise: no cost).
  uint64_t windowStart(bool monitors);

  void closeScenario(uint64_t from);
  void assumptionMonitors(const std::string &assumption, uint64_t from);
  // test(assume=): nullopt when every predicate holds, else (halted, reason):
  // halted for a false predicate, an error for one that raised.
  std::optional<std::pair<bool, std::string>> failedAssume(const ir::Test &t, star::Thread &th);
  // The watcher's turn (supervising thread): evaluates the expectations on
  // the events recorded since; what ends the body, if anything.
  std::optional<Ending> watchTemporal(star::Thread &wt);
  struct TemporalEnd {
    std::optional<std::string> monitor; // the first monitor violation
    std::optional<std::string> failed;  // the first failing expectation: "<name>: <why>"
    bool pending = false;               // an expectation still pending (timeout)
  };
  TemporalEnd endTemporal(star::Thread &wt, Ending cause);
  std::unique_ptr<TemporalRun> temporal_;

  // ---- API clients (client_call.cpp)
  // A method or call() of a client() value: the request its contract
  // describes, client_call / client_return events, the response.
  star::Value callClient(star::Thread &t, const ir::builtins::ClientValue &c,
                         std::string_view method, const star::Args &args);
  // A gRPC client's (descriptors=) call of `op` (grpc_client_call.cpp): body=
  // encoded as its input message, one unary call as the gRPC step makes it.
  star::Value callGrpcClient(star::Thread &t, const ir::builtins::ClientValue &c,
                             const ir::ContractOperation &op,
                             const std::map<std::string, star::Value> &kw, int64_t timeoutNs);
  // The client's actor in the trace (after the services), named.
  ServiceId clientActor(const ir::Client &c);

  // ---- expectations (expectations.cpp)
  // `timeoutNs`: the scenario's timeout, which expect_hang's message names
  // (0: called directly on a value).
  void checkExpect(star::Thread &t, const ir::Expect &e, star::Value result, int64_t timeoutNs = 0);

  ir::LoadedSpec &loaded_;
  RunConfig cfg_;
  // The Executor that run() was called on installs the body runtime; the
  // ones it makes for -j N only run leaves.
  bool owner_ = true;
  // The leaves run in the namespace runJobsInOneNetns() made: no leaf
  // makes one of its own.
  bool inRunNetns_ = false;
  std::unique_ptr<ir::BodyRuntime> dispatch_; // to the running leaf's Executor
  // The running test's state (body thread and main thread).
  Supervisor *sup_ = nullptr;
  std::vector<std::vector<int>> traps_;
  std::map<ServiceId, std::vector<uint64_t>> started_;      // fault_start scopes per service
  std::map<ServiceId, std::vector<uint64_t>> traceStarted_; // trace_start scopes per service
  ProxyHub *proxies_ = nullptr;                             // the running test's proxies
  std::unique_ptr<ProxyFaultScopes> proxyFaults_;           // their fault scopes (proxy/)
  BodyThreads body_; // the body's Starlark threads, their lock and cancellation
  std::mutex sleepMu_;
  std::condition_variable sleepCv_;
  // The running test (its body's fault() calls find their rules in it),
  // and the running leaf (null for a test without fan-out).
  const ir::LeafTest *runningTest_ = nullptr;
  const ir::LeafTest *leafTest_ = nullptr;
  ir::LeafAssignment leaf_;
  // The running explored leaf's schedule and chooser (null otherwise).
  std::unique_ptr<explore::Chooser> chooser_;
  std::unique_ptr<explore::LeafSchedule> schedule_;
  const ir::LeafTest *exploring_ = nullptr;
  uint64_t runSeed_ = 0;        // the seed of the run in progress (RunConfig::runs)
  bool sizing_ = false;         // leaf 0 of a test with an axis of unknown size
  std::vector<uint64_t> sized_; // per axis: the size seen during leaf 0 (0: not reached)
  std::vector<std::string> warnedAt_;
  std::vector<RunWarning> warnings_;
};

} // namespace fbc::rt
