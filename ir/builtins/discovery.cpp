#include "ir/builtins/discovery.h"

#include "ir/quote.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>

namespace fbc::ir {

std::string describeTest(const Test &t) {
  // fault_scenario("x") and test("x") register test_x.
  std::string suffix = t.name.rfind("test_", 0) == 0 ? t.name.substr(5) : t.name;
  switch (t.kind) {
  case TestKind::Def:
    return "def " + t.name;
  case TestKind::Scenario:
    return "scenario(" + t.body.name + ")";
  case TestKind::FaultScenario:
    return "fault_scenario(" + quote(suffix) + ")";
  case TestKind::FaultMatrix:
    return "fault_matrix cell (" + t.cell().scenario + ", " + t.cell().fault + ")";
  case TestKind::TestBuiltin:
    return "test(" + quote(suffix) + ")";
  }
  return t.name;
}

std::vector<Test> discoverTests(std::vector<Test> candidates, frontend::DiagnosticList &diags) {
  std::vector<uint32_t> precedence(candidates.size());
  for (uint32_t i = 0; i < precedence.size(); ++i)
    precedence[i] = i;
  return discoverTests(std::move(candidates), precedence, diags);
}

std::vector<Test> discoverTests(std::vector<Test> tests, llvm::ArrayRef<uint32_t> precedence,
                                frontend::DiagnosticList &diags) {
  // Everything happens inside the one array of tests (a large spec has tens
  // of thousands): claims are decided on positions, the winners are moved
  // down over the losers, then permuted into name order.
  std::vector<bool> kept(tests.size(), false);
  llvm::DenseMap<llvm::StringRef, uint32_t> byName; // name -> position of its claim
  byName.reserve(unsigned(tests.size()));
  for (uint32_t i : precedence) {
    const Test &c = tests[i];
    auto [it, fresh] = byName.try_emplace(llvm::StringRef(c.name), i);
    if (!fresh) {
      const Test &first = tests[it->second];
      diags.warning(c.loc.file, c.loc.pos,
                    "test " + quote(c.name) + " from " + describeTest(c) +
                        " is skipped: the name is already taken by " + describeTest(first));
      diags.note(first.loc.file, first.loc.pos, describeTest(first) + " is defined here");
      continue;
    }
    kept[i] = true;
  }
  byName.clear();
  size_t n = 0;
  for (size_t i = 0; i < tests.size(); ++i)
    if (kept[i]) {
      if (i != n)
        tests[n] = std::move(tests[i]);
      ++n;
    }
  tests.erase(tests.begin() + ptrdiff_t(n), tests.end());
  // The registry grew by doubling while the spec ran (up to half of it
  // unused); the plan's passes reuse what this gives back.
  tests.shrink_to_fit();

  // Sort positions, not the (large) tests themselves, then apply the
  // permutation in place, one cycle at a time (no second array of tests).
  // The kept names are unique, so the order is total.
  std::vector<uint32_t> order(tests.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return tests[a].name < tests[b].name; });
  for (uint32_t start = 0; start < order.size(); ++start) {
    if (order[start] == start)
      continue;
    Test held = std::move(tests[start]);
    uint32_t at = start;
    while (order[at] != start) {
      uint32_t from = order[at];
      tests[at] = std::move(tests[from]);
      order[at] = at;
      at = from;
    }
    tests[at] = std::move(held);
    order[at] = at;
  }
  return tests;
}

} // namespace fbc::ir
