#include "runtime/trace/trace.h"

#include "runtime/os/syscalls.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <tuple>

namespace fbc::rt {

uint64_t TraceEvent::count(EventField f) const {
  return std::strtoull(field(fieldKey(f)).c_str(), nullptr, 10);
}

bool TraceEvent::fieldsDeclared() const {
  return std::all_of(fields.begin(), fields.end(),
                     [&](const auto &kv) { return eventHasField(type, kv.first); });
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
  // A field events.def does not declare for the kind is a bug of the
  // recorder (the debug and sanitizer builds' tests catch it).
  assert(e.fieldsDeclared());
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
  operations_.clear();
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

void Trace::countOperation(ServiceId service, int nr, std::string target) {
  if (nr < 0 || nr >= kMaxSyscall || service == kNoService)
    return;
  std::lock_guard lock(mu_);
  if (operations_.size() <= service)
    operations_.resize(service + 1);
  auto &ops = operations_[service];
  // One key, built once: this runs on every trapped call.
  std::pair<int, std::string> key{nr, std::move(target)};
  auto it = ops.find(key);
  if (it == ops.end() && ops.size() >= kMaxOperationTargets)
    it = ops.try_emplace({nr, "*"}, 0).first;
  else if (it == ops.end())
    it = ops.try_emplace(std::move(key), 0).first;
  ++it->second;
}

std::map<std::string, std::vector<OperationCount>> Trace::operations() const {
  std::map<std::string, std::vector<OperationCount>> out;
  std::lock_guard lock(mu_);
  for (size_t svc = 0; svc < operations_.size(); ++svc) {
    if (operations_[svc].empty())
      continue;
    std::vector<OperationCount> &list =
        out[svc < names_.size() ? names_[svc] : "service#" + std::to_string(svc)];
    for (const auto &[key, calls] : operations_[svc])
      list.push_back({std::string(syscallName(key.first)), key.second, calls});
    std::sort(list.begin(), list.end(), [](const OperationCount &a, const OperationCount &b) {
      return std::tie(a.syscall, a.target) < std::tie(b.syscall, b.target);
    });
  }
  return out;
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

} // namespace fbc::rt
