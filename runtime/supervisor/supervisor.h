// The supervisor: owns the event loop thread, the services' processes, the
// rule table and the trace of one test.
//
// Threads: the loop thread answers every trapped syscall (and reads output
// pipes, reaps exits, fires delay timers); the caller's thread starts and
// stops services, polls healthchecks and pushes/pops fault scopes. A
// service's syscalls are answered even while the caller blocks on it (an
// HTTP step, a healthcheck).
//
// Containment: each supervisor is one leaf. With cgroups (cgroups.h) every
// service runs in its own cgroup inside the leaf's, with a pids limit;
// stopping a service kills its whole cgroup (children that called setsid()
// included) and the end of the leaf kills what is left; a watchdog process
// does the same if fbc dies. Without cgroups: process groups, and orphans
// reparented to fbc are killed at the end of the leaf.
//
// Children die with the thread that forked them (PR_SET_PDEATHSIG), so call
// start() from a thread that outlives the services (normally the main
// thread). The destructor stops every service; process_groups.h covers
// signals.
#pragma once

#include "runtime/os/event_loop.h"
#include "runtime/os/stream_writer.h"
#include "runtime/rules/rules.h"
#include "runtime/supervisor/in_process_logs.h"
#include "runtime/supervisor/listener.h"
#include "runtime/supervisor/service.h"
#include "runtime/trace/trace.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace fbc::rt {

struct SupervisorOptions {
  uint64_t seed = 0;                 // the run seed every rule stream derives from
  bool recordAllowedSyscalls = true; // trace allowed trapped syscalls too
  // fbc run --record-ops: count each trapped call by what it was on
  // (Trace::countOperation), for `fbc plan --suggest --from`.
  bool recordOperations = false;
  int streamFd = -1;          // >= 0: stream service output there, "name | " per line
  int64_t stopGraceMs = 2000; // SIGTERM → SIGKILL
  size_t outputCap = 1 << 20; // bytes of stdout/stderr kept per service
  // stopAll() kills every remaining child of fbc (a service's orphans,
  // reparented to us). Off while other leaves run at once (fbc run -j N):
  // their services are our children too; the leaf's cgroup still takes its
  // own orphans, and the run kills what is left once every leaf is done.
  bool killOrphans = true;
  // True once the run is interrupted: a wait for a remote service's
  // healthcheck ends then (a launched service's ends with its process).
  std::function<bool()> interrupted;
};

class Supervisor {
public:
  explicit Supervisor(SupervisorOptions opts = {});
  ~Supervisor();
  Supervisor(const Supervisor &) = delete;
  Supervisor &operator=(const Supervisor &) = delete;

  ServiceId addService(ServiceSpec spec);
  size_t serviceCount() const { return services_.size(); }
  const ServiceSpec &spec(ServiceId id) const;
  std::optional<ServiceId> findService(std::string_view name) const;

  // Launches the service, waits for its exec and its healthcheck, and
  // records service_started / service_ready. On failure the service is
  // stopped again and the error says why, naming the service.
  ServiceError start(ServiceId id);
  // Starts in the given order; stops at the first error (the services
  // already started keep running: stopAll() ends them).
  ServiceError startAll(std::span<const ServiceId> order);
  // SIGTERM to the process group, SIGKILL after the grace period, reaps,
  // closes the listener and pipes. Idempotent.
  void stop(ServiceId id);
  // Stops every running service, last started first.
  void stopAll();

  // A supervisor that outlives a test (a spec with service(reuse=True):
  // the reused services keep running from one test to the next).
  // beginTest() starts the next test's trace afresh (seq at 1) and forgets
  // the limit hits; respec() gives a service that is not running the spec
  // of the next test (its trap set, env, proxies); stopAllBut() ends a
  // test: every running service but those `keep` names (by id) and still
  // runs stops, last started first, and the leaf's orphans are left to
  // their services' cgroups (a kept service's children are fbc's too).
  void beginTest();
  void respec(ServiceId id, ServiceSpec spec);
  void stopAllBut(const std::vector<bool> &keep);
  // One healthcheck of a running service, at most about a second: "" when
  // it answers (or has no healthcheck), else what the probe saw.
  std::string probeHealth(ServiceId id);

  bool running(ServiceId id) const;
  // running(), for a container asked of the engine now (running() answers
  // from what the healthcheck loop last saw for up to 50 ms).
  bool runningNow(ServiceId id) const;
  // Reads what observed streams (service(observe=[...])) hold now into the
  // trace, so a query made after a step sees the lines the service wrote
  // before it answered. Any thread but the loop's.
  void pumpObservedOutput();
  pid_t pid(ServiceId id) const; // -1 if never started
  // Waits for the service's main process to exit on its own.
  bool waitExit(ServiceId id, int64_t timeoutMs);
  std::optional<std::string> exitDescription(ServiceId id) const;
  std::string stdoutText(ServiceId id) const;
  std::string stderrText(ServiceId id) const;
  bool syncWakeUp(ServiceId id) const;
  const ListenerStats *listenerStats(ServiceId id) const;
  // The running service's seccomp listener (null when it has none or is
  // not running): runtime/explore/ holds and releases its calls.
  NotificationListener *listener(ServiceId id) const;
  // Whether the services run in cgroups (else process groups only).
  bool contained() const { return leaf_ != nullptr; }

  // A service whose pids limit refused forks or clones during the leaf.
  struct LimitHit {
    std::string service;
    uint64_t limit = 0;
    uint64_t refused = 0;
  };
  // Read when a service is torn down; complete after stopAll().
  const std::vector<LimitHit> &limitHits() const { return limitHits_; }

  RuleTable &rules() { return rules_; }
  Trace &trace() { return trace_; }
  EventLoop &loop() { return loop_; }

  // Pushes a fault scope and records fault_applied (one per rule, on its
  // target); removeFaults pops it and records fault_removed with the hits,
  // preceded by fault_zero_traffic for a fault rule that never matched.
  std::optional<ScopeId> applyFaults(std::vector<RuleSpec> rules, std::string &error);
  void removeFaults(ScopeId scope);

private:
  struct Incarnation;
  struct Service {
    ServiceSpec spec;
    std::vector<std::unique_ptr<Incarnation>> runs; // the last one is current
    std::unique_ptr<UnmediatedObserver> observer;   // null: its filter observes nothing
    // Observers of its earlier specs (respec()): closed listeners may
    // still point at them.
    std::vector<std::unique_ptr<UnmediatedObserver>> oldObservers;
    bool inProcessUp = false; // spec.inProcess is listening
    // spec.inProcess's listeners (a container's, through fbc-shim), one per
    // start; kept, as incarnations are, while the loop may hold pointers.
    std::vector<std::unique_ptr<NotificationListener>> listeners;
    NotificationListener *current = nullptr; // the running start's listener, if any
    std::unique_ptr<InProcessLogs> logs;     // spec.inProcess's observed streams, while up
    // spec.inProcess's processes under the filter are all gone.
    bool treeGone() const { return current && current->orphaned(); }
  };
  // Its launch's traps with what it observes (creating its observer).
  LaunchSpec filterOf(ServiceId id);
  ServiceError startInProcess(ServiceId id, ServiceError error);

  Incarnation *current(ServiceId id) const;
  void teardown(ServiceId id, Incarnation &inc);

  SupervisorOptions opts_;
  std::unique_ptr<StreamWriter> stream_; // -v: null without a streamFd
  RuleTable rules_;
  Trace trace_;
  EventLoop loop_;
  std::vector<std::unique_ptr<Service>> services_;
  std::vector<ServiceId> startOrder_;
  struct AppliedRule {
    ServiceId target;
    std::string syscall;
    std::string label;
    Action action;
    std::string filter; // the syscalls it watched: "fsync,fdatasync"
    std::string pathGlob;
    bool tracing = false; // a trace rule: an observation, never zero traffic
    bool faults = false;  // deny or delay
    std::string fault;    // RuleSpec::fault
  };
  // Records a fault_applied / fault_removed / fault_zero_traffic event of
  // `r`, its action typed (TraceEvent::rule).
  void recordRuleEvent(EventType type, const AppliedRule &r,
                       std::vector<std::pair<std::string, std::string>> fields);
  // fault_zero_traffic's fields for a rule removed without one match.
  std::vector<std::pair<std::string, std::string>>
  zeroTrafficFields(const AppliedRule &r, const RuleStats &s, bool faultMatched) const;
  std::vector<std::pair<ScopeId, std::vector<AppliedRule>>> scopes_; // for fault_removed
  std::unique_ptr<LeafCgroup> leaf_;                                 // null: process groups only
  std::vector<LimitHit> limitHits_;
  std::thread loopThread_;
};

} // namespace fbc::rt
