// The cost pass: per test the product of its axes (exact, or a lower bound
// when an axis size is unknown); the plan entries (one per test, the cells
// of the fault matrices grouped per scenario function as
// test_matrix_<scenario>); the total, which is exact or "at least".
#include "passes/pass_manager.h"

#include "ir/duration.h"
#include "ir/temporal.h"

#include <llvm/ADT/StringMap.h>

#include <algorithm>

namespace fbc::passes {

namespace {

// A test's count: the product of its axis sizes; an unknown size makes it
// a lower bound and marks the plan's unknown kinds.
void countTest(ir::Plan &plan, ir::PlanTest &t) {
  t.count = ir::Count{};
  for (const ir::PlanAxis &a : t.axes()) {
    t.count *= ir::axisCount(a);
    // An axis too large to count saturates the count (it is not computed).
    if (a.size || a.unknown == ir::UnknownReason::TooLarge)
      continue;
    switch (a.kind) {
    case ir::AxisKind::Choose:
      plan.unknownChoose = true;
      break;
    case ir::AxisKind::Probability:
      plan.unknownProbability = true;
      break;
    case ir::AxisKind::Interleaving:
      (a.unknown == ir::UnknownReason::Explored ? plan.explored : plan.unknownInterleaving) = true;
      break;
    }
  }
}

// The entry of a test that is not a matrix cell.
ir::PlanEntry testEntry(const ir::Spec &spec, const ir::Test &t, uint32_t index) {
  ir::PlanEntry e;
  e.name = t.name;
  e.kind = t.kind;
  e.tests.push_back(index);
  if (t.kind == ir::TestKind::FaultScenario) {
    e.faults = t.faults;
    std::sort(e.faults.begin(), e.faults.end());
  }
  if (t.expect)
    e.expect = t.expect->display();
  if (const ir::TestTemporal *x = t.temporal.get()) {
    if (x->expect)
      e.expect = x->expect->display();
    if (x->terminateWhen)
      e.terminateWhen = x->terminateWhen->display();
    for (const ir::Assume &a : x->assumes)
      e.assumes.push_back(a.constant ? (a.value ? "True" : "False") : a.fn.name);
  }
  for (uint32_t m : ir::testMonitors(spec, t))
    e.monitors.push_back(spec.monitors[m].name);
  if (t.kind == ir::TestKind::TestBuiltin && t.timeoutNs && *t.timeoutNs > 0)
    e.timeout = ir::formatDuration(*t.timeoutNs);
  return e;
}

// One entry per test, the cells of the fault matrices grouped per scenario
// function (tests are already in name order).
void buildEntries(const ir::Spec &spec, ir::Plan &plan) {
  // Reserved once (an upper bound: a scenario may be in several matrices).
  size_t entries = 0;
  for (const ir::PlanTest &pt : plan.tests)
    entries += pt.test->kind != ir::TestKind::FaultMatrix;
  for (const ir::Matrix &m : spec.matrices)
    entries += m.scenarios.size();
  plan.entries.reserve(entries);
  llvm::StringMap<size_t> matrixEntry;
  for (uint32_t i = 0; i < plan.tests.size(); ++i) {
    const ir::Test &t = *plan.tests[i].test;
    if (t.kind != ir::TestKind::FaultMatrix) {
      plan.entries.push_back(testEntry(spec, t, i));
      continue;
    }
    auto [it, fresh] = matrixEntry.try_emplace(t.body.name, plan.entries.size());
    if (fresh) {
      ir::PlanEntry e;
      e.name = t.planName();
      e.kind = ir::TestKind::FaultMatrix;
      e.scenario = t.body.name;
      e.count = ir::Count{0, true};
      plan.entries.push_back(std::move(e));
    }
    plan.entries[it->second].tests.push_back(i);
  }
}

// A matrix group's monitors, faults and expectation ("(mixed)" when its
// cells expect different things), from its cells.
void summarizeMatrixEntry(const ir::Spec &spec, const ir::Plan &plan, ir::PlanEntry &e) {
  bool mixed = false;
  for (uint32_t i : e.tests) {
    const ir::Test &t = *plan.tests[i].test;
    for (uint32_t m : ir::testMonitors(spec, t))
      if (std::find(e.monitors.begin(), e.monitors.end(), spec.monitors[m].name) ==
          e.monitors.end())
        e.monitors.push_back(spec.monitors[m].name);
    e.matrixFaults.insert(e.matrixFaults.end(), t.faults.begin(), t.faults.end());
    if (!t.expect)
      continue;
    std::string x = t.expect->display();
    if (e.expect.empty())
      e.expect = x;
    else if (e.expect != x)
      mixed = true;
  }
  if (mixed)
    e.expect = "(mixed)";
  std::sort(e.matrixFaults.begin(), e.matrixFaults.end());
  e.matrixFaults.erase(std::unique(e.matrixFaults.begin(), e.matrixFaults.end()),
                       e.matrixFaults.end());
}

} // namespace

void runCostPass(const ir::Spec &spec, ir::Plan &plan) {
  plan.entries.clear();
  plan.unknownChoose = plan.unknownProbability = plan.unknownInterleaving = false;
  plan.explored = false;
  for (ir::PlanTest &t : plan.tests)
    countTest(plan, t);
  buildEntries(spec, plan);
  for (ir::PlanEntry &e : plan.entries) {
    e.count = ir::Count{0, true};
    for (uint32_t i : e.tests)
      e.count += plan.tests[i].count;
    if (e.kind == ir::TestKind::FaultMatrix)
      summarizeMatrixEntry(spec, plan, e);
  }
  std::stable_sort(plan.entries.begin(), plan.entries.end(),
                   [](const ir::PlanEntry &a, const ir::PlanEntry &b) { return a.name < b.name; });
  plan.total = ir::Count{0, true};
  for (const ir::PlanEntry &e : plan.entries)
    plan.total += e.count;
}

} // namespace fbc::passes
