// The hold queue at work: while a parallel() call's branches run, the
// trapped calls of the held services (the leaf program's `holds` lines)
// wait in the kernel, and a scheduler thread releases them one at a time,
// each time the system is quiet (quiescence.h), in the order the leaf's
// Chooser picks (schedule.h). Every release is a trace event ("release":
// call, step, waiting, quiet) recorded before the call is answered as the
// rules decided it, and a Step of the leaf's schedule. When the test has
// fbc's proxy, the messages it would relay to the services wait in it too
// (runtime/proxy/proxy_hold.h), and are released as the calls are, one
// choice among the waiting calls and messages.
//
// The window ends once every branch has returned and the system is quiet
// with nothing held; calls that arrive after that are not held.
#pragma once

#include "runtime/explore/schedule.h"
#include "runtime/proxy/proxy_hold.h"
#include "runtime/supervisor/listener.h"

#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace fbc::rt {
class ProxyHub;
class Supervisor;
} // namespace fbc::rt

namespace fbc::rt::explore {

struct HoldSettings {
  // How far apart the two reads of a quiescence check are.
  int64_t settleNs = 2000000;
  // The longest wait for quiescence: past it the next call is released
  // anyway (its step says quiet=false).
  int64_t quietBoundNs = 1000000000;
};

// What a leaf's exploration keeps across its windows (a body may call
// parallel() more than once): the chooser, the steps so far, and the
// names given to threads.
struct LeafSchedule {
  Chooser *chooser = nullptr;
  // DPOR: read what each held call touches (resources.h) as it is held;
  // other choosers never look, and the reads are syscalls on the
  // listener's thread.
  bool readAccess = false;
  ServerPorts servers; // for readAccess: the spec's interface ports (resources.h)
  std::vector<Step> steps;
  std::map<std::pair<ServiceId, pid_t>, uint32_t> threadOrdinal;
  std::map<ServiceId, uint32_t> threadsNamed; // per service
  std::map<pid_t, uint32_t> callsSeen;        // per thread: held calls so far
  // The same for the proxy's connections (by the proxy's connection id).
  std::map<std::pair<ServiceId, uint64_t>, uint32_t> connOrdinal;
  std::map<ServiceId, uint32_t> connsNamed;
  std::map<uint64_t, uint32_t> messagesSeen;
};

class HoldWindow final : public HoldSink, public MessageSink {
public:
  // `holds`: per held service, the syscall numbers held. `branches`: how
  // many branch threads will report in (branchStarted()). `proxy`: the
  // test's proxy (null: none), whose relayed messages are held too; its
  // thread is watched by the quiescence check as the services' threads
  // are, and the system is quiet only while it is idle (no delay() timer
  // armed, nothing on its way).
  HoldWindow(Supervisor &sup, const std::vector<std::pair<ServiceId, std::vector<int>>> &holds,
             const HoldSettings &settings, LeafSchedule &leaf, size_t branches,
             ProxyHub *proxy = nullptr);
  // Waits for the end (every branch returned, quiet, nothing held), then
  // stops holding.
  ~HoldWindow() override;
  HoldWindow(const HoldWindow &) = delete;
  HoldWindow &operator=(const HoldWindow &) = delete;

  // From each branch thread, first and last thing it does.
  void branchStarted(pid_t tid);
  void branchEnded(pid_t tid);

  // HoldSink
  void held(const HeldCall &c) override;
  void forget(const NotificationListener *l) override;
  // MessageSink
  void heldMessage(const HeldMessage &m) override;

private:
  struct Waiting {
    HeldCall call;                      // a trapped syscall, unless `message`
    std::optional<HeldMessage> message; // a message held in the proxy
    uint32_t seq;                       // the thread's (connection's) count of earlier ones
    Access access;                      // what it touches (read when it was held)
    ServiceId service() const { return message ? message->service : call.service; }
  };
  void schedule(); // the scheduler thread
  // Returns once the system is quiet (with `branches`: and every branch
  // thread has started), or the quiescence bound passed (`bounded` set).
  void waitQuiet(bool &bounded, bool branches);
  // Releases the waiting call the chooser picks (`first`: the first by
  // name, without asking it).
  void releaseOne(bool quiet, bool first);
  std::string nameOf(const Waiting &w);
  std::vector<pid_t> servicePids() const;
  std::vector<pid_t> watchedTids();
  std::set<pid_t> heldTids();
  uint64_t arrivals(); // arrivals_, read under mu_

  Supervisor &sup_;
  std::vector<ServiceId> held_;
  HoldSettings settings_;
  LeafSchedule &leaf_;
  size_t branches_;
  ProxyHub *proxy_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Waiting> waiting_; // arrival order
  std::vector<pid_t> running_;   // branch threads that started and have not ended
  size_t started_ = 0, ended_ = 0;
  uint64_t arrivals_ = 0; // calls and messages held so far
  std::thread thread_;
  // Held while a listener is released, so forget() cannot pass it (lock
  // order: useMu_, then the listener's; never mu_ while releasing).
  std::mutex useMu_;
  std::set<const NotificationListener *> gone_;
};

} // namespace fbc::rt::explore
