// One service's seccomp listener on the event loop: receives each trapped
// syscall, asks the rule table, answers, and records the trace event.
//
// Hot path (an allowed syscall no rule cares about): one NOTIF_RECV ioctl,
// a rule-table scan under an uncontended mutex, one NOTIF_SEND ioctl with
// SECCOMP_USER_NOTIF_FLAG_CONTINUE, and a trace record that does not
// allocate. Arguments are read only when a candidate rule needs them, and
// only then is NOTIF_ID_VALID checked (the reads are what can go stale).
// A delay is answered from a loop timer, never by sleeping.
#pragma once

#include "runtime/event_loop.h"
#include "runtime/rules.h"
#include "runtime/trace.h"

#include <linux/seccomp.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace fbc::rt {

struct ListenerStats {
  std::atomic<uint64_t> notifications{0};
  std::atomic<uint64_t> dropped{0}; // target gone before the answer (ENOENT)
  std::atomic<uint64_t> faulted{0}; // deny or delay decisions
};

class NotificationListener final : public EventLoop::Handler {
public:
  NotificationListener(EventLoop &loop, int fd, ServiceId service, RuleTable &rules, Trace &trace,
                       bool recordAllowed);
  ~NotificationListener() override;

  // Registers with the loop (loop thread).
  void start();
  // Unregisters and closes the fd (loop thread). Pending delays are dropped:
  // the kernel fails their syscalls once the listener is closed.
  void close();

  void onEvents(uint32_t events) override;
  const ListenerStats &stats() const { return stats_; }

private:
  void respond(uint64_t id, const Action &a);

  EventLoop &loop_;
  int fd_;
  ServiceId service_;
  RuleTable &rules_;
  Trace &trace_;
  bool recordAllowed_;
  bool registered_ = false;
  ListenerStats stats_;
  seccomp_notif req_{};
  std::string pathBuf_; // reused between notifications
};

} // namespace fbc::rt
