#include "bundle/report_schedule.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>
#include <tuple>

namespace fbc::bundle {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// "counter/t1" of "counter/t1#2 pwrite64" (schedule.h's threadOf); the
// whole name when it has no '#'.
std::string laneOf(std::string_view call) {
  return std::string(call.substr(0, call.find('#')));
}

// The service part of a lane ("counter" of "counter/t1"), and its kind
// (0 a thread "t1", 1 a proxied connection "c0", 2 another shape) and
// ordinal; lanes of one kind and ordinal sort by their text.
struct LaneKey {
  std::string service;
  int kind = 2;
  uint64_t ordinal = 0;
};

LaneKey laneKey(const std::string &lane) {
  LaneKey k;
  size_t slash = lane.rfind('/');
  k.service = lane.substr(0, slash == std::string::npos ? lane.size() : slash);
  if (slash != std::string::npos) {
    std::string_view tail = std::string_view(lane).substr(slash + 1);
    if (tail.size() >= 2 &&
        std::all_of(tail.begin() + 1, tail.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      k.kind = tail[0] == 't' ? 0 : tail[0] == 'c' ? 1 : 2;
      k.ordinal = std::strtoull(std::string(tail.substr(1)).c_str(), nullptr, 10);
    }
  }
  return k;
}

} // namespace

std::vector<std::string> scheduleLanes(const std::vector<std::string> &calls) {
  std::map<std::string, size_t> serviceAt; // service -> index of its first call
  std::vector<std::string> lanes;
  for (const std::string &c : calls) {
    std::string lane = laneOf(c);
    serviceAt.emplace(laneKey(lane).service, serviceAt.size());
    if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end())
      lanes.push_back(lane);
  }
  std::stable_sort(lanes.begin(), lanes.end(), [&](const std::string &a, const std::string &b) {
    LaneKey x = laneKey(a), y = laneKey(b);
    return std::tuple(serviceAt[x.service], x.kind, x.ordinal, std::string_view(a)) <
           std::tuple(serviceAt[y.service], y.kind, y.ordinal, std::string_view(b));
  });
  return lanes;
}

void writeSchedule(ReportBudget &b, ir::JsonWriter &w, element t) {
  std::vector<element> events = keptEvents(b.limits(), t);
  std::vector<size_t> at; // indices of the release events
  std::vector<std::string> calls;
  for (size_t i = 0; i < events.size(); ++i)
    if (stringAt(events[i], "type") == "release") {
      at.push_back(i);
      calls.push_back(b.clip(stringAt(eventFields(events[i]), "call")));
    }
  element cov;
  bool covered = t.type() == element_type::OBJECT && !t["explore_coverage"].get(cov) &&
                 cov.type() == element_type::OBJECT;
  if (at.empty() && !covered) {
    w.key("schedule").null();
    return;
  }
  std::vector<std::string> lanes = scheduleLanes(calls);
  w.key("schedule").beginObject();
  w.key("lanes").beginArray();
  for (const std::string &l : lanes)
    w.value(l);
  w.endArray();
  w.key("releases").beginArray();
  for (size_t k = 0; k < at.size(); ++k) {
    if (!b.room()) {
      b.cutItems(at.size() - k);
      break;
    }
    element f = eventFields(events[at[k]]);
    w.beginObject();
    w.field("n", int64_t(k + 1));
    w.field("lane",
            int64_t(std::find(lanes.begin(), lanes.end(), laneOf(calls[k])) - lanes.begin()));
    w.field("call", calls[k]);
    w.field("event", int64_t(at[k]));
    w.field("waiting",
            int64_t(std::strtoll(std::string(stringAt(f, "waiting")).c_str(), nullptr, 10)));
    w.field("quiet", stringAt(f, "quiet") != "false");
    w.endObject();
  }
  w.endArray();
  w.field("coverage", covered ? b.clip(stringAt(cov, "statement")) : "");
  w.field("not_covered", covered ? b.clip(stringAt(cov, "not_covered")) : "");
  w.endObject();
}

} // namespace fbc::bundle
