// bundle/plan_drift: what `fbc replay` says when the replayed plan differs
// from the bundle's plan.json, and the plans it refuses to compare. The
// duplicate cases were found by tests/fuzz/drift_fuzz.cpp (a plan that
// named a test twice drifted from itself).
#include "bundle/plan_drift.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

const char *kPlan = R"({"tests": [
  {"name": "test_a", "instances": 3, "compositions": [
    {"kind": "choose", "axes": [{"name": "retries", "values": ["0", "1", "3"], "size": 3}]}]},
  {"name": "test_b", "instances": 1}]})";

std::vector<std::string> drift(std::string_view a, std::string_view b) {
  llvm::Expected<std::vector<std::string>> d = planDrift(a, b);
  EXPECT_TRUE(bool(d)) << llvm::toString(d.takeError());
  return d ? *d : std::vector<std::string>{"<error>"};
}

std::string error(std::string_view a, std::string_view b) {
  llvm::Expected<std::vector<std::string>> d = planDrift(a, b);
  return d ? "<no error>" : llvm::toString(d.takeError());
}

TEST(PlanDrift, APlanDoesNotDriftFromItself) {
  EXPECT_TRUE(drift(kPlan, kPlan).empty());
}

TEST(PlanDrift, ChangedTestsAreNamed) {
  std::string now = kPlan;
  now.replace(now.find("\"instances\": 3"), 14, "\"instances\": 2");
  now.replace(now.find(", \"3\"], \"size\": 3"), 17, "], \"size\": 2");
  EXPECT_EQ(drift(kPlan, now),
            (std::vector<std::string>{"plan drift: test_a had 3 instances, now 2 (choose axis "
                                      "\"retries\" lost 1 option)"}));
}

TEST(PlanDrift, SaturatedCountsSaySo) {
  std::string now = kPlan;
  now.replace(now.find("\"instances\": 3"), 14,
              "\"instances\": 9223372036854775807, \"estimated\": true, \"saturated\": true");
  EXPECT_EQ(drift(kPlan, now)[0],
            "plan drift: test_a had 3 instances, now at least 2^64 (saturated)");
}

TEST(PlanDrift, ATestNamedTwiceIsRefused) {
  const char *twice = R"({"tests": [{"name": "test_a", "instances": 1},
                                    {"name": "test_a", "instances": 2}]})";
  EXPECT_EQ(error(twice, kPlan), "the bundle's plan: test test_a appears twice");
  EXPECT_EQ(error(kPlan, twice), "the replayed plan: test test_a appears twice");
}

TEST(PlanDrift, AnAxisNamedTwiceIsRefused) {
  const char *twice = R"({"tests": [{"name": "test_a", "instances": 4, "compositions": [
    {"kind": "choose", "axes": [{"name": "r", "size": 2}, {"name": "r", "size": 2}]}]}]})";
  EXPECT_EQ(error(twice, kPlan),
            "the bundle's plan: test test_a: the choose axis \"r\" appears twice");
}

} // namespace
} // namespace fbc::bundle
