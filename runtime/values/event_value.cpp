#include "runtime/values/event_value.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/printer.h"
#include "ir/quote.h"
#include "runtime/os/syscalls.h"

#include <fnmatch.h>

#include <optional>

namespace fbc::rt {

using star::Value;

const std::string *FlatEvent::field(std::string_view name) const {
  for (const auto &[k, v] : fields)
    if (k == name)
      return &v;
  return nullptr;
}

namespace {

// A syscall event's field `f` (one of events.def's Syscall fields), from its
// record; nullopt when the event leaves it out.
std::optional<std::string> syscallField(const SyscallRecord &s, EventField f) {
  switch (f) {
  case EventField::Syscall:
    return std::string(syscallName(s.nr));
  case EventField::Pid:
    return std::to_string(s.pid);
  case EventField::Decision:
    return s.systemPathExempt && !s.fired ? "allow (system path)" : describeAction(s.action);
  case EventField::Path:
    return s.path.empty() ? std::nullopt : std::optional(s.path);
  case EventField::Dest:
    return s.dest.empty() ? std::nullopt : std::optional(s.dest);
  case EventField::Label:
    return s.label.empty() ? std::nullopt : std::optional(s.label);
  case EventField::LatencyUs:
    return std::to_string(s.latencyNs / 1000);
  case EventField::Unanswered:
    return s.unanswered ? std::optional<std::string>("true") : std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace

FlatEvent flattenEvent(const TraceEvent &e, const std::vector<std::string> &names) {
  FlatEvent f;
  f.seq = e.seq;
  f.timeNs = e.timeNs;
  f.type = std::string(eventTypeName(e.type));
  f.service = e.service == kNoService    ? "test"
              : e.service < names.size() ? names[e.service]
                                         : "service#" + std::to_string(e.service);
  if (e.type == EventType::Syscall)
    for (EventField k : eventFields(EventType::Syscall))
      if (std::optional<std::string> v = syscallField(e.syscall, k))
        f.fields.emplace_back(std::string(fieldKey(k)), std::move(*v));
  for (const auto &kv : e.fields)
    f.fields.push_back(kv);
  f.eventType = std::string(eventDottedName(e.type));
  if (std::optional<EventField> suffix = eventSuffix(e.type))
    if (const std::string *v = f.field(fieldKey(*suffix)))
      f.eventType += "." + *v;
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
