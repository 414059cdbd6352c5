#include "runtime/supervisor/listener.h"

#include "runtime/supervisor/notif_facts.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

namespace fbc::rt {

NotificationListener::NotificationListener(EventLoop &loop, int fd, ServiceId service,
                                           RuleTable &rules, Trace &trace, bool recordAllowed,
                                           const UnmediatedObserver *observer)
    : loop_(loop), fd_(fd), service_(service), rules_(rules), trace_(trace),
      recordAllowed_(recordAllowed), observer_(observer) {
  pathBuf_.reserve(256);
}

NotificationListener::~NotificationListener() {
  stopThread();
  if (fd_ >= 0)
    ::close(fd_);
}

namespace {

// The signal that knocks a receive thread out of a blocking NOTIF_RECV
// (EINTR): a handler that does nothing, installed without SA_RESTART.
int wakeSignal() {
  static const int sig = [] {
    int s = SIGRTMIN + 5;
    struct sigaction sa {};
    sa.sa_handler = [](int) {};
    sigemptyset(&sa.sa_mask);
    sigaction(s, &sa, nullptr);
    return s;
  }();
  return sig;
}

// What a counted call was on: the destination of a call that carries an
// inet one ("127.0.0.1:6379"), else its path, a socket's or pipe's inode
// left out ("socket", "pipe") so that a service's targets stay few; ""
// when neither can be read.
std::string operationTargetOf(NotifFacts &facts) {
  if (const Destination *d = facts.destination(); d && d->valid())
    return d->text();
  const std::string *p = facts.path();
  if (!p)
    return "";
  if (p->starts_with("socket:["))
    return "socket";
  if (p->starts_with("pipe:["))
    return "pipe";
  return *p;
}

} // namespace

void NotificationListener::start() {
  wakeSignal();
  thread_ = std::thread([this] { receiveLoop(); });
}

void NotificationListener::receiveLoop() {
  // Unblock the wake signal here whatever the creator's mask was.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, wakeSignal());
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  tid_.store(gettid(), std::memory_order_release);
  while (!stopping_.load(std::memory_order_acquire)) {
    // The kernel insists on a zeroed request.
    std::memset(&req_, 0, sizeof req_);
    if (ioctl(fd_, SECCOMP_IOCTL_NOTIF_RECV, &req_) < 0) {
      if (errno == EINTR)
        continue;
      // ENOENT: the syscall was interrupted before we got it.
      if (errno == ENOENT) {
        stats_.dropped.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      break; // the listener is gone
    }
    std::lock_guard lock(handleMu_);
    handle();
  }
  exited_.store(true, std::memory_order_release);
}

void NotificationListener::stopThread() {
  if (!thread_.joinable())
    return;
  stopping_.store(true, std::memory_order_release);
  // The signal may land just before the thread enters NOTIF_RECV: repeat
  // until it has left.
  while (!exited_.load(std::memory_order_acquire)) {
    pthread_kill(thread_.native_handle(), wakeSignal());
    if (exited_.load(std::memory_order_acquire))
      break;
    usleep(200);
  }
  thread_.join();
}

void NotificationListener::answerDelay(uint64_t id) {
  auto it = pending_.find(id);
  if (it == pending_.end())
    return; // the listener closed first and recorded it
  PendingDelay p = std::move(it->second);
  pending_.erase(it);
  if (p.record) {
    p.rec.latencyNs = monotonicNs() - p.receivedNs;
    trace_.recordSyscall(service_, std::move(p.rec));
  }
  respond(id, Action::allow());
}

void NotificationListener::recordUnanswered() {
  int64_t now = monotonicNs();
  for (auto &[id, p] : pending_)
    if (p.record) {
      p.rec.latencyNs = now - p.receivedNs;
      p.rec.unanswered = true;
      trace_.recordSyscall(service_, std::move(p.rec));
    }
}

void NotificationListener::releasePending() {
  releaseHeld();
  recordUnanswered();
  std::map<uint64_t, PendingDelay> released;
  released.swap(pending_); // their timers find nothing to answer
  for (auto &[id, p] : released)
    respond(id, Action::allow());
}

bool NotificationListener::orphaned() const {
  if (fd_ < 0)
    return false;
  pollfd p{fd_, POLLIN, 0};
  return poll(&p, 1, 0) > 0 && (p.revents & POLLHUP);
}

void NotificationListener::close() {
  if (fd_ < 0)
    return;
  stopThread();
  forgetHeld();
  recordUnanswered();
  pending_.clear();
  ::close(fd_);
  fd_ = -1;
}

void NotificationListener::respond(uint64_t id, const Action &a) {
  if (fd_ < 0)
    return;
  seccomp_notif_resp resp{};
  resp.id = id;
  if (a.kind == ActionKind::Deny) {
    resp.error = -a.err;
  } else {
    resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  }
  // ENOENT: the target was interrupted or killed meanwhile; nothing to do.
  if (ioctl(fd_, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0 && errno == ENOENT)
    stats_.dropped.fetch_add(1, std::memory_order_relaxed);
}

void NotificationListener::handle() {
  int64_t t0 = monotonicNs();
  stats_.notifications.fetch_add(1, std::memory_order_relaxed);
  NotifFacts facts(fd_, req_, pathBuf_);
  Decision d = rules_.decide(service_, req_.data.nr, facts);
  // What the call was on, read (if no rule did) while the validity check
  // below still covers it.
  std::string operationTarget;
  if (countOperations_)
    operationTarget = operationTargetOf(facts);
  // What we read may belong to a dead thread whose tid was reused: act on
  // it only if the notification is still alive (decide() already checked
  // before it moved a counter; this covers reads after the last check).
  if (d.stale || (facts.readSinceCheck() && !facts.stillValid())) {
    stats_.dropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // I/O the rules cannot see, whatever they decided (an observation).
  if (observer_ && observer_->observes(req_.data.nr)) {
    auto unmediated = observer_->classify(req_, facts, rules_);
    // What classify() read must still belong to the call.
    if (unmediated && ioctl(fd_, SECCOMP_IOCTL_NOTIF_ID_VALID, &req_.id) == 0)
      trace_.record(EventType::UnmediatedIo, service_, std::move(*unmediated));
  }
  trace_.countSyscall(service_, req_.data.nr, d.fired && d.action.faults(),
                      !decidedByRule(d.fired, d.action));
  if (countOperations_)
    trace_.countOperation(service_, req_.data.nr, std::move(operationTarget));
  bool record = recordAllowed_ || d.fired || d.systemPathExempt;
  SyscallRecord rec;
  if (record) {
    rec.pid = static_cast<int32_t>(req_.pid);
    rec.nr = req_.data.nr;
    rec.action = d.action;
    rec.fired = d.fired;
    rec.systemPathExempt = d.systemPathExempt;
    if (facts.havePath())
      rec.path = pathBuf_;
    if (const Destination *dest = facts.knownDestination())
      rec.dest = dest->text();
    rec.label = std::move(d.label);
  }
  if (d.fired && d.action.faults())
    stats_.faulted.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(heldMu_);
    if (holdSink_ && size_t(req_.data.nr) < holdNrs_.size() && holdNrs_[size_t(req_.data.nr)]) {
      // Decided, not answered: the thread waits in the kernel until the
      // explorer releases it (release()).
      held_.emplace(req_.id, Held{t0, record, std::move(rec), d.action});
      HeldCall c{this, service_, req_.id, static_cast<int32_t>(req_.pid), req_.data.nr};
      std::copy(std::begin(req_.data.args), std::end(req_.data.args), std::begin(c.args));
      holdSink_->held(c);
      return;
    }
  }
  answer(req_.id, t0, d.action, record, std::move(rec));
}

void NotificationListener::answer(uint64_t id, int64_t t0, const Action &action, bool record,
                                  SyscallRecord rec) {
  if (action.kind == ActionKind::Delay) {
    // Answered later by the event loop's timer: this thread goes straight
    // back to receiving, so other syscalls of the service are not held up.
    int64_t deadline = addSaturating(monotonicNs(), action.delayNs);
    loop_.post([this, id, t0, deadline, record, rec = std::move(rec)]() mutable {
      pending_.emplace(id, PendingDelay{t0, record, std::move(rec)});
      loop_.addTimer(deadline, [this, id] { answerDelay(id); });
    });
    return;
  }
  // Recorded before the answer: whatever the target does next (a reply
  // the test reads, its exit) comes after this event in the trace.
  if (record) {
    rec.latencyNs = monotonicNs() - t0;
    trace_.recordSyscall(service_, std::move(rec));
  }
  respond(id, action);
}

void NotificationListener::hold(HoldSink *sink, const std::vector<int> &nrs) {
  std::lock_guard lock(heldMu_);
  holdSink_ = sink;
  holdNrs_.assign(kMaxSyscall, false);
  for (int nr : nrs)
    if (nr >= 0 && size_t(nr) < holdNrs_.size())
      holdNrs_[size_t(nr)] = true;
}

bool NotificationListener::release(uint64_t id) {
  std::lock_guard lock(heldMu_);
  auto it = held_.find(id);
  if (it == held_.end())
    return false;
  Held h = std::move(it->second);
  held_.erase(it);
  answer(id, h.receivedNs, h.action, h.record, std::move(h.rec));
  return true;
}

void NotificationListener::forgetHeld() {
  HoldSink *sink = nullptr;
  {
    std::lock_guard lock(heldMu_);
    // Closing (loop thread): a held delay runs no timer; the call goes on now.
    for (auto &[id, h] : held_) {
      if (h.action.kind == ActionKind::Delay) {
        h.action = Action::allow();
        h.rec.unanswered = true;
      }
      answer(id, h.receivedNs, h.action, h.record, std::move(h.rec));
    }
    held_.clear();
    sink = holdSink_;
    holdSink_ = nullptr;
  }
  if (sink)
    sink->forget(this);
}

void NotificationListener::releaseHeld() {
  std::lock_guard lock(heldMu_);
  for (auto &[id, h] : held_)
    answer(id, h.receivedNs, h.action, h.record, std::move(h.rec));
  held_.clear();
}

void NotificationListener::quiesce() {
  std::lock_guard lock(handleMu_);
}

} // namespace fbc::rt
