// The ordered event log of one test: every event gets the next sequence
// number and a CLOCK_MONOTONIC timestamp under one lock, so seq order is
// time order. Services are ids (names live in the Trace), so recording a
// syscall event does not allocate unless it carries a path or label longer
// than the small-string buffer.
#pragma once

#include "runtime/os/clock.h"
#include "runtime/rules/rules.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace fbc::ir {
class JsonWriter;
}

namespace fbc::rt {

enum class EventType : uint8_t {
  ServiceStarted,
  ServiceReady,
  ServiceStopped,
  Syscall,
  FaultApplied,
  FaultRemoved,
  StepSend,
  StepRecv,
  ResourceLimit,  // a service's cgroup limit refused something (fields: resource, limit, refused)
  TraceTruncated, // the trace reached kMaxTraceEvents; later events were dropped
  // A fault rule removed without ever matching (fields: syscall, action,
  // label?, path?, watched, passed_over, seen_paths?, seen_destinations?,
  // unresolved_paths?, fault?, hint, bypassed): recorded just before its
  // fault_removed. For a protocol rule: interface, protocol, rule, watched,
  // passed_over, seen_requests?, unframed_chunks?, hint, bypassed, just
  // before its proxy_fault_removed.
  FaultZeroTraffic,
  UnmediatedIo,      // I/O the rules cannot see (unmediated_io.h): category, syscall, pid, detail?
  Proxy,             // a proxy rule decided a request (runtime/proxy/proxy.h)
  ProxyFaultApplied, // fields: interface, protocol, rule
  ProxyFaultRemoved, // fields: interface, protocol, rule, matches, hits
  // A request an HTTP mock_service answered (runtime/mock/mock_http.h): interface,
  // method, path, route (the pattern; "default"; "none": 404), status,
  // body_size, req_size, error? (a dynamic handler's failure).
  Mock,
  // A line of an observed service stream (service(observe=[...]),
  // runtime/trace/log_observe.h): the decoder's fields, or "raw".
  Stdout,
  Stderr,
  // A client() call (runtime/body/client_call.cpp), its service being the
  // client: client, target, interface, protocol, operation, contract,
  // method, path, params, body?; then client_return (client, target,
  // operation, status_code, duration_ms, success, contract_ok, error?,
  // contract_error?, body? on non-2xx) and, for a violation validate=
  // found, contract_violation (client, target, operation, contract, detail).
  ClientCall,
  ClientReturn,
  ContractViolation,
  // fbc run --explore (runtime/explore/hold_window.h): a held call
  // released, on its service: call ("api/t1#2 sendto"), step, waiting (how
  // many calls were held then), quiet ("false": released after the
  // quiescence bound).
  Release,
};

// A test's trace keeps at most this many syscall events (a deny hit in a
// retry loop would otherwise grow it without bound); the next one becomes a
// TraceTruncated event, "trace truncated after 100000 events", and the rest
// are counted in its "dropped" field. Other events (lifecycle, faults,
// steps) are always kept, and syscall counts (syscallSummary) stay exact.
inline constexpr size_t kMaxTraceEvents = 100000;

// "service_started", "syscall", "step_recv", ...
std::string_view eventTypeName(EventType t);

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

struct TraceEvent {
  uint64_t seq = 0;
  int64_t timeNs = 0; // monotonic, relative to the trace's start
  EventType type = EventType::Syscall;
  ServiceId service = kNoService;                          // kNoService: the test itself ("test")
  SyscallRecord syscall;                                   // type == Syscall
  std::vector<std::pair<std::string, std::string>> fields; // everything else, in order

  // The value of field `key`, "" when the event has none.
  std::string field(std::string_view key) const {
    for (const auto &[k, v] : fields)
      if (k == key)
        return v;
    return "";
  }
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

  // {"events":[...]} with keys in a fixed order.
  std::string toJson(int indent = 0) const;
  // One event as a JSON object (into `w`).
  void writeEvent(ir::JsonWriter &w, const TraceEvent &e) const;

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
