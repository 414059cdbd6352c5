// bundle/diff: the --normalize rule on event lines and fields, and which
// rows diffRows reports.
#include "bundle/diff.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

TEST(DiffNormalize, MasksPortsAndTemporaryNames) {
  EXPECT_EQ(normalizeEventLine(R"(test step_send.kv target="127.0.0.1:41234" data="SET a 1")"),
            R"(test step_send.kv target="127.0.0.1:PORT" data="SET a 1")");
  EXPECT_EQ(normalizeEventLine(R"(kv syscall path="/tmp/fbc-abc123/kv.wal")"),
            R"(kv syscall path="/tmp/TMP/kv.wal")");
  EXPECT_EQ(normalizeEventLine("x fbc-scratch-9f2a bundle=run-20261206T101500Z-1.fb"),
            "x fbc-scratch-X bundle=run-X.fb");
  // One digit after a colon is not a port; "run-" before a non-digit stays.
  EXPECT_EQ(normalizeEventLine("a:1 b:123456 dry-run-x"), "a:1 b:123456 dry-run-x");
}

TEST(DiffNormalize, VolatileFieldsArePidsAndMeasuredTimes) {
  for (const char *k : {"pid", "ppid", "latency_us", "duration_ms", "elapsed_ms"})
    EXPECT_TRUE(volatileField(k)) << k;
  for (const char *k : {"syscall", "decision", "path", "errno", "hits", "status_code"})
    EXPECT_FALSE(volatileField(k)) << k;
}

TEST(DiffRows, OutcomeOrTraceChangesAndMissingRows) {
  std::vector<DiffRow> a = {
      {"t1", "passed", {"e1", "e2"}}, {"t2", "passed", {"e1"}}, {"t3", "failed", {}}};
  std::vector<DiffRow> b = {
      {"t1", "passed", {"e1", "e2"}}, {"t2", "failed", {"e1", "e3"}}, {"t4", "passed", {}}};
  BundleDiff d = diffRows(a, b);
  ASSERT_EQ(d.changed.size(), 3u);
  EXPECT_EQ(d.changed[0].key, "t2");
  EXPECT_EQ(d.changed[0].divergence, 1u);
  EXPECT_EQ(d.changed[0].eventA, "");
  EXPECT_EQ(d.changed[0].eventB, "e3");
  EXPECT_EQ(d.changed[1].key, "t3");
  EXPECT_EQ(d.changed[1].outcomeB, "");
  EXPECT_EQ(d.changed[2].key, "t4");
  EXPECT_EQ(d.changed[2].outcomeA, "");
  EXPECT_TRUE(diffRows(a, a).equal());
}

} // namespace
} // namespace fbc::bundle
