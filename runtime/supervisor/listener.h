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
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fbc::rt {

class NotificationListener;

// A trapped syscall the listener decided and has not answered: its thread
// waits in the kernel until runtime/explore/ releases it (hold()).
struct HeldCall {
  NotificationListener *listener = nullptr;
  ServiceId service = kNoService;
  uint64_t id = 0; // the kernel's notification id (arrival order per listener)
  int32_t tid = 0; // the thread that made the call
  int nr = -1;
  uint64_t args[6] = {}; // its arguments (what it touches is read from them)
};

// Where held calls go (runtime/explore/hold_window.h implements it).
class HoldSink {
public:
  virtual ~HoldSink() = default;
  // A call was held (the listener's receive thread).
  virtual void held(const HeldCall &c) = 0;
  // `l` answered every call it held and is closing: forget them.
  virtual void forget(const NotificationListener *l) = 0;
};

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

  // Before start(): count every call by what it was on (its path or
  // destination; Trace::countOperation), reading them when no rule did.
  void countOperations(bool on) { countOperations_ = on; }

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

  // From now on, a trapped call whose number is in `nrs` is decided (its
  // counters move, as for any call) but not answered: it goes to `sink`
  // and waits until release(). A null sink stops holding new calls (those
  // already held stay held). Any thread.
  void hold(HoldSink *sink, const std::vector<int> &nrs);
  // Answers held call `id` as it was decided (a delay starts its timer
  // now) and records its syscall event; false when it is no longer held
  // (the listener released it while closing). Any thread.
  bool release(uint64_t id);
  // Answers every held call, in arrival order. Any thread.
  void releaseHeld();

  // Whether no process is left under the filter (the kernel reports it
  // once the last one is reaped): a container's service process ended,
  // seen before the engine knows. Not after close().
  bool orphaned() const;

  const ListenerStats &stats() const { return stats_; }
  // The receive thread's id (0 before it started): a quiescence check
  // watches it (a call it has not received yet wakes it).
  pid_t receiveTid() const { return tid_.load(std::memory_order_acquire); }

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

  // Held calls (hold()), by notification id, and what answers them.
  struct Held {
    int64_t receivedNs;
    bool record;
    SyscallRecord rec;
    Action action;
  };
  // Answers a call that was decided `action` (received at t0): a delay is
  // handed to a loop timer, anything else recorded and answered now.
  void answer(uint64_t id, int64_t t0, const Action &action, bool record, SyscallRecord rec);
  // close(): answers what is held and tells the sink.
  void forgetHeld();
  std::mutex heldMu_; // held_, holdSink_, holdNrs_
  std::map<uint64_t, Held> held_;
  HoldSink *holdSink_ = nullptr;
  std::vector<bool> holdNrs_;

  EventLoop &loop_;
  int fd_;
  ServiceId service_;
  RuleTable &rules_;
  Trace &trace_;
  bool recordAllowed_;
  bool countOperations_ = false;
  const UnmediatedObserver *observer_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> exited_{false};
  std::atomic<pid_t> tid_{0};
  std::mutex handleMu_; // held while a notification is handled
  ListenerStats stats_;
  seccomp_notif req_{};
  std::string pathBuf_; // reused between notifications
};

} // namespace fbc::rt
