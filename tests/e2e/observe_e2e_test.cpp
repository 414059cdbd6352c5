// Log observation end to end (issue #15, docs/run.md "Log observation"): a
// real service (Python) logs JSON lines to stdout and logfmt lines to
// stderr; service(observe=[...]) makes them trace events, and the body's
// assert_eventually()/assert_never()/events() pass and fail on the right
// line. The whole text report is a golden (golden/observe.txt); the JSON
// trace is checked for the events' shape.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

namespace fbc::rt::e2e {
namespace {

TEST(Observe, LogLinesAreEventsTheAssertionsSee) {
  Spec spec("observe");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  // A line's event number depends on when fbc read the pipe relative to
  // the step's own events; everything else is exact.
  std::string report = normalize(r.out, spec);
  RE2::GlobalReplace(&report, R"(matching event #\d+)", "matching event #N");
  checkGolden(spec.name, report);
  // The failing assert_never names the error line it found.
  EXPECT_TRUE(RE2::PartialMatch(
      r.out, R"(assert_never: found matching event #\d+ \(service=app stdout=\{"level": )"
             R"("error", "msg": "payment declined", "order": 7\}\))"))
      << r.out;
}

TEST(Observe, JsonTraceHasTheDecodedFields) {
  Spec spec("observe");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "order_is_logged", "--format=json"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.err;
  // One stdout event per line, fields in the line's order, then "data".
  for (std::string stream : {"stdout", "stderr"})
    EXPECT_TRUE(RE2::PartialMatch(
        r.out,
        "\"type\": \"" + stream + "\",\\s*\"event_type\": \"" + stream + "\",\\s*" +
            R"re("service": "app",\s*"fields": \{\s*"level": "info",\s*"msg": "order created",\s*)re"
            R"re("order": "42",\s*"data": )re"))
        << stream << r.out;
}

} // namespace
} // namespace fbc::rt::e2e
