#include "ir/plan.h"

#include "ir/quote.h"

#include <llvm/Support/raw_ostream.h>

#include <limits>

namespace fbc::ir {

const PlanTestShape PlanTest::kNoShape;

PlanTestShape &PlanTest::editShape() {
  // Every shape is made non-const (make_shared<PlanTestShape>), so the one
  // owner may write it; a shared one is copied first.
  if (shape && shape.use_count() == 1)
    return const_cast<PlanTestShape &>(*shape);
  auto own = shape ? std::make_shared<PlanTestShape>(*shape) : std::make_shared<PlanTestShape>();
  PlanTestShape &out = *own;
  shape = std::move(own);
  return out;
}

Count &Count::operator*=(const Count &o) {
  exact = exact && o.exact;
  if (value != 0 && o.value > std::numeric_limits<uint64_t>::max() / value) {
    value = std::numeric_limits<uint64_t>::max();
    exact = false;
  } else {
    value *= o.value;
  }
  return *this;
}

Count &Count::operator+=(const Count &o) {
  exact = exact && o.exact;
  if (o.value > std::numeric_limits<uint64_t>::max() - value) {
    value = std::numeric_limits<uint64_t>::max();
    exact = false;
  } else {
    value += o.value;
  }
  return *this;
}

bool Count::saturated() const {
  return !exact && value == std::numeric_limits<uint64_t>::max();
}

Count Count::saturatedCount() {
  return Count{std::numeric_limits<uint64_t>::max(), false};
}

std::string Count::str() const {
  if (saturated())
    return "at least 2^64 (saturated)";
  return (exact ? "" : "at least ") + std::to_string(value);
}

std::string fanOutBranchesText(const PlanAxis &a) {
  std::string branches =
      a.branches ? std::to_string(a.branches) + " branches" : std::string("computed branches");
  switch (a.fanOut) {
  case FanOut::Parallel:
    return branches;
  case FanOut::WaitN:
    return std::string("wait_n(") + (a.waitsFor ? std::to_string(a.waitsFor) : "n") + " of " +
           branches + ")";
  case FanOut::WaitAll:
  case FanOut::WaitFirst:
    break;
  }
  return std::string(fanOutName(a.fanOut)) + "(" + branches + ")";
}

Count axisCount(const PlanAxis &a) {
  if (a.unknown == UnknownReason::TooLarge)
    return Count::saturatedCount();
  if (a.size && a.unknown == UnknownReason::None)
    return Count{*a.size, true};
  return Count{a.factor(), false};
}

const char *axisKindName(AxisKind k) {
  switch (k) {
  case AxisKind::Choose:
    return "choose";
  case AxisKind::Probability:
    return "probability";
  case AxisKind::Interleaving:
    return "interleaving";
  }
  return "?";
}

const char *unknownReasonName(UnknownReason r) {
  switch (r) {
  case UnknownReason::None:
    return "";
  case UnknownReason::ComputedOptions:
    return "computed_options";
  case UnknownReason::ComputedMaxFires:
    return "computed_max_fires";
  case UnknownReason::ComputedBranches:
    return "computed_branches";
  case UnknownReason::ComputedPolicy:
    return "computed_policy";
  case UnknownReason::TooLarge:
    return "too_large";
  case UnknownReason::Explored:
    return "explored";
  }
  return "";
}

namespace {

void printList(llvm::raw_ostream &os, const std::vector<std::string> &items) {
  os << '[';
  for (size_t i = 0; i < items.size(); ++i)
    os << (i ? ", " : "") << quote(items[i]);
  os << ']';
}

void printLoc(llvm::raw_ostream &os, const Loc &loc) {
  if (loc.valid())
    os << "  # " << loc.str();
}

const char *severityName(frontend::Severity s) {
  switch (s) {
  case frontend::Severity::Error:
    return "error";
  case frontend::Severity::Warning:
    return "warning";
  case frontend::Severity::Note:
    return "note";
  }
  return "";
}

} // namespace

void printPlanText(const Plan &plan, llvm::raw_ostream &os) {
  os << "plan " << quote(plan.spec ? plan.spec->path : "") << '\n';
  for (const PlanTest &t : plan.tests) {
    os << "\ntest " << quote(t.test->name) << " kind=" << testKindName(t.test->kind)
       << " count=" << t.count.str() << '\n';
    for (const PlanAxis &a : t.axes()) {
      os << "  axis " << axisKindName(a.kind) << ' ' << quote(a.name) << " size=";
      if (a.size)
        os << *a.size;
      else
        os << "unknown(" << unknownReasonName(a.unknown) << ')';
      switch (a.kind) {
      case AxisKind::Choose:
        if (a.size || !a.values.empty()) {
          os << " values=";
          printList(os, a.values);
        }
        break;
      case AxisKind::Probability:
        if (a.maxFires)
          os << " max_fires=" << a.maxFires;
        if (a.probability)
          os << " probability=" << formatNumber(*a.probability);
        if (!a.fault.empty())
          os << " fault=" << quote(a.fault);
        break;
      case AxisKind::Interleaving:
        if (a.branches)
          os << " branches=" << a.branches;
        if (!a.policy.empty())
          os << " policy=" << a.policy;
        if (a.preemptions)
          os << " preemptions=" << *a.preemptions;
        if (a.fanOut != FanOut::Parallel)
          os << " fan_out=" << fanOutName(a.fanOut);
        if (a.waitsFor)
          os << " waits_for=" << a.waitsFor;
        break;
      }
      printLoc(os, a.loc);
      os << '\n';
    }
    for (const HelperChoose &h : t.helperChooses()) {
      os << "  helper_choose helper=" << quote(h.helper) << " axis=" << quote(h.axis);
      printLoc(os, h.loc);
      os << '\n';
    }
    for (const UnmodeledFanout &u : t.unmodeled()) {
      os << "  unmodeled_fanout " << quote(u.where)
         << " probability=" << formatNumber(u.probability);
      printLoc(os, u.loc);
      os << '\n';
    }
  }
  if (!plan.entries.empty())
    os << '\n';
  for (const PlanEntry &e : plan.entries) {
    os << "entry " << quote(e.name) << " kind=" << testKindName(e.kind)
       << " count=" << e.count.str() << " tests=[";
    for (size_t i = 0; i < e.tests.size(); ++i)
      os << (i ? ", " : "") << quote(plan.tests[e.tests[i]].test->name);
    os << ']';
    if (!e.matrixFaults.empty()) {
      os << " scenario=" << quote(e.scenario) << " faults=";
      printList(os, e.matrixFaults);
    }
    if (!e.faults.empty()) {
      os << " faults=";
      printList(os, e.faults);
    }
    if (!e.expect.empty())
      os << " expect=" << quote(e.expect);
    if (!e.timeout.empty())
      os << " timeout=" << e.timeout;
    os << '\n';
  }
  os << "\ntotal " << plan.total.str() << '\n';
  if (plan.coverage.computed) {
    os << "\ncoverage edges=" << plan.coverage.edges.size()
       << " uncovered=" << plan.coverage.uncovered << '\n';
    for (const PlanEdge &e : plan.coverage.edges) {
      os << "  edge " << quote(e.from) << " -> " << quote(e.to) << " via=" << e.via;
      if (!e.envKey.empty())
        os << " env=" << quote(e.envKey);
      if (!e.protocol.empty())
        os << " protocol=" << e.protocol;
      os << " fault_tests=";
      printList(os, e.faultTests);
      if (!e.bodyFaultTests.empty()) {
        os << " body_fault_tests=";
        printList(os, e.bodyFaultTests);
      }
      os << '\n';
    }
  }
  if (plan.suggested) {
    os << "\nsuggestions " << plan.suggestions.size() << '\n';
    for (const Suggestion &s : plan.suggestions) {
      const PlanEdge &e = plan.coverage.edges[s.edge];
      os << "  suggestion " << quote(e.from) << " -> " << quote(e.to) << '\n';
    }
  }
  if (!plan.diagnostics.empty()) {
    os << '\n';
    for (const PlanDiagnostic &d : plan.diagnostics) {
      os << "diagnostic " << severityName(d.severity) << ' ' << codeName(d.code) << ' '
         << quote(d.message);
      printLoc(os, d.loc);
      os << '\n';
    }
  }
}

void reportPlanDiagnostics(const Plan &plan, frontend::DiagnosticList &out) {
  for (const PlanDiagnostic &d : plan.diagnostics) {
    std::string msg = d.message + " [" + std::string(codeName(d.code)) + "]";
    switch (d.severity) {
    case frontend::Severity::Error:
      out.error(d.loc.file, d.loc.pos, msg);
      break;
    case frontend::Severity::Warning:
      out.warning(d.loc.file, d.loc.pos, msg);
      break;
    case frontend::Severity::Note:
      out.note(d.loc.file, d.loc.pos, msg);
      break;
    }
  }
}

} // namespace fbc::ir
