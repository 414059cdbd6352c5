// bundle/diff: the --normalize rule on event lines and fields, which rows
// diffRows reports, and how each kind of row is printed.
#include "bundle/diff.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

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
  for (const char *k : {"pid", "latency_us", "duration_ms"})
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

// Every kind of changed row in both formats (the e2e goldens have an outcome
// change only): a trace change under the same outcome, a trace that ended
// early, a row in one bundle only.
TEST(DiffRows, TextAndJsonOfEveryKindOfRow) {
  std::vector<DiffRow> a = {
      {"t1", "passed", {"e1", "e2"}}, {"t2", "passed", {"e1"}}, {"t3", "failed", {}}};
  std::vector<DiffRow> b = {
      {"t1", "passed", {"e1", "e9"}}, {"t2", "failed", {"e1", "e3"}}, {"t4", "passed", {}}};
  BundleDiff d = diffRows(a, b);
  std::string text, json;
  llvm::raw_string_ostream textOs(text), jsonOs(json);
  emitDiffText(d, "a.fb", "b.fb", textOs);
  emitDiffJson(d, "a.fb", "b.fb", jsonOs);
  EXPECT_EQ(text, "--- a.fb (3 rows)\n"
                  "+++ b.fb (3 rows)\n"
                  "t1: passed (same outcome, the trace differs)\n"
                  "  first divergence at event 2:\n"
                  "  - e2\n"
                  "  + e9\n"
                  "t2: passed -> failed\n"
                  "  first divergence at event 2:\n"
                  "  - (trace ended)\n"
                  "  + e3\n"
                  "t3: only in A (failed)\n"
                  "t4: only in B (passed)\n"
                  "4 rows differ\n");
  EXPECT_EQ(json, R"({
  "a": "a.fb",
  "b": "b.fb",
  "rows_a": 3,
  "rows_b": 3,
  "equal": false,
  "changed": [
    {
      "row": "t1",
      "outcome_a": "passed",
      "outcome_b": "passed",
      "outcome_changed": false,
      "divergence": {
        "event": 2,
        "a": "e2",
        "b": "e9"
      }
    },
    {
      "row": "t2",
      "outcome_a": "passed",
      "outcome_b": "failed",
      "outcome_changed": true,
      "divergence": {
        "event": 2,
        "a": "",
        "b": "e3"
      }
    },
    {
      "row": "t3",
      "outcome_a": "failed",
      "outcome_b": null,
      "outcome_changed": true
    },
    {
      "row": "t4",
      "outcome_a": null,
      "outcome_b": "passed",
      "outcome_changed": true
    }
  ]
}
)");
}

} // namespace
} // namespace fbc::bundle
