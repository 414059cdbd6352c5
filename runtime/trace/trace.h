// The ordered event log of one test: every event gets the next sequence
// number and a CLOCK_MONOTONIC timestamp under one lock, so seq order is
// time order. Services are ids (names live in the Trace), so recording a
// syscall event does not allocate unless it carries a path or label longer
// than the small-string buffer.
#pragma once

#include "runtime/os/clock.h"
#include "runtime/rules/rules.h"
#include "runtime/trace/event_schema.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

// A test's trace keeps at most this many syscall events (a deny hit in a
// retry loop would otherwise grow it without bound); the next one becomes a
// TraceTruncated event, "trace truncated after 100000 events", and the rest
// are counted in its "dropped" field. Other events (lifecycle, faults,
// steps) are always kept, and syscall counts (syscallSummary) stay exact.
inline constexpr size_t kMaxTraceEvents = 100000;

// The syscall-specific part of an event.
struct SyscallRecord {
  int32_t pid = 0;
  int32_t nr = -1;
  Action action;                 // what was done (Allow when nothing fired)
  bool fired = false;            // a rule decided
  bool systemPathExempt = false; // "allow (system path)"
  int64_t latencyNs = 0;         // notification received → answered (delays included)
  std::string path;              // resolved path, if it was needed
  std::string label;             // the firing rule's label
  std::string dest;              // "127.0.0.1:6379" for connect/sendto, if read
  // A delay still running when its service stopped (the test ended or the
  // process died first): latencyNs is the time it had been held.
  bool unanswered = false;
};

// The rule a fault_applied, fault_removed, fault_zero_traffic or
// proxy_fault_* event is about, typed: its "action" and "rule" fields are
// this formatted, and what reads the event back (faultSummaries) reads this
// rather than parse them.
struct RuleRecord {
  Action action;           // a syscall rule's
  std::string proxyAction; // a protocol rule's ir::proxyActionName: "error", "response", ...
};

// One event. Its kind's fields are declared in runtime/trace/events.def
// (event_schema.h); the outputs write them as strings, in `fields` order.
struct TraceEvent {
  uint64_t seq = 0;
  int64_t timeNs = 0; // monotonic, relative to the trace's start
  EventType type = EventType::Syscall;
  ServiceId service = kNoService;                          // kNoService: the test itself ("test")
  SyscallRecord syscall;                                   // type == Syscall
  RuleRecord rule;                                         // the fault rule events
  std::vector<std::pair<std::string, std::string>> fields; // everything else, in order

  // The value of field `key`, "" when the event has none.
  std::string field(std::string_view key) const {
    for (const auto &[k, v] : fields)
      if (k == key)
        return v;
    return "";
  }
  std::string text(EventField f) const { return field(fieldKey(f)); }
  // A Count field's value (0 when absent), a Flag field's.
  uint64_t count(EventField f) const;
  bool flag(EventField f) const { return field(fieldKey(f)) == "true"; }
  // Whether every field is one events.def declares for the kind.
  bool fieldsDeclared() const;
};

// fbc run --record-ops keeps at most this many targets per service (a
// service that opens a new file per request would otherwise grow it
// without bound); calls on later new targets count under target "*".
inline constexpr size_t kMaxOperationTargets = 256;

// One operation of a service: a syscall on a target (a path, "socket",
// "pipe", a destination "127.0.0.1:6379", "" when unread), counted.
struct OperationCount {
  std::string syscall;
  std::string target;
  uint64_t calls = 0;
};

// Per-service syscall counts for summaries (total, faulted, per syscall).
struct SyscallSummary {
  uint64_t total = 0;
  uint64_t faulted = 0;
  uint64_t allowed = 0;                      // not decidedByRule(): what the text report leaves out
  std::map<std::string, uint64_t> breakdown; // sorted by syscall name
};

class Trace {
public:
  Trace();

  void setServiceName(ServiceId id, std::string name);
  std::string serviceName(ServiceId id) const; // "test" for kNoService

  // Records `e` (its seq and timeNs are assigned here) and returns its seq
  // (0 when the trace is full and `e` was dropped).
  uint64_t record(TraceEvent e);
  uint64_t record(EventType type, ServiceId service,
                  std::vector<std::pair<std::string, std::string>> fields = {});
  uint64_t recordSyscall(ServiceId service, SyscallRecord s);
  // Counts one trapped syscall of `service` for syscallSummary(), whether
  // or not it is recorded as an event (fbc run logs only the syscalls a
  // rule decided, and counts every one: a log line per allowed write costs
  // more than the mediation itself).
  void countSyscall(ServiceId service, int nr, bool faulted, bool allowed);

  // The step API the body builtins use: "test" is the source, `target` the service.
  uint64_t stepSend(ServiceId target, std::vector<std::pair<std::string, std::string>> fields);
  uint64_t stepRecv(ServiceId target, std::vector<std::pair<std::string, std::string>> fields);

  std::vector<TraceEvent> events() const;
  // The events recorded after the first `index` (what a watcher has not
  // seen yet).
  std::vector<TraceEvent> eventsFrom(size_t index) const;
  size_t size() const;
  void clear(); // also restarts seq at 1 and the clock at 0
  std::map<std::string, SyscallSummary> syscallSummary() const;
  // fbc run --record-ops: one more call of `service` on `target`.
  void countOperation(ServiceId service, int nr, std::string target);
  // By service name, each service's operations sorted by syscall, target.
  std::map<std::string, std::vector<OperationCount>> operations() const;

private:
  mutable std::mutex mu_;
  int64_t startNs_;
  uint64_t nextSeq_ = 1;
  std::vector<TraceEvent> events_;
  uint64_t syscallEvents_ = 0;
  uint64_t dropped_ = 0;   // syscall events after the cap
  size_t truncatedAt_ = 0; // 1 + the index of the TraceTruncated notice, 0: none
  std::vector<std::string> names_;
  struct Counts {
    uint64_t total = 0, faulted = 0, allowed = 0;
  };
  // Per service (sized on first use): calls by (syscall number, target).
  std::vector<std::map<std::pair<int, std::string>, uint64_t>> operations_;
  // Per service, per syscall number (sized on first use).
  std::vector<std::vector<Counts>> counts_;
};

// A step's value as a trace field: its first n bytes (steps record what they
// sent and received; a large body must not grow the trace).
inline std::string clippedField(std::string s, size_t n) {
  if (s.size() > n)
    s.resize(n);
  return s;
}

} // namespace fbc::rt
