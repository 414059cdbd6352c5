#include "runtime/trace/trace.h"

#include "ir/json_writer.h"
#include "runtime/os/syscalls.h"

#include <cstdint>

namespace fbc::rt {

std::string_view eventTypeName(EventType t) {
  switch (t) {
  case EventType::ServiceStarted:
    return "service_started";
  case EventType::ServiceReady:
    return "service_ready";
  case EventType::ServiceStopped:
    return "service_stopped";
  case EventType::Syscall:
    return "syscall";
  case EventType::FaultApplied:
    return "fault_applied";
  case EventType::FaultRemoved:
    return "fault_removed";
  case EventType::StepSend:
    return "step_send";
  case EventType::StepRecv:
    return "step_recv";
  case EventType::ResourceLimit:
    return "resource_limit";
  case EventType::TraceTruncated:
    return "trace_truncated";
  case EventType::FaultZeroTraffic:
    return "fault_zero_traffic";
  case EventType::UnmediatedIo:
    return "unmediated_io";
  case EventType::Proxy:
    return "proxy";
  case EventType::Stdout:
    return "stdout";
  case EventType::Stderr:
    return "stderr";
  case EventType::ProxyFaultApplied:
    return "proxy_fault_applied";
  case EventType::ProxyFaultRemoved:
    return "proxy_fault_removed";
  case EventType::Mock:
    return "mock";
  case EventType::ClientCall:
    return "client_call";
  case EventType::ClientReturn:
    return "client_return";
  case EventType::ContractViolation:
    return "contract_violation";
  case EventType::Release:
    return "release";
  }
  return "unknown";
}

Trace::Trace() : startNs_(monotonicNs()) {
  // Sized for a busy test so the syscall hot path rarely reallocates.
  events_.reserve(4096);
}

void Trace::setServiceName(ServiceId id, std::string name) {
  std::lock_guard lock(mu_);
  if (names_.size() <= id)
    names_.resize(id + 1);
  names_[id] = std::move(name);
}

std::string Trace::serviceName(ServiceId id) const {
  std::lock_guard lock(mu_);
  if (id == kNoService)
    return "test";
  return id < names_.size() ? names_[id] : "service#" + std::to_string(id);
}

uint64_t Trace::record(TraceEvent e) {
  std::lock_guard lock(mu_);
  if (e.type == EventType::Syscall && syscallEvents_ >= kMaxTraceEvents) {
    // Full: the first dropped event becomes the notice, later ones only
    // count (in the notice's "dropped" field).
    ++dropped_;
    if (truncatedAt_) {
      events_[truncatedAt_ - 1].fields.back().second = std::to_string(dropped_);
      return 0;
    }
    e = TraceEvent{};
    e.type = EventType::TraceTruncated;
    e.fields = {{"message", "trace truncated after " + std::to_string(kMaxTraceEvents) + " events"},
                {"dropped", std::to_string(dropped_)}};
    truncatedAt_ = events_.size() + 1;
  }
  syscallEvents_ += e.type == EventType::Syscall;
  e.seq = nextSeq_++;
  e.timeNs = monotonicNs() - startNs_;
  events_.push_back(std::move(e));
  return events_.back().seq;
}

uint64_t Trace::record(EventType type, ServiceId service,
                       std::vector<std::pair<std::string, std::string>> fields) {
  TraceEvent e;
  e.type = type;
  e.service = service;
  e.fields = std::move(fields);
  return record(std::move(e));
}

uint64_t Trace::recordSyscall(ServiceId service, SyscallRecord s) {
  TraceEvent e;
  e.type = EventType::Syscall;
  e.service = service;
  e.syscall = std::move(s);
  return record(std::move(e));
}

uint64_t Trace::stepSend(ServiceId target,
                         std::vector<std::pair<std::string, std::string>> fields) {
  fields.insert(fields.begin(), {"target", serviceName(target)});
  return record(EventType::StepSend, kNoService, std::move(fields));
}

uint64_t Trace::stepRecv(ServiceId target,
                         std::vector<std::pair<std::string, std::string>> fields) {
  fields.insert(fields.begin(), {"target", serviceName(target)});
  return record(EventType::StepRecv, kNoService, std::move(fields));
}

std::vector<TraceEvent> Trace::events() const {
  std::lock_guard lock(mu_);
  return events_;
}

std::vector<TraceEvent> Trace::eventsFrom(size_t index) const {
  std::lock_guard lock(mu_);
  if (index >= events_.size())
    return {};
  return {events_.begin() + static_cast<std::ptrdiff_t>(index), events_.end()};
}

size_t Trace::size() const {
  std::lock_guard lock(mu_);
  return events_.size();
}

void Trace::clear() {
  std::lock_guard lock(mu_);
  events_.clear();
  dropped_ = syscallEvents_ = truncatedAt_ = 0;
  counts_.clear();
  nextSeq_ = 1;
  startNs_ = monotonicNs();
}

void Trace::countSyscall(ServiceId service, int nr, bool faulted, bool allowed) {
  if (nr < 0 || nr >= kMaxSyscall || service == kNoService)
    return;
  std::lock_guard lock(mu_);
  if (counts_.size() <= service)
    counts_.resize(service + 1);
  std::vector<Counts> &c = counts_[service];
  if (c.empty())
    c.resize(kMaxSyscall);
  ++c[static_cast<size_t>(nr)].total;
  c[static_cast<size_t>(nr)].faulted += faulted;
  c[static_cast<size_t>(nr)].allowed += allowed;
}

std::map<std::string, SyscallSummary> Trace::syscallSummary() const {
  std::map<std::string, SyscallSummary> out;
  std::lock_guard lock(mu_);
  for (size_t svc = 0; svc < counts_.size(); ++svc)
    for (size_t nr = 0; nr < counts_[svc].size(); ++nr) {
      const Counts &c = counts_[svc][nr];
      if (!c.total)
        continue;
      SyscallSummary &s = out[svc < names_.size() ? names_[svc] : "service#" + std::to_string(svc)];
      s.total += c.total;
      s.faulted += c.faulted;
      s.allowed += c.allowed;
      s.breakdown[std::string(syscallName(static_cast<int>(nr)))] += c.total;
    }
  return out;
}

void Trace::writeEvent(ir::JsonWriter &w, const TraceEvent &e) const {
  w.beginObject();
  w.field("seq", e.seq);
  w.field("time_ns", e.timeNs);
  w.field("type", eventTypeName(e.type));
  w.field("service", serviceName(e.service));
  if (e.type == EventType::Syscall) {
    const SyscallRecord &s = e.syscall;
    w.field("syscall", syscallName(s.nr));
    w.field("pid", s.pid);
    std::string decision =
        s.systemPathExempt && !s.fired ? "allow (system path)" : describeAction(s.action);
    w.field("decision", decision);
    if (s.action.kind == ActionKind::Deny)
      w.field("errno", errnoLabel(s.action.err));
    if (!s.path.empty())
      w.field("path", s.path);
    if (!s.dest.empty())
      w.field("dest", s.dest);
    if (!s.label.empty())
      w.field("label", s.label);
    w.field("latency_ns", s.latencyNs);
    if (s.unanswered)
      w.field("unanswered", true);
  }
  if (!e.fields.empty()) {
    w.key("fields").beginObject();
    for (const auto &[k, v] : e.fields)
      w.field(k, v);
    w.endObject();
  }
  w.endObject();
}

std::string Trace::toJson(int indent) const {
  std::string out;
  ir::JsonWriter w(out, indent);
  w.beginObject().key("events").beginArray();
  for (const TraceEvent &e : events())
    writeEvent(w, e);
  w.endArray().endObject();
  out += '\n';
  return out;
}

} // namespace fbc::rt
