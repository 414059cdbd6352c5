// The shard assignment (backend/shard.h) over every golden spec and
// example: for N = 1..5 the N selections cover every leaf of the leaf
// program exactly once (a test with an axis of unknown size as one whole
// unit), the same split is computed twice alike, and the greedy balance
// keeps every shard within one unit of the lightest. The e2e counterpart
// runs the shards (tests/e2e/shard_e2e_test.cpp).
#include "backend/leaf_lower.h"
#include "backend/shard.h"
#include "frontend/eval/big_stack.h"
#include "ir/load/load_spec.h"
#include "passes/pass_manager.h"
#include "tests/unit/passes/golden_specs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fbc {
namespace {

using testing::goldenSpecs;

TEST(Shards, EveryLeafExactlyOnceForOneToFiveShards) {
  size_t checked = 0, split = 0;
  for (const std::string &path : goldenSpecs()) {
    star::runWithLargeStack([&] {
      std::unique_ptr<ir::LoadedSpec> spec = ir::loadSpec(path);
      if (!spec->ok())
        return 0;
      ir::Plan plan = passes::buildPlan(spec->spec(), false);
      ir::LeafProgram leaves = backend::lowerToLeaves(plan);
      if (leaves.total.value > 5000)
        return 0;
      ++checked;
      for (uint32_t n = 1; n <= 5; ++n) {
        backend::ShardPlan s, again;
        std::string error;
        EXPECT_TRUE(backend::assignShards(leaves, n, nullptr, {}, s, error)) << path << error;
        EXPECT_TRUE(backend::assignShards(leaves, n, nullptr, {}, again, error));
        // Counts per leaf over the N selections: each exactly 1.
        std::vector<std::vector<int>> seen(leaves.tests.size());
        std::vector<int> wholeSeen(leaves.tests.size(), 0);
        for (size_t i = 0; i < leaves.tests.size(); ++i)
          seen[i].assign(leaves.tests[i].count.value, 0);
        for (uint32_t k = 0; k < n; ++k) {
          backend::LeafSelection sel = backend::selectShard(s, leaves.tests.size(), k);
          backend::LeafSelection same = backend::selectShard(again, leaves.tests.size(), k);
          for (size_t i = 0; i < leaves.tests.size(); ++i) {
            EXPECT_EQ(sel.tests[i].all, same.tests[i].all) << path;
            EXPECT_EQ(sel.tests[i].leaves, same.tests[i].leaves) << path;
            EXPECT_TRUE(std::is_sorted(sel.tests[i].leaves.begin(), sel.tests[i].leaves.end()));
            if (sel.tests[i].all)
              ++wholeSeen[i];
            for (uint64_t l : sel.tests[i].leaves)
              ++seen[i].at(l);
          }
        }
        for (size_t i = 0; i < leaves.tests.size(); ++i) {
          const ir::LeafTest &t = leaves.tests[i];
          if (!t.count.exact) {
            EXPECT_EQ(wholeSeen[i], 1) << path << " " << t.test->name << " N=" << n;
            continue;
          }
          EXPECT_EQ(wholeSeen[i], 0) << path << " " << t.test->name;
          for (uint64_t l = 0; l < t.count.value; ++l)
            EXPECT_EQ(seen[i][l], 1) << path << " " << t.test->name << " leaf " << l << " N=" << n;
        }
        // Greedy balance: no shard exceeds the lightest by more than the
        // costliest unit.
        int64_t maxUnit = 0;
        for (const backend::ShardUnit &u : s.units)
          maxUnit = std::max(maxUnit, u.costMs);
        auto [lo, hi] = std::minmax_element(s.costMs.begin(), s.costMs.end());
        EXPECT_LE(*hi - *lo, maxUnit) << path << " N=" << n;
        if (n > 1 && s.units.size() >= n)
          ++split;
      }
      return 0;
    });
  }
  EXPECT_GE(checked, 30u);
  EXPECT_GE(split, 40u);
}

TEST(Shards, MeasuredDurationsMoveTheSplit) {
  star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> spec =
        ir::loadSpec(std::string(FBC_EXAMPLES_DIR) + "/checkout.star");
    EXPECT_TRUE(spec->ok());
    ir::Plan plan = passes::buildPlan(spec->spec(), false);
    ir::LeafProgram leaves = backend::lowerToLeaves(plan);
    // Leaf 0 of the flaky-db test measured at 10 s: alone on its shard.
    backend::MeasuredDurations m;
    m.rows["test_order_retries_through_flaky_db"]["0"] = 10000;
    backend::ShardPlan s;
    std::string error;
    EXPECT_TRUE(backend::assignShards(leaves, 2, &m, {}, s, error));
    uint32_t heavy = 2;
    for (const backend::ShardUnit &u : s.units)
      if (u.measured) {
        EXPECT_EQ(u.costMs, 10000);
        heavy = u.shard;
      }
    EXPECT_EQ(heavy, 0u);
    EXPECT_EQ(s.unitCount[0], 1u);
    EXPECT_EQ(s.unitCount[1], s.units.size() - 1);
    return 0;
  });
}

TEST(Shards, EstimateAddsDeclaredDelaysUpToTheTimeout) {
  star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> spec =
        ir::loadSpec(std::string(FBC_EXAMPLES_DIR) + "/checkout.star");
    EXPECT_TRUE(spec->ok());
    const ir::Spec &s = spec->spec();
    // disk_full: fsync=delay("800ms", max_fires=2) → 50 + 2 × 800.
    EXPECT_EQ(backend::estimateLeafMs(*s.findTest("test_order_when_disk_full"), s), 1650);
    EXPECT_EQ(backend::estimateLeafMs(*s.findTest("test_order_retries_through_flaky_db"), s), 50);
    return 0;
  });
}

// With the services' measured start: each one the leaf starts adds its
// cost, a reused one (started once per run) and one not measured add none.
TEST(Shards, EstimateAddsTheServicesMeasuredStart) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "fbc-shard-start";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "spec.star")
      << "db = service(\"db\", \"/bin/db\", interface(\"main\", \"tcp\", 5432))\n"
         "cache = service(\"cache\", \"/bin/cache\", interface(\"main\", \"tcp\", 6379), "
         "reuse = True)\n"
         "api = service(\"api\", \"/bin/api\", interface(\"main\", \"http\", 8080))\n"
         "def test_x():\n"
         "    sleep(\"30ms\")\n";
  star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> spec = ir::loadSpec((dir / "spec.star").string());
    EXPECT_TRUE(spec->ok());
    const ir::Spec &s = spec->spec();
    backend::ServiceStartMs start{{"db", 1200}, {"cache", 900}};
    EXPECT_EQ(backend::serviceStartMs(s, start), 1200);
    EXPECT_EQ(backend::estimateLeafMs(*s.findTest("test_x"), s, &start), 50 + 30 + 1200);
    EXPECT_EQ(backend::estimateLeafMs(*s.findTest("test_x"), s), 50 + 30);
    return 0;
  });
  std::filesystem::remove_all(dir);
}

// Every delay form counts: a protocol rule's delay(delay=) in an assumption
// (times max_fires) and in a body, next to the syscall form and sleep().
TEST(Shards, EstimateCountsEveryDelayForm) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "fbc-shard-delays";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "spec.star")
      << "api = service(\"api\", \"/bin/api\", interface(\"main\", \"http\", 8080))\n"
         "slow = fault_assumption(\"slow\", target = api.main,\n"
         "    rules = [delay(path = \"/x\", delay = \"300ms\", max_fires = 2, probability = "
         "0.5)])\n"
         "def scenario():\n"
         "    pass\n"
         "fault_scenario(\"slow_api\", scenario = scenario, faults = slow)\n"
         "def test_body():\n"
         "    fault(api.main, delay(path = \"/y\", delay = \"200ms\"), run = lambda: None)\n"
         "    fault(api, write = delay(\"70ms\"), run = lambda: None)\n"
         "    sleep(\"30ms\")\n";
  star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> spec = ir::loadSpec((dir / "spec.star").string());
    EXPECT_TRUE(spec->ok());
    const ir::Spec &s = spec->spec();
    EXPECT_EQ(backend::estimateLeafMs(*s.findTest("test_slow_api"), s), 50 + 2 * 300);
    EXPECT_EQ(backend::estimateLeafMs(*s.findTest("test_body"), s), 50 + 200 + 70 + 30);
    return 0;
  });
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace fbc
