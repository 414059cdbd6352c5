#include "runtime/listener.h"

#include "runtime/target_memory.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fbc::rt {
namespace {

// Lazily reads what the rule table asks for, remembering that it read
// target memory (so the notification id must be re-validated).
class NotifFacts final : public SyscallFacts {
public:
  NotifFacts(int fd, const seccomp_notif &req, std::string &pathBuf)
      : fd_(fd), req_(req), path_(pathBuf) {}

  // One NOTIF_ID_VALID the first time (the thread may have died between
  // NOTIF_RECV and now, with nothing read) and again after each read.
  bool stillValid() override {
    if (checked_ && !unchecked_)
      return valid_;
    checked_ = true;
    unchecked_ = false;
    valid_ = ioctl(fd_, SECCOMP_IOCTL_NOTIF_ID_VALID, &req_.id) == 0;
    return valid_;
  }
  // Whether target memory was read since the last stillValid().
  bool readSinceCheck() const { return unchecked_; }

  const std::string *path() override {
    if (!pathDone_) {
      pathDone_ = true;
      havePath_ = readPath();
      unchecked_ = true;
    }
    return havePath_ ? &path_ : nullptr;
  }

  const Destination *destination() override {
    if (!destDone_) {
      destDone_ = true;
      haveDest_ = readDest();
      unchecked_ = true;
    }
    return haveDest_ ? &dest_ : nullptr;
  }

  bool havePath() const { return havePath_; }
  const Destination *knownDestination() const { return haveDest_ ? &dest_ : nullptr; }

private:
  pid_t tid() const { return static_cast<pid_t>(req_.pid); }
  uint64_t arg(int i) const { return req_.data.args[i]; }

  bool readPath() {
    const SyscallShape &s = syscallShape(req_.data.nr);
    if (s.pathArg >= 0) {
      if (!readTargetString(tid(), arg(s.pathArg), path_))
        return false;
      if (!path_.empty() && path_[0] == '/')
        return true;
      // Relative: resolve against the dirfd (or the cwd) so globs see the
      // absolute path the kernel will open.
      std::string base;
      int dirfd = s.dirfdArg >= 0 ? static_cast<int>(arg(s.dirfdArg)) : AT_FDCWD;
      bool ok =
          dirfd == AT_FDCWD ? readTargetCwd(tid(), base) : readTargetFdPath(tid(), dirfd, base);
      if (!ok)
        return false;
      if (base != "/")
        base += '/';
      path_.insert(0, base);
      return true;
    }
    if (s.fdArg >= 0)
      return readTargetFdPath(tid(), static_cast<int>(arg(s.fdArg)), path_);
    return false;
  }

  bool readDest() {
    const SyscallShape &s = syscallShape(req_.data.nr);
    uint64_t addr = 0, len = 0;
    switch (s.dest) {
    case DestArg::None:
      return false;
    case DestArg::Sockaddr:
      addr = arg(1);
      len = arg(2);
      break;
    case DestArg::SendTo:
      addr = arg(4);
      len = arg(5);
      break;
    case DestArg::MsgHdr:
    case DestArg::MMsgHdr: {
      // struct mmsghdr starts with its msghdr.
      msghdr m{};
      if (!readTargetMemory(tid(), arg(1), &m, sizeof m))
        return false;
      addr = reinterpret_cast<uint64_t>(m.msg_name);
      len = m.msg_namelen;
      break;
    }
    }
    if (addr == 0) // a connected socket: ask it for its peer
      return readTargetPeer(tid(), static_cast<int>(arg(0)), dest_);
    sockaddr_storage ss{};
    if (len > sizeof ss)
      len = sizeof ss;
    if (!readTargetMemory(tid(), addr, &ss, static_cast<size_t>(len)))
      return false;
    dest_ = parseSockaddr(&ss, static_cast<size_t>(len));
    return true;
  }

  int fd_;
  const seccomp_notif &req_;
  std::string &path_;
  Destination dest_;
  bool pathDone_ = false, havePath_ = false;
  bool destDone_ = false, haveDest_ = false;
  bool unchecked_ = false; // read since the last NOTIF_ID_VALID
  bool checked_ = false;   // NOTIF_ID_VALID asked at least once
  bool valid_ = true;      // its last answer
};

} // namespace

NotificationListener::NotificationListener(EventLoop &loop, int fd, ServiceId service,
                                           RuleTable &rules, Trace &trace, bool recordAllowed)
    : loop_(loop), fd_(fd), service_(service), rules_(rules), trace_(trace),
      recordAllowed_(recordAllowed) {
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
  recordUnanswered();
  std::map<uint64_t, PendingDelay> released;
  released.swap(pending_); // their timers find nothing to answer
  for (auto &[id, p] : released)
    respond(id, Action::allow());
}

void NotificationListener::close() {
  if (fd_ < 0)
    return;
  stopThread();
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
  // What we read may belong to a dead thread whose tid was reused: act on
  // it only if the notification is still alive (decide() already checked
  // before it moved a counter; this covers reads after the last check).
  if (d.stale || (facts.readSinceCheck() && !facts.stillValid())) {
    stats_.dropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  trace_.countSyscall(service_, req_.data.nr, d.fired && d.action.faults());
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
  if (d.fired && d.action.kind == ActionKind::Delay) {
    // Answered later by the event loop's timer: this thread goes straight
    // back to receiving, so other syscalls of the service are not held up.
    uint64_t id = req_.id;
    int64_t deadline = addSaturating(t0, d.action.delayNs);
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
  respond(req_.id, d.action);
}

void NotificationListener::quiesce() {
  std::lock_guard lock(handleMu_);
}

} // namespace fbc::rt
