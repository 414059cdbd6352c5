#include "runtime/explore/hold_window.h"

#include "runtime/explore/quiescence.h"
#include "runtime/os/clock.h"
#include "runtime/os/syscalls.h"
#include "runtime/supervisor/supervisor.h"

#include <algorithm>
#include <chrono>

namespace fbc::rt::explore {

HoldWindow::HoldWindow(Supervisor &sup,
                       const std::vector<std::pair<ServiceId, std::vector<int>>> &holds,
                       const HoldSettings &settings, LeafSchedule &leaf, size_t branches,
                       std::vector<pid_t> relays)
    : sup_(sup), settings_(settings), leaf_(leaf), branches_(branches), relays_(std::move(relays)) {
  // What the services were doing before (a healthcheck's connection being
  // served) ends unheld: every leaf's window opens on the same state.
  bool bounded = false;
  waitQuiet(bounded, /*branches=*/false);
  for (const auto &[svc, nrs] : holds)
    if (NotificationListener *l = sup_.listener(svc)) {
      held_.push_back(svc);
      l->hold(this, nrs);
    }
  thread_ = std::thread([this] { schedule(); });
}

HoldWindow::~HoldWindow() {
  thread_.join();
  // Nothing new is held from here on; what arrived since the last check
  // goes in arrival order, each a step without a choice.
  for (ServiceId svc : held_)
    if (NotificationListener *l = sup_.listener(svc))
      l->hold(nullptr, {});
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (waiting_.empty())
        break;
    }
    releaseOne(/*quiet=*/false, /*first=*/true);
  }
}

void HoldWindow::branchStarted(pid_t tid) {
  std::lock_guard lock(mu_);
  running_.push_back(tid);
  ++started_;
  cv_.notify_all();
}

void HoldWindow::branchEnded(pid_t tid) {
  std::lock_guard lock(mu_);
  running_.erase(std::remove(running_.begin(), running_.end(), tid), running_.end());
  ++ended_;
  cv_.notify_all();
}

void HoldWindow::held(const HeldCall &c) {
  // Read while the thread waits in the kernel: its descriptors are as the
  // call sees them (unknown when nothing reads it: not DPOR).
  Access access = leaf_.readAccess ? accessOf(c.tid, c.nr, c.args, leaf_.servers) : Access{};
  std::lock_guard lock(mu_);
  waiting_.push_back({c, leaf_.callsSeen[c.tid]++, std::move(access)});
  cv_.notify_all();
}

void HoldWindow::forget(const NotificationListener *l) {
  std::lock_guard use(useMu_);
  gone_.insert(l);
  std::lock_guard lock(mu_);
  waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                [&](const Waiting &w) { return w.call.listener == l; }),
                 waiting_.end());
}

std::vector<pid_t> HoldWindow::servicePids() const {
  std::vector<pid_t> out;
  for (ServiceId s = 0; s < sup_.serviceCount(); ++s)
    if (sup_.running(s))
      out.push_back(sup_.pid(s));
  return out;
}

std::vector<pid_t> HoldWindow::watchedTids() {
  std::vector<pid_t> out;
  for (ServiceId s = 0; s < sup_.serviceCount(); ++s)
    if (NotificationListener *l = sup_.listener(s); l && l->receiveTid() > 0)
      out.push_back(l->receiveTid());
  out.insert(out.end(), relays_.begin(), relays_.end());
  std::lock_guard lock(mu_);
  out.insert(out.end(), running_.begin(), running_.end());
  return out;
}

std::set<pid_t> HoldWindow::heldTids() {
  std::lock_guard lock(mu_);
  std::set<pid_t> out;
  for (const Waiting &w : waiting_)
    out.insert(w.call.tid);
  return out;
}

void HoldWindow::waitQuiet(bool &bounded, bool branches) {
  int64_t deadline = monotonicNs() + settings_.quietBoundNs;
  std::vector<pid_t> pids = servicePids();
  while (true) {
    bool allStarted;
    {
      std::lock_guard lock(mu_);
      allStarted = !branches || started_ == branches_;
    }
    if (allStarted) {
      std::vector<pid_t> tids = watchedTids();
      std::set<pid_t> held = heldTids();
      std::vector<ThreadState> first = readThreads(pids, tids);
      if (nothingRuns(first, held)) {
        std::this_thread::sleep_for(std::chrono::nanoseconds(settings_.settleNs));
        std::vector<ThreadState> second = readThreads(pids, watchedTids());
        if (heldTids() == held && quietBetween(first, second, held))
          return;
      }
    }
    if (monotonicNs() > deadline) {
      bounded = true;
      return;
    }
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::microseconds(200));
  }
}

void HoldWindow::schedule() {
  int64_t endedAt = 0; // when every branch had returned
  while (true) {
    bool bounded = false;
    waitQuiet(bounded, /*branches=*/true);
    bool empty, done;
    {
      std::lock_guard lock(mu_);
      empty = waiting_.empty();
      done = ended_ == branches_;
    }
    if (done && !endedAt)
      endedAt = monotonicNs();
    // A service that keeps making held calls after the branches returned
    // (a timer that logs) does not keep the window open past the bound.
    if (done && monotonicNs() - endedAt > settings_.quietBoundNs)
      return;
    if (!empty) {
      releaseOne(!bounded, /*first=*/false);
    } else if (done) {
      return;
    } else {
      std::unique_lock lock(mu_);
      cv_.wait_for(lock, std::chrono::milliseconds(5));
    }
  }
}

std::string HoldWindow::nameOf(const Waiting &w) {
  uint32_t ordinal = leaf_.threadOrdinal.at({w.call.service, w.call.tid});
  return callName(sup_.trace().serviceName(w.call.service), ordinal, w.seq,
                  std::string(syscallName(w.call.nr)));
}

void HoldWindow::releaseOne(bool quiet, bool first) {
  Waiting w;
  std::string name;
  size_t step, count;
  {
    std::lock_guard lock(mu_);
    if (waiting_.empty())
      return;
    // Threads seen for the first time get the next ordinals of their
    // service, by thread id (creation order).
    std::vector<std::pair<ServiceId, pid_t>> fresh;
    for (const Waiting &x : waiting_)
      if (!leaf_.threadOrdinal.count({x.call.service, x.call.tid}))
        fresh.emplace_back(x.call.service, x.call.tid);
    std::sort(fresh.begin(), fresh.end());
    fresh.erase(std::unique(fresh.begin(), fresh.end()), fresh.end());
    for (const auto &key : fresh)
      leaf_.threadOrdinal[key] = leaf_.threadsNamed[key.first]++;
    std::vector<std::pair<std::string, size_t>> named;
    for (size_t i = 0; i < waiting_.size(); ++i)
      named.emplace_back(nameOf(waiting_[i]), i);
    std::sort(named.begin(), named.end());
    Step s;
    for (const auto &n : named) {
      s.waiting.push_back(n.first);
      s.access.push_back(waiting_[n.second].access);
    }
    step = leaf_.steps.size();
    s.chosen = first ? 0 : leaf_.chooser->choose(step, s.waiting);
    s.forced = first;
    count = s.waiting.size();
    name = s.waiting[s.chosen];
    w = waiting_[named[s.chosen].second];
    waiting_.erase(waiting_.begin() + ptrdiff_t(named[s.chosen].second));
    leaf_.steps.push_back(std::move(s));
  }
  std::lock_guard use(useMu_);
  if (gone_.count(w.call.listener))
    return; // its service stopped: the listener answered it while closing
  sup_.trace().record(EventType::Release, w.call.service,
                      {{"call", name},
                       {"step", std::to_string(step)},
                       {"waiting", std::to_string(count)},
                       {"quiet", quiet ? "true" : "false"}});
  w.call.listener->release(w.call.id);
}

} // namespace fbc::rt::explore
