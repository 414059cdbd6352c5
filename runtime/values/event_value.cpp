#include "runtime/values/event_value.h"

#include "frontend/eval/printer.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/json.h"
#include "ir/quote.h"
#include "runtime/os/syscalls.h"

#include <fnmatch.h>

namespace fbc::rt {

using star::Value;

const std::string *FlatEvent::field(std::string_view name) const {
  for (const auto &[k, v] : fields)
    if (k == name)
      return &v;
  return nullptr;
}

FlatEvent flattenEvent(const TraceEvent &e, const std::vector<std::string> &names) {
  FlatEvent f;
  f.seq = e.seq;
  f.timeNs = e.timeNs;
  f.type = std::string(eventTypeName(e.type));
  f.service = e.service == kNoService    ? "test"
              : e.service < names.size() ? names[e.service]
                                         : "service#" + std::to_string(e.service);
  switch (e.type) {
  case EventType::ServiceStarted:
    f.eventType = "lifecycle.started";
    break;
  case EventType::ServiceReady:
    f.eventType = "lifecycle.ready";
    break;
  case EventType::ServiceStopped:
    f.eventType = "lifecycle.stopped";
    break;
  case EventType::Syscall:
    f.eventType = "syscall." + std::string(syscallName(e.syscall.nr));
    break;
  default:
    f.eventType = f.type;
    break;
  }
  if (e.type == EventType::Syscall) {
    const SyscallRecord &s = e.syscall;
    f.fields.emplace_back("syscall", std::string(syscallName(s.nr)));
    f.fields.emplace_back("pid", std::to_string(s.pid));
    f.fields.emplace_back("decision", s.systemPathExempt && !s.fired ? "allow (system path)"
                                                                     : describeAction(s.action));
    if (!s.path.empty())
      f.fields.emplace_back("path", s.path);
    if (!s.dest.empty())
      f.fields.emplace_back("dest", s.dest);
    if (!s.label.empty())
      f.fields.emplace_back("label", s.label);
    f.fields.emplace_back("latency_us", std::to_string(s.latencyNs / 1000));
    if (s.unanswered)
      f.fields.emplace_back("unanswered", "true");
  }
  for (const auto &kv : e.fields)
    f.fields.push_back(kv);
  if (e.type == EventType::StepSend || e.type == EventType::StepRecv)
    if (const std::string *target = f.field("target"))
      f.eventType += "." + *target;
  // The reference's dotted name: unmediated_io.getrandom, unmediated_io.connect.
  if (e.type == EventType::UnmediatedIo)
    if (const std::string *syscall = f.field("syscall"))
      f.eventType += "." + *syscall;
  return f;
}

bool matchPattern(const std::string &pattern, const std::string &value) {
  if (pattern.find_first_of("*?[") != std::string::npos)
    return fnmatch(pattern.c_str(), value.c_str(), 0) == 0;
  return pattern == value;
}

bool matchesFilters(const FlatEvent &f, const Filters &filters, Criteria kind) {
  for (const auto &[k, v] : filters) {
    if (kind == Criteria::Matcher && v.empty())
      continue;
    bool ok;
    if (k == "type")
      ok = matchPattern(v, f.type) || matchPattern(v, f.eventType);
    else if (k == "service")
      ok = matchPattern(v, f.service);
    else if (const std::string *fv = f.field(k))
      ok = matchPattern(v, *fv);
    else
      ok = kind == Criteria::Matcher && matchPattern(v, "");
    if (!ok)
      return false;
  }
  return true;
}

void EventValue::repr(star::Printer &p) const {
  p.write("<event #" + std::to_string(ev.seq) + " " + ev.eventType + " " + ev.service + ">");
}

Value EventValue::attr(star::Thread &t, std::string_view name) {
  if (name == "seq")
    return Value::small(static_cast<int64_t>(ev.seq));
  if (name == "type")
    return star::makeString(t.heap, ev.type);
  if (name == "event_type")
    return star::makeString(t.heap, ev.eventType);
  if (name == "service")
    return star::makeString(t.heap, ev.service);
  if (name == "fields") {
    auto *d = t.heap.make<star::Dict>();
    for (const auto &[k, v] : ev.fields)
      d->table.set(t, star::makeString(t.heap, k), star::makeString(t.heap, v));
    return Value::object(d);
  }
  if (name == "data") {
    // As the reference: the "data" field JSON-decoded (an observed log
    // line's, runtime/trace/log_observe.h), else a dict of every field.
    if (const std::string *d = ev.field("data")) {
      try {
        return star::decodeJson(t, *d);
      } catch (const star::EvalError &) {
        return star::makeString(t.heap, *d);
      }
    }
    auto *dict = t.heap.make<star::Dict>();
    for (const auto &[k, v] : ev.fields)
      dict->table.set(t, star::makeString(t.heap, k), star::makeString(t.heap, v));
    return Value::object(dict);
  }
  const std::string *f = ev.field(name);
  if (!f && strict)
    t.fail("event has no attribute " + ir::quote(name));
  return star::makeString(t.heap, f ? *f : "");
}

void EventValue::attrNames(std::vector<std::string> &out) const {
  out.insert(out.end(), {"data", "event_type", "fields", "seq", "service", "type"});
  for (const auto &[k, v] : ev.fields)
    out.push_back(k);
}

} // namespace fbc::rt
