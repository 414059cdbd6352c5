#include "runtime/supervisor/supervisor.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/os/output_capture.h"
#include "runtime/os/process_groups.h"
#include "runtime/os/syscalls.h"
#include "runtime/trace/log_observe.h"

#include <signal.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace fbc::rt {

// One run of a service's process. Kept until the supervisor goes away,
// because the loop may still hold pointers to its handlers in an epoll
// batch or a pending delay timer.
struct Supervisor::Incarnation {
  // Reaps the main process when its pidfd becomes readable.
  struct ExitWatcher final : EventLoop::Handler {
    Incarnation *inc;
    void onEvents(uint32_t) override { inc->onExit(); }
  };

  Supervisor &sup;
  ServiceId id;
  Launched proc;
  std::unique_ptr<NotificationListener> listener;
  std::unique_ptr<OutputCapture> out, err;
  std::vector<std::unique_ptr<LogObserver>> observers; // service(observe=[...])
  ExitWatcher watcher;
  ServiceCgroup *cgroup = nullptr; // owned by the supervisor's leaf
  bool watching = false;
  bool tornDown = false;

  mutable std::mutex mu;
  std::condition_variable cv;
  bool exited = false;
  // Set by stop() before it signals: an exit without it is the service's
  // own (a crash, a bug, a fault it did not survive).
  std::atomic<bool> stopRequested{false};
  // Set by start() before it stops a service that did not become ready:
  // its stop event carries its last output like an unexpected exit's.
  std::atomic<bool> failedStart{false};
  int exitCode = 0, exitStatus = 0;

  Incarnation(Supervisor &s, ServiceId i) : sup(s), id(i) { watcher.inc = this; }

  // Loop thread: the pidfd became readable. The exit is read but the
  // process is left a zombie (WNOWAIT) until teardown: a zombie keeps its
  // pid, hence the process group's number, from being reused, so the
  // kill(-pgid) of stop() and teardown and the signal handler's table
  // (process_groups.h) can only reach this service's group, never a
  // process that got the number after it was freed.
  void onExit() {
    siginfo_t info{};
    if (waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(proc.pidfd), &info,
               WEXITED | WNOHANG | WNOWAIT) < 0 ||
        info.si_pid == 0)
      return;
    sup.loop_.remove(proc.pidfd);
    watching = false;
    recordExit(info);
  }

  // The main process was reaped (by onExit, or by teardown once the loop
  // no longer watches it): record how it ended, exactly once.
  void recordExit(const siginfo_t &info) {
    // A syscall the receive thread took before the exit goes first.
    if (listener)
      listener->quiesce();
    // Whatever it wrote before dying belongs to the error report.
    if (out)
      out->onEvents(EPOLLIN);
    if (err)
      err->onEvents(EPOLLIN);
    std::string how = describeExit(info.si_code, info.si_status);
    {
      std::lock_guard lock(mu);
      exited = true;
      exitCode = info.si_code;
      exitStatus = info.si_status;
    }
    cv.notify_all();
    std::vector<std::pair<std::string, std::string>> fields = {{"pid", std::to_string(proc.pid)},
                                                               {"exit", how}};
    // Its own exit: nobody asked it to stop, or a signal fbc never sends
    // (a crash racing with the end of the test still reads as a crash).
    bool bySignal = info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED;
    bool unexpected =
        !stopRequested || (bySignal && info.si_status != SIGTERM && info.si_status != SIGKILL);
    if (unexpected)
      fields.emplace_back("unexpected", "true");
    // Why it died, or why it never became ready, is usually in what it
    // wrote last, on either stream (PostgreSQL's reason comes several lines
    // before its last; Redis logs to stdout).
    if (unexpected || failedStart)
      for (const auto &[name, capture] : {std::pair{"stdout", out.get()}, {"stderr", err.get()}})
        if (std::string tail = capture ? capture->lastLines(OutputCapture::kTailLines) : "";
            !tail.empty())
          fields.emplace_back(name, std::move(tail));
    sup.trace_.record(EventType::ServiceStopped, id, std::move(fields));
  }

  bool waitExited(int64_t timeoutMs) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return exited; });
  }
  bool hasExited() const {
    std::lock_guard lock(mu);
    return exited;
  }
};

Supervisor::Supervisor(SupervisorOptions opts) : opts_(opts), rules_(opts.seed) {
  // First: the run's cgroups and their watchdog (forked before we become a
  // subreaper, so it is not our child).
  std::string why;
  leaf_ = RunCgroups::instance().newLeaf(why);
  if (opts_.streamFd >= 0)
    stream_ = std::make_unique<StreamWriter>(opts_.streamFd);
  // Orphans of a service (its background children, once the main process
  // is gone) become our children, so teardown can reap them and knows when
  // the whole process group is really gone.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  loopThread_ = std::thread([this] { loop_.run(); });
}

Supervisor::~Supervisor() {
  stopAll();
  loop_.stop();
  loopThread_.join();
}

ServiceId Supervisor::addService(ServiceSpec spec) {
  ServiceId id = static_cast<ServiceId>(services_.size());
  rules_.setServiceName(id, spec.name);
  std::vector<uint16_t> ports = spec.ports;
  ports.insert(ports.end(), spec.networkPorts.begin(), spec.networkPorts.end());
  ports.insert(ports.end(), spec.proxyPorts.begin(), spec.proxyPorts.end());
  rules_.setServicePorts(id, std::move(ports));
  trace_.setServiceName(id, spec.name);
  services_.push_back(std::make_unique<Service>(
      Service{std::move(spec), {}, nullptr, {}, false, {}, nullptr, nullptr}));
  return id;
}

const ServiceSpec &Supervisor::spec(ServiceId id) const {
  return services_.at(id)->spec;
}

std::optional<ServiceId> Supervisor::findService(std::string_view name) const {
  for (size_t i = 0; i < services_.size(); ++i)
    if (services_[i]->spec.name == name)
      return static_cast<ServiceId>(i);
  return std::nullopt;
}

Supervisor::Incarnation *Supervisor::current(ServiceId id) const {
  const auto &runs = services_.at(id)->runs;
  return runs.empty() ? nullptr : runs.back().get();
}

LaunchSpec Supervisor::filterOf(ServiceId id) {
  Service &svc = *services_.at(id);
  const ServiceSpec &spec = svc.spec;
  LaunchSpec ls = spec.launch;
  // Observed entries are trapped too (allowed, classified by the listener).
  if (!spec.observed.empty()) {
    ls.trapped.insert(ls.trapped.end(), spec.observed.always.begin(), spec.observed.always.end());
    std::sort(ls.trapped.begin(), ls.trapped.end());
    ls.trapped.erase(std::unique(ls.trapped.begin(), ls.trapped.end()), ls.trapped.end());
    ls.conditional = spec.observed.conditional;
    if (!svc.observer)
      svc.observer = std::make_unique<UnmediatedObserver>(spec.observed, id, spec.detectAll);
  }
  return ls;
}

ServiceError Supervisor::start(ServiceId id) {
  Service &svc = *services_.at(id);
  const ServiceSpec &spec = svc.spec;
  ServiceError error{ServiceError::Kind::None, spec.name, ""};
  if (Incarnation *cur = current(id); cur && !cur->tornDown) {
    error.kind = ServiceError::Kind::LaunchFailed;
    error.message = "already running";
    return error;
  }
  // A port of the service's that already accepts connections belongs to
  // another process: the service cannot bind it, and a healthcheck on it
  // would pass without the service (the test would talk to the stranger).
  for (uint16_t port : spec.ports) {
    std::string ignored;
    int fd = dialTcp("127.0.0.1", port, monotonicNs() + 200 * 1000000LL, nullptr, ignored);
    if (fd >= 0) {
      close(fd);
      error.kind = ServiceError::Kind::PortInUse;
      error.message = "127.0.0.1:" + std::to_string(port) + " accepts connections before " +
                      spec.name + " started: another process holds the port";
      return error;
    }
  }
  if (spec.inProcess)
    return startInProcess(id, error);
  svc.runs.push_back(std::make_unique<Incarnation>(*this, id));
  Incarnation &inc = *svc.runs.back();

  LaunchSpec ls = filterOf(id);
  if (leaf_) {
    std::string why;
    inc.cgroup = leaf_->service(spec.name, spec.pidsMax, why);
    if (!inc.cgroup) {
      inc.tornDown = true;
      error.kind = ServiceError::Kind::LaunchFailed;
      error.message = "cgroup: " + why;
      return error;
    }
    ls.joinCgroups = inc.cgroup->joinFds();
  }
  LaunchError le;
  if (!launch(ls, inc.proc, le)) {
    inc.tornDown = true;
    error.kind = le.kind == LaunchError::Kind::MissingBinary ? ServiceError::Kind::MissingBinary
                                                             : ServiceError::Kind::LaunchFailed;
    error.message = le.message;
    return error;
  }
  startOrder_.push_back(id);
  // Recorded before anything can take the child's first trapped syscall.
  trace_.record(EventType::ServiceStarted, id,
                {{"pid", std::to_string(inc.proc.pid)}, {"binary", inc.proc.resolvedBinary}});
  // Serve the listener before waiting for the exec: the child's exec-failure
  // report may itself be a trapped syscall.
  loop_.call([&] {
    if (inc.proc.listener >= 0) {
      inc.listener =
          std::make_unique<NotificationListener>(loop_, inc.proc.listener, id, rules_, trace_,
                                                 opts_.recordAllowedSyscalls, svc.observer.get());
      inc.proc.listener = -1; // the listener owns the fd now
      inc.listener->countOperations(opts_.recordOperations);
      inc.listener->start();
    }
    std::string prefix = spec.name + " | ";
    inc.out = std::make_unique<OutputCapture>(loop_, inc.proc.stdoutFd, prefix, stream_.get(),
                                              opts_.outputCap);
    inc.err = std::make_unique<OutputCapture>(loop_, inc.proc.stderrFd, prefix, stream_.get(),
                                              opts_.outputCap);
    inc.proc.stdoutFd = inc.proc.stderrFd = -1;
    for (const ir::ObserveSource &o : spec.observe) {
      LogObserver *obs =
          inc.observers.emplace_back(std::make_unique<LogObserver>(trace_, id, o)).get();
      (o.stream == "stderr" ? inc.err : inc.out)->setLineSink([obs](std::string_view line) {
        obs->line(line);
      });
    }
    inc.out->start();
    inc.err->start();
    loop_.add(inc.proc.pidfd, EPOLLIN, &inc.watcher);
    inc.watching = true;
  });
  if (!awaitExec(inc.proc, le)) {
    stop(id);
    error.kind = le.kind == LaunchError::Kind::MissingBinary ? ServiceError::Kind::MissingBinary
                                                             : ServiceError::Kind::LaunchFailed;
    error.message = le.message;
    return error;
  }

  if (spec.health.kind != Healthcheck::Kind::None) {
    std::string lastError;
    HealthResult r = waitHealthy(
        spec.health, [&] { return inc.hasExited(); }, lastError);
    if (r == HealthResult::Ready && inc.hasExited())
      r = HealthResult::Aborted;
    if (r != HealthResult::Ready) {
      if (r == HealthResult::Aborted) {
        error.kind = ServiceError::Kind::CrashedAtStart;
        std::lock_guard lock(inc.mu);
        error.message = describeExit(inc.exitCode, inc.exitStatus);
      } else {
        error.kind = ServiceError::Kind::HealthcheckTimeout;
        error.message = notReadyMessage(spec.health, lastError);
      }
      inc.failedStart = true;
      stop(id);
      return error;
    }
  }
  if (spec.afterReady && !spec.afterReady(error.message)) {
    stop(id);
    error.kind = ServiceError::Kind::LaunchFailed;
    return error;
  }
  trace_.record(EventType::ServiceReady, id);
  return error;
}

ServiceError Supervisor::startAll(std::span<const ServiceId> order) {
  for (ServiceId id : order)
    if (ServiceError e = start(id))
      return e;
  return {};
}

void Supervisor::stop(ServiceId id) {
  if (Service &svc = *services_.at(id); svc.spec.inProcess) {
    if (svc.inProcessUp) {
      // As for a launched service: held delays let its stop signal land,
      // and the listener goes once its processes are gone.
      loop_.call([&] {
        for (auto &l : svc.listeners)
          l->releasePending();
      });
      if (svc.treeGone())
        svc.spec.inProcess->noteEnded();
      svc.spec.inProcess->stop();
      if (svc.logs) // kept until the next start: a late query reads nothing new
        svc.logs->finish(*svc.spec.inProcess);
      loop_.call([&] {
        for (auto &l : svc.listeners)
          l->close();
      });
      svc.current = nullptr;
      svc.inProcessUp = false;
      std::erase(startOrder_, id);
      trace_.record(EventType::ServiceStopped, id, svc.spec.inProcess->stoppedFields());
    }
    return;
  }
  Incarnation *inc = current(id);
  if (!inc || inc->tornDown)
    return;
  pid_t pgid = inc->proc.pid;
  // A service already dead (the loop thread may not have seen it yet) died
  // on its own; peek without reaping.
  siginfo_t info{};
  bool dead = inc->hasExited() ||
              (waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(inc->proc.pidfd), &info,
                      WEXITED | WNOHANG | WNOWAIT) == 0 &&
               info.si_pid != 0);
  if (!dead)
    inc->stopRequested = true;
  if (!inc->hasExited()) {
    kill(-pgid, SIGTERM);
    // A syscall held by a delay would keep the SIGTERM waiting (see
    // releasePending): the delays are cut short, then the signal lands.
    loop_.call([&] {
      if (inc->listener)
        inc->listener->releasePending();
    });
    if (!inc->waitExited(opts_.stopGraceMs)) {
      kill(-pgid, SIGKILL);
      inc->waitExited(5000);
    }
  }
  teardown(id, *inc);
}

void Supervisor::teardown(ServiceId id, Incarnation &inc) {
  pid_t pgid = inc.proc.pid;
  // Whatever the main process left behind goes too: its whole cgroup
  // (children that left the process group included), else its group.
  std::vector<pid_t> listed;
  if (inc.cgroup)
    listed = inc.cgroup->killAll(5000);
  // Safe while the main process is unreaped (see onExit): the number is
  // still this group's. It is reaped only once out of the signal table.
  kill(-pgid, SIGKILL);
  unregisterProcessGroup(pgid);
  loop_.call([&] {
    if (inc.listener)
      inc.listener->close();
    if (inc.out)
      inc.out->finish();
    if (inc.err)
      inc.err->finish();
    if (inc.watching) {
      // Not reaped yet: the loop stops watching, we reap it below.
      loop_.remove(inc.proc.pidfd);
      inc.watching = false;
    }
  });
  // Reaped here, last: the loop only read its exit (onExit). Not seen yet:
  // reap and record here, or its service_stopped would be lost.
  siginfo_t info{};
  if (waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(inc.proc.pidfd), &info, WEXITED) ==
          0 &&
      !inc.hasExited())
    inc.recordExit(info);
  // The rest of the group (and, with a cgroup, everything listed in it) got
  // SIGKILL above; reap those that are our children now (see the
  // constructor), within reason.
  int64_t deadline = monotonicNs() + 5000000000LL;
  for (;;) {
    pid_t r = waitpid(-pgid, nullptr, WNOHANG);
    if (r > 0)
      continue;
    if (r < 0 || monotonicNs() > deadline)
      break; // ECHILD: nobody left
    usleep(1000);
  }
  for (pid_t p : listed)
    if (p != pgid)
      waitpid(p, nullptr, WNOHANG);
  if (inc.cgroup)
    if (uint64_t refused = inc.cgroup->pidsLimitHits()) {
      auto it = std::find_if(limitHits_.begin(), limitHits_.end(),
                             [&](const LimitHit &h) { return h.service == spec(id).name; });
      if (it == limitHits_.end())
        it = limitHits_.insert(limitHits_.end(), {spec(id).name, inc.cgroup->pidsMax(), 0});
      // pids.events counts for the cgroup's life: a restart reuses it.
      if (refused > it->refused) {
        trace_.record(EventType::ResourceLimit, id,
                      {{"resource", "pids"},
                       {"limit", std::to_string(it->limit)},
                       {"refused", std::to_string(refused - it->refused)}});
        it->refused = refused;
      }
    }
  closeLaunched(inc.proc);
  inc.tornDown = true;
  std::erase(startOrder_, id);
}

void Supervisor::stopAll() {
  while (!startOrder_.empty())
    stop(startOrder_.back());
  // Every main process is reaped: what is left of the leaf are orphans.
  if (leaf_)
    leaf_->killAll(2000);
  if (opts_.killOrphans)
    killOrphans(2000);
}

void Supervisor::beginTest() {
  trace_.clear();
  limitHits_.clear();
}

void Supervisor::respec(ServiceId id, ServiceSpec spec) {
  Service &svc = *services_.at(id);
  rules_.setServiceName(id, spec.name);
  std::vector<uint16_t> ports = spec.ports;
  ports.insert(ports.end(), spec.networkPorts.begin(), spec.networkPorts.end());
  ports.insert(ports.end(), spec.proxyPorts.begin(), spec.proxyPorts.end());
  rules_.setServicePorts(id, std::move(ports));
  if (svc.observer)
    svc.oldObservers.push_back(std::move(svc.observer));
  svc.spec = std::move(spec);
}

void Supervisor::stopAllBut(const std::vector<bool> &keep) {
  std::vector<ServiceId> order = startOrder_;
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (*it >= keep.size() || !keep[*it] || !runningNow(*it))
      stop(*it); // a kept service that died goes too: its end is this test's
}

std::string Supervisor::probeHealth(ServiceId id) {
  Healthcheck h = services_.at(id)->spec.health;
  if (h.kind == Healthcheck::Kind::None)
    return "";
  h.timeoutMs = std::min<int64_t>(h.timeoutMs, 1000);
  std::string lastError;
  if (waitHealthy(
          h, [] { return false; }, lastError) == HealthResult::Ready)
    return "";
  return notReadyMessage(h, lastError);
}

void Supervisor::pumpObservedOutput() {
  for (const auto &svc : services_)
    if (svc->inProcessUp && svc->logs)
      svc->logs->pump(*svc->spec.inProcess);
  loop_.call([&] {
    for (const auto &svc : services_)
      for (const auto &inc : svc->runs)
        if (!inc->observers.empty() && !inc->tornDown)
          for (OutputCapture *c : {inc->out.get(), inc->err.get()})
            if (c)
              c->pump();
  });
}

bool Supervisor::running(ServiceId id) const {
  if (const Service &svc = *services_.at(id); svc.spec.inProcess)
    return svc.inProcessUp && !svc.spec.inProcess->exited();
  Incarnation *inc = current(id);
  return inc && !inc->tornDown && !inc->hasExited();
}

bool Supervisor::runningNow(ServiceId id) const {
  if (const Service &svc = *services_.at(id); svc.spec.inProcess)
    return svc.inProcessUp && !svc.treeGone() && !svc.spec.inProcess->exitedNow();
  // The loop may not have seen an exit yet: ask the kernel.
  return running(id) && !processExiting(pid(id));
}

pid_t Supervisor::pid(ServiceId id) const {
  Incarnation *inc = current(id);
  return inc ? inc->proc.pid : -1;
}

bool Supervisor::waitExit(ServiceId id, int64_t timeoutMs) {
  Incarnation *inc = current(id);
  return inc && inc->waitExited(timeoutMs);
}

std::optional<std::string> Supervisor::exitDescription(ServiceId id) const {
  if (const Service &svc = *services_.at(id); svc.spec.inProcess)
    return svc.spec.inProcess->exited();
  Incarnation *inc = current(id);
  if (!inc || !inc->hasExited())
    return std::nullopt;
  std::lock_guard lock(inc->mu);
  return describeExit(inc->exitCode, inc->exitStatus);
}

std::string Supervisor::stdoutText(ServiceId id) const {
  if (const Service &svc = *services_.at(id); svc.spec.inProcess)
    return svc.spec.inProcess->stdoutText();
  Incarnation *inc = current(id);
  return inc && inc->out ? inc->out->text() : "";
}

std::string Supervisor::stderrText(ServiceId id) const {
  if (const Service &svc = *services_.at(id); svc.spec.inProcess)
    return svc.spec.inProcess->stderrText();
  Incarnation *inc = current(id);
  return inc && inc->err ? inc->err->text() : "";
}

bool Supervisor::syncWakeUp(ServiceId id) const {
  Incarnation *inc = current(id);
  return inc && inc->proc.syncWakeUp;
}

const ListenerStats *Supervisor::listenerStats(ServiceId id) const {
  if (const Service &svc = *services_.at(id); svc.spec.inProcess)
    return svc.listeners.empty() ? nullptr : &svc.listeners.back()->stats();
  Incarnation *inc = current(id);
  return inc && inc->listener ? &inc->listener->stats() : nullptr;
}

NotificationListener *Supervisor::listener(ServiceId id) const {
  Incarnation *inc = current(id);
  return inc && !inc->tornDown ? inc->listener.get() : nullptr;
}

} // namespace fbc::rt
