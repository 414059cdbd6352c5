// The plan = run invariant over every golden spec of the project (and the
// examples): for each spec that loads, the leaves the runtime enumerates
// (the LeafProgram backend/leaf_lower.h lowers from the plan, the same
// program `fbc run` executes test by test) add up to the total `fbc plan`
// prints, or to at least it where the plan says "at least".
//
// The count is checked against an independent one: for every test whose
// axes are all known (and small enough), the test enumerates by brute
// force the leaves docs/leaves.md defines (every option of each choose(),
// every fired/not-fired vector of each probability site, the first
// B!/min(2B-1, B!)/min(N, B!) lexicographic launch orders of each
// parallel()), counts them one by one, and checks that decoding leaf
// 0..count-1 gives exactly that set, each once. The sizes and products the
// plan computes play no part in it. The fixture specs are also checked
// with real runs (tests/e2e, FbcRunLeaves/PlanTotalEqualsRunRows.ForSpec/*).
#include "backend/leaf_lower.h"
#include "frontend/eval/big_stack.h"
#include "ir/load/load_spec.h"
#include "passes/pass_manager.h"
#include "tests/unit/passes/golden_specs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fbc {
namespace {

using testing::goldenSpecs;

// One axis's alternatives as the run observes them, from what the axis is
// (its options, its N, its branch count and policy), not from its size.
std::vector<std::string> alternatives(const ir::LeafAxis &a) {
  std::vector<std::string> out;
  switch (a.kind()) {
  case ir::AxisKind::Choose:
    return a.plan.values;
  case ir::AxisKind::Probability:
    // Every string of N fired/not-fired flags, built up one flag at a time.
    out = {""};
    for (int64_t i = 0; i < a.plan.maxFires; ++i) {
      std::vector<std::string> longer;
      for (const std::string &prefix : out)
        for (char c : {'.', 'x'})
          longer.push_back(prefix + c);
      out = std::move(longer);
    }
    return out;
  case ir::AxisKind::Interleaving: {
    std::vector<uint32_t> order(a.plan.branches);
    std::iota(order.begin(), order.end(), 0u);
    uint64_t limit = UINT64_MAX; // "all"
    if (a.plan.policy == "critical")
      limit = 2 * uint64_t(a.plan.branches) - 1;
    else if (a.plan.policy != "all")
      limit = std::stoull(a.plan.policy);
    do {
      std::string s;
      for (uint32_t b : order)
        s += std::to_string(b) + ",";
      out.push_back(s);
    } while (out.size() < limit && std::next_permutation(order.begin(), order.end()));
    return out;
  }
  }
  return out;
}

// The decoded leaf as the run observes it, axis by axis.
std::vector<std::string> observed(const ir::LeafTest &t, const ir::LeafAssignment &leaf) {
  std::vector<std::string> out;
  for (size_t i = 0; i < t.axes.size(); ++i) {
    const ir::LeafAxis &a = t.axes[i];
    uint64_t d = leaf.digits[i];
    std::string s;
    switch (a.kind()) {
    case ir::AxisKind::Choose:
      s = d < a.plan.values.size() ? a.plan.values[d] : "<out of range>";
      break;
    case ir::AxisKind::Probability:
      for (bool fired : ir::probabilityVector(d, a.plan.maxFires))
        s += fired ? 'x' : '.';
      break;
    case ir::AxisKind::Interleaving:
      for (uint32_t b : ir::launchOrder(d, a.plan.branches))
        s += std::to_string(b) + ",";
      break;
    }
    out.push_back(s);
  }
  return out;
}

// Every combination of the axes' alternatives, one by one (an odometer).
// nullopt when there would be more than `cap`.
std::optional<std::set<std::vector<std::string>>> bruteForce(const ir::LeafTest &t, size_t cap) {
  std::vector<std::vector<std::string>> alts;
  for (const ir::LeafAxis &a : t.axes)
    alts.push_back(alternatives(a));
  std::set<std::vector<std::string>> all;
  std::vector<size_t> at(alts.size(), 0);
  if (std::any_of(alts.begin(), alts.end(), [](const auto &v) { return v.empty(); }))
    return all;
  while (true) {
    std::vector<std::string> leaf;
    for (size_t i = 0; i < alts.size(); ++i)
      leaf.push_back(alts[i][at[i]]);
    all.insert(std::move(leaf));
    if (all.size() > cap)
      return std::nullopt;
    size_t i = 0;
    while (i < at.size() && ++at[i] == alts[i].size())
      at[i++] = 0;
    if (i == at.size())
      return all;
  }
}

TEST(LeafInvariant, RunLeavesEqualPlanTotalOverEveryGoldenSpec) {
  constexpr size_t kCap = 4096;
  size_t loaded = 0, fanning = 0, enumerated = 0, specsCounted = 0;
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
      uint64_t counted = 0; // leaves counted one by one
      bool allCounted = true;
      for (size_t i = 0; i < leaves.tests.size(); ++i) {
        const ir::LeafTest &t = leaves.tests[i];
        EXPECT_EQ(t.test, &spec->spec().tests[i]) << path;
        sum += t.count;
        if (!t.fansOut()) {
          EXPECT_EQ(t.count.value, 1u) << path << " " << t.test->name;
          ++counted;
          continue;
        }
        ++fanning;
        bool known = std::all_of(t.axes.begin(), t.axes.end(),
                                 [](const ir::LeafAxis &a) { return a.known; });
        std::optional<std::set<std::vector<std::string>>> all;
        if (known)
          all = bruteForce(t, kCap);
        if (!all) {
          allCounted = false; // computed or too large: the e2e runs count these
          continue;
        }
        ++enumerated;
        counted += all->size();
        EXPECT_EQ(t.count.value, all->size()) << path << " " << t.test->name;
        std::set<std::vector<std::string>> decoded;
        for (uint64_t k = 0; k < t.count.value && k <= kCap; ++k) {
          ir::LeafAssignment a = t.decode(k);
          EXPECT_EQ(a.digits.size(), t.axes.size()) << path << " " << t.test->name;
          if (a.digits.size() != t.axes.size())
            return 1;
          std::vector<std::string> leaf = observed(t, a);
          EXPECT_TRUE(all->count(leaf)) << path << " " << t.test->name << " leaf " << k;
          EXPECT_TRUE(decoded.insert(leaf).second)
              << path << " " << t.test->name << " leaf " << k << " repeats another";
        }
        EXPECT_EQ(decoded, *all) << path << " " << t.test->name;
      }
      // The plan's total is counted over its entries (matrix cells grouped).
      EXPECT_EQ(sum.value, plan.total.value) << path;
      EXPECT_EQ(sum.exact, plan.total.exact) << path;
      EXPECT_EQ(leaves.total.value, plan.total.value) << path;
      if (allCounted && plan.total.exact) {
        ++specsCounted;
        EXPECT_EQ(counted, plan.total.value) << path << ": leaves counted one by one";
      }
      return 0;
    });
  }
  // Guard against a walk that finds nothing.
  EXPECT_GE(loaded, 30u);
  EXPECT_GT(fanning, 10u);
  EXPECT_GT(enumerated, 10u);
  EXPECT_GE(specsCounted, 30u);
}

} // namespace
} // namespace fbc
