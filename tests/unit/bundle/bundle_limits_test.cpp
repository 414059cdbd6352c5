// The writer keeps a bundle within the limits its reader enforces
// (archive.h ReadLimits, issue #31): what is over them is cut when the
// bundle is written, and says so, instead of a bundle fbc cannot read back.
#include "bundle/run_bundle.h"
#include "bundle/trace_cut.h"
#include "runtime/report/report.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

namespace fbc::bundle {
namespace {

TEST(BundleLimits, ServiceOutputOverTheEntryLimitKeepsItsBeginningAndSaysSo) {
  std::string out;
  for (int i = 0; i < 100; ++i)
    out += "line " + std::to_string(100 + i) + "\n"; // 9 bytes a line
  EXPECT_EQ(capEntryText(out, out.size()), out);
  std::string cut = capEntryText(out, 300);
  EXPECT_LE(cut.size(), 300u);
  EXPECT_EQ(cut, out.substr(0, 207) +
                     "[fbc: 900 bytes in all; the rest is not kept: a bundle entry "
                     "holds at most 300 bytes]\n");
}

rt::TraceEvent syscallEvent(uint64_t seq) {
  rt::TraceEvent e;
  e.seq = seq;
  e.type = rt::EventType::Syscall;
  e.syscall.nr = 1;
  e.syscall.pid = 42;
  return e;
}

// Two tests of 1,000 syscall events each, on service "db".
rt::RunReport twoTestsOf1000Syscalls() {
  rt::RunReport r;
  r.starFile = "spec.star";
  r.serviceNames = {"db"};
  for (const char *name : {"test_a", "test_b"}) {
    rt::TestOutcome t;
    t.name = name;
    for (uint64_t i = 0; i < 1000; ++i)
      t.events.push_back(syscallEvent(i));
    r.tests.push_back(t);
  }
  return r;
}

TEST(BundleLimits, TraceOverTheLimitKeepsEachTestsFirstEventsAndSaysSo) {
  rt::RunReport r = twoTestsOf1000Syscalls();
  std::string whole = traceJsonWithin(r, UINT64_MAX);
  EXPECT_EQ(whole, rt::formatJsonReport(r));
  uint64_t limit = whole.size() / 3;
  std::string cut = traceJsonWithin(r, limit);
  EXPECT_LE(cut.size(), limit);
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_FALSE(parser.parse(cut).get(root)) << cut.substr(0, 500);
  for (simdjson::dom::element test : root["tests"].get_array()) {
    simdjson::dom::array events = test["events"].get_array();
    size_t n = events.size();
    ASSERT_GE(n, 2u);
    // The kept syscall events, then the notice with the count dropped.
    simdjson::dom::element last = events.at(n - 1);
    std::string_view type, message, dropped;
    ASSERT_FALSE(last["event_type"].get(type)) << simdjson::to_string(last);
    EXPECT_EQ(type, "trace_truncated");
    ASSERT_FALSE(last["fields"]["message"].get(message)) << simdjson::to_string(last);
    EXPECT_EQ(message, "trace cut to " + std::to_string(n - 1) +
                           " syscall events to fit the bundle's limit of " + std::to_string(limit) +
                           " bytes per entry");
    ASSERT_FALSE(last["fields"]["dropped"].get(dropped)) << simdjson::to_string(last);
    EXPECT_EQ(dropped, std::to_string(1000 - (n - 1)));
  }
}

// cutTraceJson (the one cut fbc run's and fbc merge's traces go through,
// issue #31: two readable shards merged into a bundle the reader refused):
// a trace within the limit comes back byte for byte, and a document that
// is no trace is not cut (nothing to cut by); the cut itself is the test
// above.
TEST(BundleLimits, ATraceWithinTheLimitOrNoTraceIsLeftAsItIs) {
  std::string whole = rt::formatJsonReport(twoTestsOf1000Syscalls());
  EXPECT_EQ(cutTraceJson(whole, whole.size()), whole);
  std::string other = "{\"version\": 2, \"rows\": [" + std::string(100, ' ') + "]}";
  EXPECT_EQ(cutTraceJson(other, 10), other);
}

} // namespace
} // namespace fbc::bundle
