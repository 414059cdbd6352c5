#include "runtime/explore/hold_window.h"

#include "runtime/explore/quiescence.h"
#include "runtime/explore/server_access.h"
#include "runtime/os/clock.h"
#include "runtime/os/syscalls.h"
#include "runtime/proxy/proxy.h"
#include "runtime/supervisor/supervisor.h"

#include <algorithm>
#include <chrono>

namespace fbc::rt::explore {

HoldWindow::HoldWindow(Supervisor &sup,
                       const std::vector<std::pair<ServiceId, std::vector<int>>> &holds,
                       const HoldSettings &settings, LeafSchedule &leaf, size_t branches,
                       ProxyHub *proxy)
    : sup_(sup), settings_(settings), leaf_(leaf), branches_(branches), proxy_(proxy) {
  // What the services were doing before (a healthcheck's connection being
  // served) ends unheld: every leaf's window opens on the same state.
  bool bounded = false;
  waitQuiet(bounded, /*branches=*/false);
  for (const auto &[svc, nrs] : holds)
    if (NotificationListener *l = sup_.listener(svc)) {
      held_.push_back(svc);
      l->hold(this, nrs);
    }
  if (proxy_)
    proxy_->holdMessages(this);
  thread_ = std::thread([this] { schedule(); });
}

HoldWindow::~HoldWindow() {
  thread_.join();
  // Nothing new is held from here on; what arrived since the last check
  // goes in arrival order, each a step without a choice.
  for (ServiceId svc : held_)
    if (NotificationListener *l = sup_.listener(svc))
      l->hold(nullptr, {});
  if (proxy_)
    proxy_->holdMessages(nullptr);
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
  waiting_.push_back({c, std::nullopt, leaf_.callsSeen[c.tid]++, std::move(access)});
  ++arrivals_;
  cv_.notify_all();
}

void HoldWindow::heldMessage(const HeldMessage &m) {
  // What it touches, from its bytes as its protocol's request (the whole
  // service when the codec did not frame it whole).
  Access access;
  if (leaf_.readAccess) {
    access.known = true;
    access.keys = m.framed ? requestKeys(m.protocol, m.serverPort, m.bytes, true)
                           : std::vector<std::string>{wildcard(m.serverPort)};
    std::sort(access.keys.begin(), access.keys.end());
    access.keys.erase(std::unique(access.keys.begin(), access.keys.end()), access.keys.end());
  }
  std::lock_guard lock(mu_);
  waiting_.push_back({HeldCall{}, m, leaf_.messagesSeen[m.conn]++, std::move(access)});
  ++arrivals_;
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
  if (pid_t relay = proxy_ ? proxy_->threadId() : 0)
    out.push_back(relay);
  std::lock_guard lock(mu_);
  out.insert(out.end(), running_.begin(), running_.end());
  return out;
}

std::set<pid_t> HoldWindow::heldTids() {
  std::lock_guard lock(mu_);
  std::set<pid_t> out;
  for (const Waiting &w : waiting_)
    if (!w.message)
      out.insert(w.call.tid);
  return out;
}

uint64_t HoldWindow::arrivals() {
  std::lock_guard lock(mu_);
  return arrivals_;
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
      uint64_t arrived = arrivals();
      std::vector<ThreadState> first = readThreads(pids, tids);
      // The proxy's loop knows what the kernel cannot show: a delay()
      // timer armed, a dial or a write under way.
      if (nothingRuns(first, held) && (!proxy_ || proxy_->idle())) {
        std::this_thread::sleep_for(std::chrono::nanoseconds(settings_.settleNs));
        std::vector<ThreadState> second = readThreads(pids, watchedTids());
        if (heldTids() == held && arrivals() == arrived && (!proxy_ || proxy_->idle()) &&
            quietBetween(first, second, held))
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
  if (w.message)
    return messageName(sup_.trace().serviceName(w.message->service),
                       leaf_.connOrdinal.at({w.message->service, w.message->conn}), w.seq,
                       w.message->what);
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
    // service, by thread id (creation order); connections of the proxy by
    // its connection id (accept order).
    std::vector<std::pair<ServiceId, pid_t>> fresh;
    std::vector<std::pair<ServiceId, uint64_t>> freshConns;
    for (const Waiting &x : waiting_)
      if (x.message && !leaf_.connOrdinal.count({x.message->service, x.message->conn}))
        freshConns.emplace_back(x.message->service, x.message->conn);
      else if (!x.message && !leaf_.threadOrdinal.count({x.call.service, x.call.tid}))
        fresh.emplace_back(x.call.service, x.call.tid);
    std::sort(fresh.begin(), fresh.end());
    fresh.erase(std::unique(fresh.begin(), fresh.end()), fresh.end());
    for (const auto &key : fresh)
      leaf_.threadOrdinal[key] = leaf_.threadsNamed[key.first]++;
    std::sort(freshConns.begin(), freshConns.end());
    freshConns.erase(std::unique(freshConns.begin(), freshConns.end()), freshConns.end());
    for (const auto &key : freshConns)
      leaf_.connOrdinal[key] = leaf_.connsNamed[key.first]++;
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
    w = std::move(waiting_[named[s.chosen].second]);
    waiting_.erase(waiting_.begin() + ptrdiff_t(named[s.chosen].second));
    leaf_.steps.push_back(std::move(s));
  }
  auto record = [&] {
    sup_.trace().record(EventType::Release, w.service(),
                        {{"call", name},
                         {"step", std::to_string(step)},
                         {"waiting", std::to_string(count)},
                         {"quiet", quiet ? "true" : "false"}});
  };
  if (w.message) {
    record();
    proxy_->releaseMessage(w.message->conn); // nothing when the connection closed meanwhile
    return;
  }
  std::lock_guard use(useMu_);
  if (gone_.count(w.call.listener))
    return; // its service stopped: the listener answered it while closing
  record();
  w.call.listener->release(w.call.id);
}

} // namespace fbc::rt::explore
