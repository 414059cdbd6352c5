#include "ir/discovery.h"

#include "ir/quote.h"

#include <llvm/ADT/StringMap.h>

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
    return "fault_matrix cell (" + t.cell.scenario + ", " + t.cell.fault + ")";
  case TestKind::TestBuiltin:
    return "test(" + quote(suffix) + ")";
  }
  return t.name;
}

std::vector<Test> discoverTests(std::vector<Test> candidates, frontend::DiagnosticList &diags) {
  std::vector<Test> tests;
  tests.reserve(candidates.size());
  llvm::StringMap<size_t> byName; // name -> index in tests
  for (Test &c : candidates) {
    auto it = byName.find(c.name);
    if (it != byName.end()) {
      const Test &first = tests[it->second];
      diags.warning(c.loc.file, c.loc.pos,
                    "test " + quote(c.name) + " from " + describeTest(c) +
                        " is skipped: the name is already taken by " + describeTest(first));
      diags.note(first.loc.file, first.loc.pos, describeTest(first) + " is defined here");
      continue;
    }
    byName.try_emplace(c.name, tests.size());
    tests.push_back(std::move(c));
  }
  // The candidates' storage goes before the sort, so at most two arrays of
  // tests (not three) are alive at the peak.
  std::vector<Test>().swap(candidates);
  // Sort positions, not the (large) tests themselves, then apply the
  // permutation in place, one cycle at a time (no third array of tests).
  std::vector<uint32_t> order(tests.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
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
