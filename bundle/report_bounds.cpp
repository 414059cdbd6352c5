#include "bundle/report_bounds.h"

#include <algorithm>

namespace fbc::bundle {

using simdjson::dom::element;
using simdjson::dom::element_type;

std::string ReportBudget::stringsWhat() const {
  return "strings cut to " + std::to_string(limits_.maxString) + " bytes";
}

std::string ReportBudget::itemsWhat() const {
  return "items not shown: the page's data reached its limit of " +
         std::to_string(limits_.maxData) + " bytes";
}

namespace {

// What the byte at s[i] costs on the page (the JSON escape, then the script
// element's), and what of that the script escaping adds. An invalid UTF-8
// byte becomes U+FFFD (3 bytes); a byte >= 0x80 is counted as that, an
// upper bound.
std::pair<unsigned, unsigned> pageCost(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == '<' || c == '>' || c == '&')
    return {6, 5};
  if (c == 0xE2 && i + 2 < s.size() && s[i + 1] == '\x80' &&
      (s[i + 2] == '\xA8' || s[i + 2] == '\xA9'))
    return {6, 3}; // the whole sequence; its other two bytes cost 0
  if (c == '"' || c == '\\')
    return {2, 0};
  if (c < 0x20)
    return {6, 0};
  return {c >= 0x80 ? 3 : 1, 0};
}

} // namespace

std::string ReportBudget::clip(std::string_view s, size_t cap, const std::string &what) {
  uint64_t left = room() ? limits_.maxData - size() : 0;
  size_t keep = 0;
  uint64_t cost = 0, added = 0;
  while (keep < s.size() && keep < cap) {
    auto [c, a] = pageCost(s, keep);
    size_t width = a == 3 ? 3 : 1;
    if (cost + c > left)
      break;
    cost += c;
    added += a;
    keep += width;
  }
  if (keep < s.size()) {
    cut(keep < std::min(s.size(), cap) ? itemsWhat() : what, 1);
    // Back to the start of a UTF-8 sequence: a cut never splits a character.
    while (keep > 0 && (static_cast<unsigned char>(s[keep]) & 0xC0) == 0x80)
      --keep;
  }
  escapes_ += added;
  if (keep == s.size())
    return std::string(s);
  return std::string(s.substr(0, keep)) + "\u2026 [fbc: cut, " + std::to_string(s.size()) +
         " bytes in all]";
}

void ReportBudget::cut(const std::string &what, uint64_t n) {
  if (n == 0)
    return;
  for (auto &[w, count] : cuts_)
    if (w == what) {
      count += n;
      return;
    }
  cuts_.emplace_back(what, n);
}

void ReportBudget::copy(ir::JsonWriter &w, element e, size_t depth) {
  if (depth >= limits_.maxDepth &&
      (e.type() == element_type::OBJECT || e.type() == element_type::ARRAY)) {
    cut("values nested deeper than " + std::to_string(limits_.maxDepth) + " levels not shown", 1);
    w.value("[fbc: cut, nested too deep]");
    return;
  }
  std::string items = "array and object members not shown (each shows its first " +
                      std::to_string(limits_.maxItems) + ")";
  switch (e.type()) {
  case element_type::OBJECT: {
    w.beginObject();
    size_t n = 0, total = 0;
    for (auto kv : simdjson::dom::object(e)) {
      ++total;
      if (n >= limits_.maxItems || !room())
        continue;
      ++n;
      w.key(clip(kv.key));
      copy(w, kv.value, depth + 1);
    }
    w.endObject();
    if (n < total)
      cut(n >= limits_.maxItems ? items : itemsWhat(), total - n);
    break;
  }
  case element_type::ARRAY: {
    w.beginArray();
    size_t n = 0, total = 0;
    for (element x : simdjson::dom::array(e)) {
      ++total;
      if (n >= limits_.maxItems || !room())
        continue;
      ++n;
      copy(w, x, depth + 1);
    }
    w.endArray();
    if (n < total)
      cut(n >= limits_.maxItems ? items : itemsWhat(), total - n);
    break;
  }
  case element_type::STRING:
    w.value(clip(std::string_view(e)));
    break;
  case element_type::INT64:
    w.value(int64_t(e));
    break;
  case element_type::UINT64:
    w.value(uint64_t(e));
    break;
  case element_type::DOUBLE:
    w.value(double(e));
    break;
  case element_type::BOOL:
    w.value(bool(e));
    break;
  case element_type::NULL_VALUE:
    w.null();
    break;
  }
}

std::vector<std::string> ReportBudget::notices() const {
  std::vector<std::string> out;
  for (const auto &[what, n] : cuts_)
    out.push_back(what + ": " + std::to_string(n));
  return out;
}

std::vector<simdjson::dom::element> keptEvents(const ReportLimits &limits,
                                               simdjson::dom::element t) {
  std::vector<simdjson::dom::element> events;
  simdjson::dom::element list;
  if (t.type() == simdjson::dom::element_type::OBJECT && !t["events"].get(list) &&
      list.type() == simdjson::dom::element_type::ARRAY)
    for (simdjson::dom::element e : simdjson::dom::array(list))
      if (events.size() < limits.maxItems)
        events.push_back(e);
  return events;
}

simdjson::dom::element eventFields(simdjson::dom::element e) {
  simdjson::dom::element f;
  return e.type() == simdjson::dom::element_type::OBJECT && !e["fields"].get(f) ? f : e;
}

std::string_view stringAt(simdjson::dom::element e, const char *key) {
  std::string_view v;
  if (e.type() == simdjson::dom::element_type::OBJECT && !e[key].get(v))
    return v;
  return "";
}

} // namespace fbc::bundle
