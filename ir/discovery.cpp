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
  // Sort positions, not the (large) tests themselves.
  std::vector<uint32_t> order(tests.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return tests[a].name < tests[b].name; });
  std::vector<Test> sorted;
  sorted.reserve(tests.size());
  for (uint32_t i : order)
    sorted.push_back(std::move(tests[i]));
  return sorted;
}

} // namespace fbc::ir
