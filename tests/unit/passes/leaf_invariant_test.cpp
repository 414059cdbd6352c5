// The plan = run invariant over every golden spec of the project (and the
// examples): for each spec that loads, the leaves the runtime enumerates
// (the LeafProgram backend/leaf_lower.h lowers from the plan, the same
// program `fbc run` executes test by test) add up to the total `fbc plan`
// prints, or to at least it where the plan says "at least"; and every
// test's leaves decode to distinct, in-range assignments. The fixture
// specs are also checked with real runs (tests/e2e, FbcRunLeaves).
#include "backend/leaf_lower.h"
#include "frontend/eval/big_stack.h"
#include "ir/load_spec.h"
#include "passes/pass_manager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace fbc {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> goldenSpecs() {
  std::vector<std::string> out;
  for (const char *dir : {FBC_GOLDEN_DIR, FBC_EXAMPLES_DIR})
    for (const auto &e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".star")
        out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(LeafInvariant, RunLeavesEqualPlanTotalOverEveryGoldenSpec) {
  size_t loaded = 0, fanning = 0;
  for (const std::string &path : goldenSpecs()) {
    star::runWithLargeStack([&] {
      std::unique_ptr<ir::LoadedSpec> spec = ir::loadSpec(path);
      if (!spec->ok())
        return 0; // error goldens
      ++loaded;
      ir::Plan plan = passes::buildPlan(spec->spec());
      ir::LeafProgram leaves = backend::lowerToLeaves(plan);
      // The run executes every test of the spec, each with its leaves.
      EXPECT_EQ(leaves.tests.size(), spec->spec().tests.size()) << path;
      ir::Count sum{0, true};
      for (size_t i = 0; i < leaves.tests.size(); ++i) {
        const ir::LeafTest &t = leaves.tests[i];
        EXPECT_EQ(t.test, &spec->spec().tests[i]) << path;
        sum += t.count;
        if (!t.fansOut()) {
          EXPECT_EQ(t.count.value, 1u) << path << " " << t.test->name;
          continue;
        }
        ++fanning;
        if (t.count.value > 4096)
          continue; // the decode is checked on the smaller ones
        std::set<std::vector<uint64_t>> seen;
        for (uint64_t k = 0; k < t.count.value; ++k) {
          ir::LeafAssignment a = t.decode(k);
          EXPECT_EQ(a.digits.size(), t.axes.size());
          if (a.digits.size() != t.axes.size())
            return 1;
          for (size_t d = 0; d < a.digits.size(); ++d)
            EXPECT_LT(a.digits[d], std::max<uint64_t>(1, t.axes[d].size));
          seen.insert(a.digits);
        }
        EXPECT_EQ(seen.size(), t.count.value) << path << " " << t.test->name;
      }
      // The plan's total is counted over its entries (matrix cells grouped).
      EXPECT_EQ(sum.value, plan.total.value) << path;
      EXPECT_EQ(sum.exact, plan.total.exact) << path;
      EXPECT_EQ(leaves.total.value, plan.total.value) << path;
      return 0;
    });
  }
  // Guard against a walk that finds nothing.
  EXPECT_GE(loaded, 30u);
  EXPECT_GT(fanning, 10u);
}

} // namespace
} // namespace fbc
