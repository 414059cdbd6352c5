// bundle/report_schedule: an explored leaf's schedule as the report page
// lays it out, read from the trace entry's release events. The page in a
// real browser: tests/browser/ (case `schedule`).
#include "bundle/report_schedule.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

std::string scheduleOf(const char *entry) {
  simdjson::dom::parser p;
  simdjson::dom::element e = p.parse(std::string(entry));
  std::string out;
  ReportLimits limits;
  ReportBudget b(out, limits);
  ir::JsonWriter w(out);
  w.beginObject();
  writeSchedule(b, w, e);
  w.endObject();
  return out;
}

TEST(ReportSchedule, LanesByServiceOfFirstReleaseThenOrdinal) {
  EXPECT_EQ(scheduleLanes({"app/t10#0 write", "app/t2#0 write", "cache/c1#0 GET", "cache/c0#0 GET",
                           "app/c0#0 GET", "app/t2#1 read"}),
            (std::vector<std::string>{"app/t2", "app/t10", "app/c0", "cache/c0", "cache/c1"}));
  EXPECT_EQ(scheduleLanes({"b/t0#0 read", "a/t0#0 read"}),
            (std::vector<std::string>{"b/t0", "a/t0"}));
  EXPECT_EQ(scheduleLanes({}), std::vector<std::string>{});
}

TEST(ReportSchedule, ReleasesNumberedInOrderOnTheirLanesWithTheCoverage) {
  EXPECT_EQ(scheduleOf(R"J({"name": "t", "events": [
        {"seq": 1, "type": "service_started", "service": "counter"},
        {"seq": 2, "type": "release", "service": "counter",
         "fields": {"call": "counter/t1#0 recvfrom", "step": "0", "waiting": "2", "quiet": "true"}},
        {"seq": 3, "type": "syscall", "service": "counter", "fields": {"syscall": "recvfrom"}},
        {"seq": 4, "type": "release", "service": "cache",
         "fields": {"call": "cache/c0#0 GET", "step": "1", "waiting": "1", "quiet": "false"}}],
       "explore_coverage": {"statement": "explored 1 class", "not_covered": "inside"}})J"),
            R"({"schedule":{"lanes":["counter/t1","cache/c0"],"releases":[)"
            R"({"n":1,"lane":0,"call":"counter/t1#0 recvfrom","event":1,"waiting":2,"quiet":true},)"
            R"({"n":2,"lane":1,"call":"cache/c0#0 GET","event":3,"waiting":1,"quiet":false}],)"
            R"("coverage":"explored 1 class","not_covered":"inside"}})");
  // Not explored: no schedule.
  EXPECT_EQ(scheduleOf(R"J({"name": "t", "events": [{"seq": 1, "type": "syscall"}]})J"),
            R"({"schedule":null})");
}

} // namespace
} // namespace fbc::bundle
