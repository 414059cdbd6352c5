#include "bundle/trace_cut.h"

#include <algorithm>
#include <string_view>

namespace fbc::bundle {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

std::string traceCutMessage(size_t keep, uint64_t limit) {
  return "trace cut to " + std::to_string(keep) + " syscall events to fit the bundle's limit of " +
         std::to_string(limit) + " bytes per entry";
}

bool isSyscall(element e) {
  std::string_view type;
  return !e["type"].get(type) && type == "syscall";
}

size_t syscallsOf(element test) {
  array events;
  if (test["events"].get(events))
    return 0;
  return size_t(std::count_if(events.begin(), events.end(), isSyscall));
}

// A test's events with at most `keep` syscall events; the first dropped one
// becomes the notice (its seq and time, on the test itself).
void writeEvents(ir::JsonWriter &w, array events, size_t keep, uint64_t limit) {
  size_t total = 0;
  for (element e : events)
    total += isSyscall(e);
  w.beginArray();
  size_t seen = 0;
  for (element e : events) {
    if (!isSyscall(e) || seen++ < keep) {
      rewriteJson(w, e);
      continue;
    }
    if (seen != keep + 1)
      continue;
    w.beginObject();
    uint64_t seq = 0;
    if (!e["seq"].get(seq))
      w.field("seq", seq);
    std::string_view time;
    if (!e["timestamp"].get(time))
      w.field("timestamp", time);
    w.field("type", "trace_truncated");
    w.field("event_type", "trace_truncated");
    w.field("service", "test");
    w.key("fields").beginObject();
    w.field("message", traceCutMessage(keep, limit));
    w.field("dropped", std::to_string(total - keep));
    w.endObject();
    w.endObject();
  }
  w.endArray();
}

void writeTest(ir::JsonWriter &w, element test, size_t keep, uint64_t limit) {
  object o;
  if (test.get(o))
    return rewriteJson(w, test);
  w.beginObject();
  for (auto kv : o) {
    w.key(kv.key);
    array events;
    if (kv.key == "events" && !kv.value.get(events))
      writeEvents(w, events, keep, limit);
    else
      rewriteJson(w, kv.value);
  }
  w.endObject();
}

std::string withAtMost(object root, size_t keep, uint64_t limit) {
  std::string out;
  ir::JsonWriter w(out, 2);
  w.beginObject();
  for (auto kv : root) {
    w.key(kv.key);
    array tests;
    if (kv.key != "tests" || kv.value.get(tests)) {
      rewriteJson(w, kv.value);
      continue;
    }
    w.beginArray();
    for (element t : tests)
      writeTest(w, t, keep, limit);
    w.endArray();
  }
  w.endObject();
  out += '\n';
  return out;
}

} // namespace

void rewriteJson(ir::JsonWriter &w, element e) {
  switch (e.type()) {
  case element_type::ARRAY:
    w.beginArray();
    for (element x : array(e))
      rewriteJson(w, x);
    w.endArray();
    break;
  case element_type::OBJECT:
    w.beginObject();
    for (auto kv : object(e)) {
      w.key(kv.key);
      rewriteJson(w, kv.value);
    }
    w.endObject();
    break;
  case element_type::INT64:
    w.value(e.get_int64().value_unsafe());
    break;
  case element_type::UINT64:
    w.value(e.get_uint64().value_unsafe());
    break;
  case element_type::DOUBLE:
    w.value(e.get_double().value_unsafe());
    break;
  case element_type::STRING:
    w.value(e.get_string().value_unsafe());
    break;
  case element_type::BOOL:
    w.value(e.get_bool().value_unsafe());
    break;
  case element_type::NULL_VALUE:
    w.null();
    break;
  }
}

std::string cutTraceJson(std::string json, uint64_t limit) {
  if (json.size() <= limit)
    return json;
  simdjson::dom::parser parser;
  object root;
  array tests;
  if (parser.parse(json).get(root) || root["tests"].get(tests))
    return json; // not a trace fbc wrote: nothing to cut by
  size_t most = 0;
  for (element t : tests)
    most = std::max(most, syscallsOf(t));
  for (size_t keep = most / 2;; keep /= 2) {
    std::string cut = withAtMost(root, keep, limit);
    if (cut.size() <= limit || keep == 0)
      return cut;
  }
}

} // namespace fbc::bundle
