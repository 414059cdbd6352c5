#include "bundle/report_cause.h"

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::bundle {
namespace {

using simdjson::dom::element;

uint64_t count(element f, const char *key) {
  return std::strtoull(std::string(stringAt(f, key)).c_str(), nullptr, 10);
}

// How a rule reads in the cause: a syscall rule "fsync=deny(input/output
// error)" (and its label), a protocol rule as written, on its interface.
std::string ruleText(std::string_view type, element f) {
  if (type == "proxy_fault_removed")
    return std::string(stringAt(f, "interface")) + ": " + std::string(stringAt(f, "rule"));
  std::string out = std::string(stringAt(f, "syscall")) + "=" + std::string(stringAt(f, "action"));
  if (std::string_view label = stringAt(f, "label"); !label.empty())
    out += " label=" + std::string(label);
  return out;
}

} // namespace

void writeCause(ReportBudget &b, ir::JsonWriter &w, element t) {
  std::vector<element> events = keptEvents(b.limits(), t);
  w.key("cause").beginObject();
  w.key("deaths").beginArray();
  for (element e : events) {
    element f = eventFields(e);
    if (stringAt(e, "type") != "service_stopped" || stringAt(f, "unexpected") != "true" ||
        !b.room())
      continue;
    w.beginObject();
    w.field("service", b.clip(stringAt(e, "service")));
    w.field("exit", b.clip(stringAt(f, "exit")));
    w.field("stdout", b.clip(stringAt(f, "stdout")));
    w.field("stderr", b.clip(stringAt(f, "stderr")));
    w.endObject();
  }
  w.endArray();
  w.key("rules").beginArray();
  // A fault_zero_traffic event comes just before its rule's removal.
  std::string_view hint;
  for (element e : events) {
    std::string_view type = stringAt(e, "type");
    element f = eventFields(e);
    if (type == "fault_zero_traffic") {
      hint = stringAt(f, "hint");
      continue;
    }
    if ((type != "fault_removed" && type != "proxy_fault_removed") || !b.room())
      continue;
    w.beginObject();
    w.field("service", b.clip(stringAt(e, "service")));
    w.field("rule", b.clip(ruleText(type, f)));
    w.field("matches", count(f, "matches"));
    w.field("hits", count(f, "hits"));
    w.field("hint", b.clip(hint));
    w.endObject();
    hint = {};
  }
  w.endArray();
  w.endObject();
}

} // namespace fbc::bundle
