// One test's lifecycle: the trap sets of its services, the supervisor and
// the services started fresh in dependency order under their filters; the
// body on a worker thread (setup, the scenario with its assumptions in
// force, the expectation); the timeout and the interrupt; the outcome's
// classification (pass / fail / error / inconclusive / halted, a reason and
// a traceback); the services stopped and the trace kept.
#include "runtime/driver/reuse_stage.h"

#include "backend/rule_lower.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/duration.h"
#include "ir/quote.h"
#include "ir/syscalls.h"
#include "runtime/containers/container_service.h"
#include "runtime/mock/mock_services.h"
#include "runtime/os/leaf_isolation.h"
#include "runtime/proxy/proxy.h"
#include "runtime/proxy/proxy_scopes.h"
#include "runtime/rules/rules_from_ir.h"
#include "runtime/supervisor/launch_config.h"
#include "runtime/supervisor/remote_service.h"
#include "runtime/supervisor/supervisor.h"
#include "runtime/supervisor/unmediated_io.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <system_error>
#include <thread>

namespace fbc::rt {

using star::Value;

namespace {

int64_t realtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// fbc run --record-ops: each service's trap set with every syscall a
// fault keyword names (the families expanded, as the lowering does for a
// rule), sorted.
void trapEveryFamily(std::vector<std::vector<int>> &traps) {
  std::vector<int> every;
  for (std::string_view kw : ir::syscallKeywords())
    for (int nr : backend::keywordSyscalls(kw))
      every.push_back(nr);
  for (std::vector<int> &t : traps) {
    t.insert(t.end(), every.begin(), every.end());
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
  }
}

// The code of a service that did not come up.
std::optional<ir::DiagCode> serviceErrorCode(ServiceError::Kind k) {
  switch (k) {
  case ServiceError::Kind::None:
    return std::nullopt;
  case ServiceError::Kind::MissingBinary: // a binary this machine lacks
    return ir::DiagCode::CannotRun;
  case ServiceError::Kind::LaunchFailed:
    return ir::DiagCode::ServiceLaunchFailed;
  case ServiceError::Kind::PortInUse:
    return ir::DiagCode::PortInUse;
  case ServiceError::Kind::CrashedAtStart:
    return ir::DiagCode::ServiceCrashed;
  case ServiceError::Kind::HealthcheckTimeout:
    return ir::DiagCode::HealthcheckTimeout;
  }
  return std::nullopt;
}

// What made a body fail: the code its error carries (a fault that could
// not fire: FAULT_NOT_FILTERABLE), an assertion builtin (assert_*,
// expect_*, fail()), or any other error (a missing key, a step's).
ir::DiagCode failureCode(const star::EvalError &e) {
  if (const ir::DiagCodeInfo *info = e.code.empty() ? nullptr : ir::findDiagCode(e.code))
    return info->code;
  if (!e.frames.empty() && e.frames.back().file == "<builtin>") {
    std::string_view fn = e.frames.back().function;
    if (fn.starts_with("assert_") || fn.starts_with("expect_") || fn == "fail")
      return ir::DiagCode::AssertionFailed;
  }
  return ir::DiagCode::BodyError;
}

// A mistake of the body that the run names with a check-stage code
// (deny() of a computed name that is no errno): the row is an error.
std::optional<ir::DiagCode> mistakeCode(const std::string &code) {
  const ir::DiagCodeInfo *info = code.empty() ? nullptr : ir::findDiagCode(code);
  if (!info || info->stage != ir::DiagStage::Check)
    return std::nullopt;
  return info->code;
}

} // namespace

TestOutcome Executor::runTestGuarded(const ir::LeafTest &lt, bool &intr) {
  try {
    return runTest(lt, intr);
  } catch (const std::system_error &e) {
    sup_ = nullptr; // the supervisor went with the unwinding (services stopped)
    stage_.reset(); // with the services it kept
    TestOutcome o = baseOutcome(*lt.test);
    o.result = Result::Error;
    o.reason = std::string("resource exhausted: ") + e.what();
    return o;
  } catch (const std::bad_alloc &) {
    sup_ = nullptr;
    stage_.reset();
    TestOutcome o = baseOutcome(*lt.test);
    o.result = Result::Error;
    o.reason = "resource exhausted: out of memory";
    return o;
  }
}

TestOutcome Executor::runTest(const ir::LeafTest &lt, bool &intr) {
  const ir::Test &t = *lt.test;
  const ir::Spec &spec = loaded_.spec();
  TestOutcome o = baseOutcome(t);
  int64_t t0 = monotonicNs();
  size_t n = spec.services.size();
  std::vector<std::string> names;
  for (const ir::Service &s : spec.services)
    names.push_back(s.name);

  std::string error;
  // What each filter traps comes from the leaf program, nothing else: the
  // test's trap sets with what this leaf's choose() options add.
  traps_ = lt.trapsFor(leafTest_ ? leaf_ : lt.decode(0));
  if (cfg_.recordOperations)
    trapEveryFamily(traps_);

  // The leaf's scratch directory (FBC_SCRATCH), removed after its services.
  std::unique_ptr<ScratchDir> scratch = ScratchDir::make(error);
  std::vector<std::string> users;
  for (const ir::Service &s : spec.services)
    users.push_back(s.user);
  if (scratch && !scratch->handTo(users, error))
    scratch.reset();
  if (!scratch) {
    o.result = Result::Error;
    o.reason = error;
    o.durationMs = (monotonicNs() - t0) / 1000000;
    return o;
  }

  SupervisorOptions so;
  so.seed = runSeed_;
  so.streamFd = cfg_.streamFd;
  so.stopGraceMs = cfg_.stopGraceMs;
  so.killOrphans = cfg_.jobs <= 1;
  so.interrupted = [this] { return interrupted(); };
  // Every trapped syscall is counted (syscall_summary); only those a rule
  // decided become events.
  so.recordAllowedSyscalls = false;
  so.recordOperations = cfg_.recordOperations;
  o.startWallNs = realtimeNs();
  // With a reused service the supervisor and proxies are the run's stage
  // (reused_services.cpp); else the test's own.
  bool reuse = reusesServices();
  Stage *stage = reuse ? openStage(so, error) : nullptr;
  if (reuse && !stage) {
    o.result = Result::Error;
    o.reason = error;
    o.durationMs = (monotonicNs() - t0) / 1000000;
    return o;
  }
  std::unique_ptr<Supervisor> ownSup;
  std::unique_ptr<ProxyHub> ownHub;
  Supervisor *sup = reuse ? stage->sup.get() : (ownSup = std::make_unique<Supervisor>(so)).get();
  ProxyHub *hub =
      reuse ? stage->hub.get() : (ownHub = std::make_unique<ProxyHub>(sup->trace())).get();
  if (reuse)
    sup->beginTest();
  else
    hub->rules().setSeed(runSeed_);
  // A proxy in front of each interface the test's protocol rules can
  // target, listening before any service starts (their env names it).
  for (size_t i = 0; !reuse && i < n && i < lt.proxies.size(); ++i)
    for (const std::string &name : lt.proxies[i]) {
      const ir::Service &svc = spec.services[i];
      const ir::Interface *iface = svc.findInterface(name);
      std::optional<ir::Address> at = iface ? svc.address(*iface) : std::nullopt;
      if (!at || at->port <= 0 || at->port > 65535)
        continue;
      if (!hub->add(proxyEndpoint(static_cast<ServiceId>(i), svc, *iface, *at, specDir(spec.path)),
                    error)) {
        o.result = Result::Error;
        o.reason = error;
        o.durationMs = (monotonicNs() - t0) / 1000000;
        return o;
      }
    }
  if (!reuse && !hub->endpoints().empty())
    hub->start();
  std::string dir = serviceDir();
  std::vector<ServiceId> order;
  bool detectAll = determinismInForce(spec);
  for (size_t i = 0; i < n; ++i) {
    const ir::Service &svc = spec.services[i];
    // A reused service keeps the spec it was first started with (its
    // traps every test's, its scratch the stage's).
    bool kept = reusedSpec(i);
    if (kept && sup->serviceCount() > i) {
      order.push_back(static_cast<ServiceId>(i));
      continue;
    }
    const std::vector<int> &traps = kept ? stage->traps[i] : traps_[i];
    const std::string &scr = kept ? stage->scratch->path() : scratch->path();
    ServiceSpec ss =
        svc.isRemote() ? remoteServiceSpec(svc, specDir(spec.path))
        : svc.isContainer()
            ? containerServiceSpec(spec, svc, dir, traps, hub->endpoints(), scr, cfg_.stopGraceMs)
        : svc.mock ? mockServiceSpec(spec, svc, dir, traps, hub->endpoints(), scr,
                                     {&sup->trace(), static_cast<ServiceId>(i), &body_.lock(),
                                      &loaded_.interpreter().thread})
                   : launchConfig(spec, svc, dir, traps, hub->endpoints(), scr);
    if (i < lt.observes.size() && !observedTraps(lt.observes[i], ss.observed, error)) {
      o.result = Result::Error;
      o.reason = error;
      o.durationMs = (monotonicNs() - t0) / 1000000;
      return o;
    }
    ss.detectAll = detectAll;
    if (reuse && sup->serviceCount() > i) {
      sup->respec(static_cast<ServiceId>(i), std::move(ss));
      order.push_back(static_cast<ServiceId>(i));
    } else {
      order.push_back(sup->addService(std::move(ss)));
    }
  }
  sup_ = sup;
  proxies_ = hub;
  proxyFaults_ = std::make_unique<ProxyFaultScopes>(*hub, sup->trace());
  started_.clear();
  traceStarted_.clear();

  // A reused service still up is not started again; its output so far is
  // an earlier test's.
  std::vector<ServiceId> toStart = reuse ? servicesToStart(order) : order;
  std::vector<std::pair<size_t, size_t>> outputBefore;
  for (ServiceId id : order)
    if (std::find(toStart.begin(), toStart.end(), id) != toStart.end())
      outputBefore.emplace_back(0, 0);
    else
      outputBefore.emplace_back(sup->stdoutText(id).size(), sup->stderrText(id).size());
  ServiceError se = sup->startAll(toStart);
  if (!se)
    planHooks(order, toStart);
  if (!se && !interrupted())
    for (ServiceId id : order)
      if (!sup->running(id)) {
        // No healthcheck to notice it, but it is gone already.
        se.kind = ServiceError::Kind::CrashedAtStart;
        se.service = names[id];
        se.message = sup->exitDescription(id).value_or("exited");
        break;
      }

  if (interrupted()) {
    intr = true;
  } else if (se) {
    o.result = Result::Error;
    o.reason = se.reason();
    o.cause = serviceErrorCode(se.kind);
  } else {
    superviseBody(t, o, intr);
  }
  // Whatever fault_start() / trace_start() left open ends with the test.
  for (auto *open : {&started_, &traceStarted_}) {
    for (auto &[svc, scopes] : *open)
      endScopes(scopes);
    open->clear();
  }
  proxyFaults_->stopAll();
  if (reuse)
    sup->stopAllBut(stage->reused);
  else
    sup->stopAll();
  proxyFaults_.reset();
  proxies_ = nullptr;
  ownHub.reset(); // its events are in the trace; no connection outlives the test
  // A service that reached its pids limit (a fork bomb, a leak) makes the
  // test an error whatever the body said: it ran against a crippled service.
  for (const Supervisor::LimitHit &h : sup->limitHits()) {
    o.result = Result::Error;
    o.cause = ir::DiagCode::PidsLimitReached;
    o.reason = "service " + ir::quote(h.service) + " reached its pids limit (" +
               std::to_string(h.limit) + " processes and threads; " + std::to_string(h.refused) +
               (h.refused == 1 ? " fork or clone" : " forks or clones") +
               " refused): raise it with service(..., pids_max=N)";
    break;
  }
  if (cfg_.keepServiceOutput)
    for (size_t k = 0; k < order.size(); ++k) {
      // A reused service's output since the test began (for an output that
      // started afresh, all of it).
      std::string out = sup->stdoutText(order[k]), err = sup->stderrText(order[k]);
      auto [outAt, errAt] = outputBefore[k];
      o.serviceOutput.emplace_back(out.substr(std::min(outAt, out.size())),
                                   err.substr(std::min(errAt, err.size())));
    }
  o.events = sup->trace().events();
  // Strict L1 determinism: a passing test that used an unmediated source
  // nobody tolerated fails (unmediated_io.h).
  if (o.result == Result::Pass)
    if (std::optional<std::string> why = strictViolation(spec, o.events, names)) {
      o.result = Result::Fail;
      o.reason = std::move(*why);
      o.strictDeterminismViolation = true;
    }
  o.faults = faultSummaries(o.events, names);
  decideFaultVerdict(o, t.requireFaultsFire || cfg_.requireFaultsFire);
  o.syscallSummary = sup->trace().syscallSummary();
  o.operations = sup->trace().operations();
  sup_ = nullptr;
  ownSup.reset();
  o.durationMs = (monotonicNs() - t0) / 1000000;
  return o;
}

struct Executor::BodyEnd {
  bool failed = false, internal = false, expectFailed = false, halted = false;
  bool mistake = false; // `failed` by a body mistake with a check code
  std::string error, returned;
  // Why it ended, where the flags above do not say: a CannotRunSignal's
  // CANNOT_RUN, a failure's EvalError::code (a body mistake's check code)
  // or the assertion / body error it was.
  std::optional<ir::DiagCode> cause;
  // Where an EvalError was thrown; for a timeout, where the cancelled body
  // was, down to the builtin it waited in.
  std::vector<std::string> frames;
};

void Executor::runBody(const ir::Test &t, star::Thread &th, BodyEnd &end) {
  // The body as the watcher sees it: body_start and body_end anchors.
  auto body = [&] {
    temporal_->signal("body_start");
    Value v = star::call(th, t.body.value, llvm::ArrayRef<Value>{});
    temporal_->signal("body_end");
    return v;
  };
  try {
    // seed= / reset= of its services first (reused_services.cpp): one that
    // fails makes the test an error, as a service that did not start does.
    if (std::string why; !hooks_.empty() && !runHooks(th, why)) {
      end.internal = true;
      end.error = std::move(why);
      return;
    }
    th.steps = 0;
    openBody();
    Value result;
    switch (t.kind) {
    case ir::TestKind::Def:
    case ir::TestKind::Scenario:
      result = body();
      break;
    case ir::TestKind::TestBuiltin:
      if (t.setup)
        star::call(th, t.setup->value, llvm::ArrayRef<Value>{});
      if (auto failed = failedAssume(t, th)) {
        (failed->first ? end.halted : end.internal) = true;
        end.error = failed->second;
        return;
      }
      result = body();
      break;
    case ir::TestKind::FaultScenario:
    case ir::TestKind::FaultMatrix: {
      // The assumptions hold for the scenario's duration.
      std::vector<RuleSpec> rules;
      for (const std::string &a : t.faults)
        assumptionRules(*cfg_.leaves, a, rules);
      uint64_t from = windowStart(!temporal_->scenarioMonitors.empty()); // claimed monitors
      std::optional<uint64_t> scope;
      if (!rules.empty())
        scope = pushRules(th, "fault_scenario", std::move(rules));
      std::vector<uint64_t> proxyScopes;
      auto endScopes = [&] {
        for (auto it = proxyScopes.rbegin(); it != proxyScopes.rend(); ++it)
          popProxyRules(*it);
        if (scope)
          sup_->removeFaults(*scope);
        closeScenario(from);
      };
      try {
        for (const std::string &a : t.faults)
          for (uint64_t s : pushAssumptionProxyRules(th, "fault_scenario", a))
            proxyScopes.push_back(s);
        result = body();
      } catch (...) {
        endScopes();
        throw;
      }
      endScopes();
      if (t.expect) {
        try {
          checkExpect(th, *t.expect, result ? result : star::none(), bodyTimeoutNs(t));
        } catch (const star::EvalError &) {
          end.expectFailed = true;
          throw;
        }
      }
      break;
    }
    }
    if (result && !result.is(star::Kind::None))
      end.returned = star::repr(result);
  } catch (const HaltSignal &h) {
    end.halted = true;
    end.error = h.reason;
  } catch (const CannotRunSignal &c) {
    end.internal = true;
    end.error = c.reason;
    end.cause = ir::DiagCode::CannotRun;
  } catch (const star::EvalError &e) {
    end.failed = true;
    end.error = e.message();
    end.frames = e.frameLines(/*keepBuiltin=*/body_.cancelled());
    end.cause = mistakeCode(e.code);
    end.mistake = end.cause.has_value();
    if (!end.mistake)
      end.cause = failureCode(e);
  } catch (const std::exception &e) {
    end.internal = true;
    end.error = std::string("internal error: ") + e.what();
  }
}

int64_t Executor::bodyTimeoutNs(const ir::Test &t) const {
  if (!cfg_.timeoutExplicit && t.kind != ir::TestKind::Def && t.kind != ir::TestKind::Scenario &&
      t.timeoutNs)
    return *t.timeoutNs;
  return cfg_.timeoutNs;
}

void Executor::superviseBody(const ir::Test &t, TestOutcome &o, bool &intr) {
  // The body allocates on a heap of its own, freed when the test ends:
  // nothing it makes outlives the test (the module's values are frozen,
  // declarations are refused once the spec is built, and outcomes keep
  // strings), so a run of many leaves does not grow with every leaf.
  star::Heap bodyHeap;
  star::Thread th(bodyHeap, loaded_.interpreter().thread);
  th.hostData = this; // the body's calls come to this leaf (LeafDispatch)
  // Leaves running at once share the interpreter lock: a body that
  // computes lets the others' bodies in every few thousand steps.
  th.checkpoint = [this] { body_.lock().yield(); };
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  BodyEnd end;
  body_.reset();
  // Evaluates the test's expectations while the body runs, and its
  // monitors after (runtime/temporal/temporal.h).
  beginTemporal(t);
  star::Thread watcher(bodyHeap, loaded_.interpreter().thread);
  watcher.hostData = this;
  std::optional<Ending> stop; // an always() violated, terminate_when
  std::thread worker([&] {
    std::lock_guard turn(body_.lock());
    BodyThreads::Running running(body_, th);
    runBody(t, th, end);
    std::lock_guard lock(mu);
    done = true;
    cv.notify_all();
  });

  int64_t timeout = bodyTimeoutNs(t);
  int64_t deadline = deadlineAfter(timeout);
  bool timedOut = false;
  bool finished = false; // `done` read under `mu`: the worker writes it
  {
    std::unique_lock lock(mu);
    while (!done) {
      cv.wait_for(lock, std::chrono::milliseconds(20));
      if (done)
        break;
      if (interrupted()) {
        intr = true;
        break;
      }
      if (monotonicNs() >= deadline) {
        timedOut = true;
        break;
      }
      if (temporal_->watching()) {
        lock.unlock(); // the body signals `done` holding the interpreter lock
        stop = watchTemporal(watcher);
        lock.lock();
        if (stop)
          break;
      }
    }
    finished = done;
  }
  if (!finished) {
    // Cancel the body: sleeps and steps return, and every Starlark thread
    // (the body's and its parallel() branches') stops at its next step.
    body_.cancel();
    sleepCv_.notify_all();
  }
  worker.join();
  th.setMaxSteps(UINT64_MAX);
  body_.reset();
  // An interrupt kills the services first, so a body that finished after
  // it saw dead services: its result means nothing.
  if (interrupted())
    intr = true;
  TemporalEnd te = endTemporal(watcher, stop       ? *stop
                                        : timedOut ? Ending::Timeout
                                                   : Ending::Natural);
  bool scenario = t.kind == ir::TestKind::FaultScenario || t.kind == ir::TestKind::FaultMatrix;
  // Classified in the reference's order: the body's own end, a monitor
  // violation, a failing expectation, then a timeout (inconclusive).
  if (timedOut && scenario && t.expect && t.expect->kind == ir::ExpectKind::Hang) {
    // What expect_hang() means: the scenario did not return in time.
    o.result = Result::Pass;
  } else if ((te.monitor || te.failed) && !end.internal && !end.halted &&
             !(end.failed && finished)) {
    o.result = Result::Fail;
    o.reason = te.monitor ? *te.monitor : *te.failed;
    o.cause = ir::DiagCode::ExpectationViolated;
  } else if (timedOut) {
    o.result = Result::Inconclusive;
    o.reason = te.pending
                   ? "test timeout: temporal expectation(s) still pending after " +
                         ir::formatDuration(timeout)
                   : "test timeout: body did not complete within " + ir::formatDuration(timeout);
    o.traceback = std::move(end.frames);
  } else if (end.internal) {
    o.result = Result::Error;
    o.reason = end.error;
    o.cause = end.cause;
  } else if (end.halted) {
    o.result = Result::Halted;
    o.reason = end.error;
  } else if (end.failed && finished && end.mistake) {
    // A mistake in the spec the run found (a computed errno name): an
    // error with its code, not a verdict on the system.
    o.result = Result::Error;
    o.reason = end.error;
    o.traceback = std::move(end.frames);
    o.cause = end.cause;
  } else if (end.failed && finished) { // not the error of a body fbc stopped
    o.result = Result::Fail;
    o.reason = end.error;
    o.traceback = std::move(end.frames);
    o.expectationViolated = end.expectFailed;
    o.cause = end.cause;
  } else {
    o.result = Result::Pass;
    o.returnValue = end.returned;
  }
}

} // namespace fbc::rt
