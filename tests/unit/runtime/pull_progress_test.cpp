// A pull's streamed lines folded into its figures, and the line that says
// them (runtime/containers/pull_progress.h).
#include "runtime/containers/pull_progress.h"

#include <gtest/gtest.h>

namespace fbc::rt::containers {
namespace {

TEST(PullProgress, LayersAndBytesAsTheEngineStreamsThem) {
  PullTracker t("redis:7-alpine");
  EXPECT_EQ(describePull(t.status(), false), "pulling redis:7-alpine: 0 of 0 layers");
  t.line(R"({"status":"Pulling from library/redis","id":""})"); // no layer
  t.line(R"({"status":"Already exists","progressDetail":{},"id":"aaa"})");
  t.line(R"({"status":"Pulling fs layer","progressDetail":{},"id":"bbb"})");
  t.line(
      R"({"status":"Downloading","progressDetail":{"current":1500000,"total":4000000},"id":"bbb"})");
  EXPECT_EQ(describePull(t.status(), false),
            "pulling redis:7-alpine: 1 of 2 layers, 1.5 of 4.0 MB");
  t.line("not json");
  t.line(R"({"status":"Pull complete","progressDetail":{},"id":"bbb"})");
  EXPECT_EQ(describePull(t.status(), false),
            "pulling redis:7-alpine: 2 of 2 layers, 4.0 of 4.0 MB");
  t.line(R"({"status":"Digest: sha256:0123"})");
  EXPECT_EQ(describePull(t.status(), true), "pulled redis:7-alpine (2 layers)");
  PullTracker one("x");
  one.line(R"({"status":"Already exists","id":"c"})");
  EXPECT_EQ(describePull(one.status(), true), "pulled x (1 layer)");
}

} // namespace
} // namespace fbc::rt::containers
