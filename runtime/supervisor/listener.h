// One service's seccomp listener: receives each trapped syscall, asks the
// rule table, answers, and records the trace event.
//
// Each listener has a receive thread blocked in SECCOMP_IOCTL_NOTIF_RECV.
// With SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP set, the kernel hands the CPU
// straight from the trapping thread to that waiter (WF_CURRENT_CPU); a
// waiter in epoll does not get that hand-off (epoll's wake-up of its own
// waiters drops the flag), which costs an ordinary cross-CPU wake-up per
// trapped syscall. So the receive-decide-answer path runs on this thread,
// and everything that waits (delays, exits, output pipes) stays on the
// supervisor's one event loop: a delay is handed to a loop timer and the
// receive thread goes straight back to receiving.
//
// Hot path (an allowed syscall no rule cares about): one NOTIF_RECV ioctl,
// a rule-table scan under an uncontended mutex, one NOTIF_SEND ioctl with
// SECCOMP_USER_NOTIF_FLAG_CONTINUE, and a trace record that does not
// allocate. Arguments are read only when a candidate rule needs them, and
// NOTIF_ID_VALID is asked only when a rule is about to move a counter or
// after such a read (a dead thread's notification must not move counters;
// reads are what can go stale).
#pragma once

#include "runtime/os/event_loop.h"
#include "runtime/rules/rules.h"
#include "runtime/supervisor/unmediated_io.h"
#include "runtime/trace/trace.h"

#include <linux/seccomp.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace fbc::rt {

struct ListenerStats {
  std::atomic<uint64_t> notifications{0};
  std::atomic<uint64_t> dropped{0}; // target gone before the answer (ENOENT)
  std::atomic<uint64_t> faulted{0}; // deny or delay decisions
};

class NotificationListener final {
public:
  // `observer` (may be null) classifies the calls the filter observes
  // (unmediated_io.h); it must outlive the listener.
  NotificationListener(EventLoop &loop, int fd, ServiceId service, RuleTable &rules, Trace &trace,
                       bool recordAllowed, const UnmediatedObserver *observer = nullptr);
  ~NotificationListener();
  NotificationListener(const NotificationListener &) = delete;
  NotificationListener &operator=(const NotificationListener &) = delete;

  // Starts the receive thread.
  void start();
  // Stops the receive thread and closes the fd (loop thread). Delays still
  // pending go into the trace as unanswered (the kernel fails their
  // syscalls once the listener is closed, if the process still lives).
  void close();
  // Returns once no notification is being handled (any thread): what the
  // receive thread already took is in the trace.
  void quiesce();
  // Lets every delayed syscall still waiting for its timer run now, recorded
  // as unanswered (loop thread). For a service being stopped: a held
  // syscall waits killably (WAIT_KILLABLE_RECV), so its SIGTERM would
  // otherwise wait out the delay.
  void releasePending();

  const ListenerStats &stats() const { return stats_; }

private:
  void respond(uint64_t id, const Action &a);
  void receiveLoop();
  void handle();
  void stopThread();
  void answerDelay(uint64_t id); // loop thread
  void recordUnanswered();       // loop thread: every pending delay, then forgets them

  // Delayed notifications awaiting their timer, by notification id (the
  // kernel's ids increase, so this is arrival order). Loop thread only.
  struct PendingDelay {
    int64_t receivedNs;
    bool record;
    SyscallRecord rec;
  };
  std::map<uint64_t, PendingDelay> pending_;

  EventLoop &loop_;
  int fd_;
  ServiceId service_;
  RuleTable &rules_;
  Trace &trace_;
  bool recordAllowed_;
  const UnmediatedObserver *observer_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> exited_{false};
  std::mutex handleMu_; // held while a notification is handled
  ListenerStats stats_;
  seccomp_notif req_{};
  std::string pathBuf_; // reused between notifications
};

} // namespace fbc::rt
