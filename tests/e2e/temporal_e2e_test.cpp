// Monitors and temporal properties end to end (issue #15, docs/run.md
// "Monitors and temporal properties"): a real service (Python) logs a JSON
// line per request; monitors run over those events and fail the test on the
// right one, eventually()/always() give pass / fail / inconclusive,
// terminate_when and an always() violation end the body early, test(assume=)
// halts the leaves it rules out, await_event()/await_stable() block the body.
// The text and JSON reports are goldens (golden/temporal.txt, .json).
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

namespace fbc::rt::e2e {
namespace {

// A trace event's number depends on when fbc read the service's pipe
// relative to the step's own events; everything else is exact.
std::string withoutSeqs(std::string s) {
  RE2::GlobalReplace(&s, R"(event seq=\d+)", "event seq=N");
  return s;
}

// The JSON report without its events arrays (their order is the pipe's, as
// above), which the checks below look at one by one.
std::string withoutEvents(const std::string &s) {
  std::string out;
  size_t at = 0;
  const std::string key = "\"events\": [";
  for (size_t k; (k = s.find(key, at)) != std::string::npos;) {
    out.append(s, at, k - at).append("\"events\": [...]");
    size_t i = k + key.size();
    int depth = 1;
    bool str = false;
    for (; i < s.size() && depth > 0; ++i) {
      char c = s[i];
      if (str) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          str = false;
      } else if (c == '"') {
        str = true;
      } else if (c == '[') {
        ++depth;
      } else if (c == ']') {
        --depth;
      }
    }
    at = i;
  }
  return out + s.substr(at);
}

// The seq a reason names: "... violated at event seq=12 ...".
uint64_t namedSeq(const std::string &out) {
  uint64_t seq = 0;
  EXPECT_TRUE(RE2::PartialMatch(out, R"(violated at event seq=(\d+))", &seq)) << out;
  return seq;
}

// The stdout event number `seq` of the JSON report, with field `key`=`value`.
bool eventHas(const std::string &json, uint64_t seq, const std::string &key,
              const std::string &value) {
  return RE2::PartialMatch(json, "\"seq\": " + std::to_string(seq) +
                                     R"(,\s*"timestamp": "[^"]*",\s*"type": "stdout",)"
                                     R"([^}]*"fields": \{[^}]*")" +
                                     key + "\": \"" + value + "\"");
}

TEST(Temporal, VerdictsOfEachTest) {
  Spec spec("temporal");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "\n10 passed, 7 failed, 3 errored, 3 inconclusive, 3 halted\n"))
      << r.out;
  checkGolden(spec.name, withoutSeqs(normalize(r.out, spec)));

  FbcRun j =
      runFbc({"run", spec.path, "--seed", "1", "--format=json", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(j.exit, 2) << j.err;
  checkGolden(spec.name, withoutSeqs(withoutEvents(normalizeJson(j.out, spec))), ".json");
}

TEST(Temporal, MonitorFailsOnTheDivergentEvent) {
  Spec spec("temporal");
  FbcRun j = runFbc({"run", spec.path, "--seed", "1", "--format=json", "--no-bundle", "--test",
                     "monitor_violated"},
                    spec.dir.path());
  EXPECT_EQ(j.exit, 2) << j.err;
  // The line that disagreed with count 1's first hash, not an earlier one.
  uint64_t seq = namedSeq(j.out);
  EXPECT_TRUE(eventHas(j.out, seq, "hash", "zz")) << j.out;
  EXPECT_TRUE(eventHas(j.out, seq, "count", "1")) << j.out;
}

TEST(Temporal, InlineMonitorSeesTheEventsAfterIt) {
  Spec spec("temporal");
  FbcRun j = runFbc(
      {"run", spec.path, "--seed", "1", "--format=json", "--no-bundle", "--test", "inline_monitor"},
      spec.dir.path());
  EXPECT_EQ(j.exit, 2) << j.err;
  // "pay 1" was logged before monitor() was called: the violation is "pay 2".
  uint64_t seq = namedSeq(j.out);
  EXPECT_TRUE(eventHas(j.out, seq, "order", "2")) << j.out;
}

TEST(Temporal, AlwaysViolationAndTerminateWhenEndTheBodyEarly) {
  Spec spec("temporal");
  for (const char *test : {"always_violated", "inline_always_violated", "terminated"}) {
    FbcRun j =
        runFbc({"run", spec.path, "--seed", "1", "--format=json", "--no-bundle", "--test", test},
               spec.dir.path());
    // Both bodies sleep 10s after their decisive event.
    int64_t ms = -1;
    EXPECT_TRUE(RE2::PartialMatch(j.out, R"("tests": \[\s*\{[^{]*"duration_ms": (\d+))", &ms))
        << j.out;
    EXPECT_GE(ms, 0) << test;
    EXPECT_LT(ms, 5000) << test << "\n" << j.out;
  }
}

} // namespace
} // namespace fbc::rt::e2e
