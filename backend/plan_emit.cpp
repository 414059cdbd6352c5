// The plan's text form (the seed's tree, totals, services; the coverage
// table; the suggestion stubs) and its DOT form (plan_json.cpp: JSON).
#include "backend/plan_emit.h"
#include "backend/plan_shape.h"

#include "ir/leaf_program.h"
#include "ir/quote.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <string>
#include <vector>

namespace fbc::backend {

namespace {

const char *kComputed = "(computed — size unknown)";

std::string joinValues(const std::vector<std::string> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + v[i];
  return s;
}

// "faulted in: test_x", "faulted in test body: test_y", or both: "faulted
// in: test_x; in test body: test_y" (the seed's rule first).
std::string faultedIn(const ir::PlanEdge &e) {
  if (e.bodyFaultTests.empty())
    return "faulted in: " + joinValues(e.faultTests);
  if (e.faultTests.empty())
    return "faulted in test body: " + joinValues(e.bodyFaultTests);
  return "faulted in: " + joinValues(e.faultTests) +
         "; in test body: " + joinValues(e.bodyFaultTests);
}

// ": db:write has more than 2^63 outcomes" for the first axis too large
// to count, "" when the count saturated by multiplying known sizes.
std::string saturatedBy(const ir::Plan &plan) {
  for (const ir::PlanTest &t : plan.tests)
    for (const ir::PlanAxis &a : t.axes())
      if (a.unknown == ir::UnknownReason::TooLarge)
        return ": " + a.name +
               (a.kind == ir::AxisKind::Probability ? " has more than 2^63 outcomes"
                                                    : " has more than 2^63 orderings");
  return "";
}

} // namespace

std::string planAxisText(const ir::PlanAxis &a) {
  switch (a.kind) {
  case ir::AxisKind::Choose:
    if (!a.size)
      return a.name + ": " + kComputed;
    return a.name + ": [" + joinValues(a.values) + "]";
  case ir::AxisKind::Probability: {
    std::string s = a.name + ": ";
    if (a.size)
      s +=
          "max_fires=" + std::to_string(a.maxFires) + " → " + std::to_string(*a.size) + " outcomes";
    else if (a.unknown == ir::UnknownReason::TooLarge)
      s += "max_fires=" + std::to_string(a.maxFires) + " → more than 2^63 outcomes";
    else
      s += std::string("max_fires ") + kComputed;
    if (!a.fault.empty())
      s += " (in " + a.fault + ")";
    return s;
  }
  case ir::AxisKind::Interleaving: {
    std::string s = a.name + ": ";
    s += ir::fanOutBranchesText(a);
    s += ", interleavings=";
    if (a.policy.empty())
      s += "(computed)";
    else if (a.policy == "all" || a.policy == "critical" || a.policy == "dpor")
      s += "\"" + a.policy + "\"";
    else
      s += a.policy;
    if (a.preemptions)
      s += ", preemptions=" + std::to_string(*a.preemptions);
    if (a.dpor())
      s += " → at least 1 (dpor: explored at run time, at most " +
           std::to_string(ir::defaultExploreBudget(ir::ExploreOptions::Policy::None)) +
           " orderings (--explore-budget) of the branches' mediated calls)";
    else if (a.size)
      s += " → " + std::to_string(*a.size) + " orderings";
    else if (a.unknown == ir::UnknownReason::TooLarge)
      s += " → more than 2^63 orderings";
    else
      s += std::string(" → ") + kComputed;
    return s;
  }
  }
  return a.name;
}

std::string planInstancesText(const ir::Count &c) {
  return c.str() + (c.value == 1 ? " instance" : " instances");
}

namespace {

// ------------------------------------------------------------- the tree

void emitTree(const ir::Plan &plan, llvm::raw_ostream &os) {
  const ir::Spec &spec = *plan.spec;
  os << "Spec: " << spec.path << "\n";
  os << "Seed: (unseeded)\n";
  os << "Determinism: " << spec.determinism.level;
  if (spec.determinism.strict)
    os << " (strict)";
  if (!spec.determinism.explicitCall)
    os << " — default; spec did not call determinism()";
  os << "\n\n";

  if (plan.entries.empty()) {
    os << "Plan tree: (no tests discovered)\n";
    return;
  }
  os << "Plan tree:\n";
  os << "└── " << plan.entries.size() << (plan.entries.size() == 1 ? " test" : " tests") << "\n";
  for (size_t i = 0; i < plan.entries.size(); ++i) {
    const ir::PlanEntry &e = plan.entries[i];
    bool lastTest = i + 1 == plan.entries.size();
    os << (lastTest ? "    └── " : "    ├── ") << "test " << ir::quote(e.name) << "  ["
       << ir::testKindName(e.kind) << "]\n";
    std::string cont = lastTest ? "        " : "    │   ";

    struct Child {
      std::string label;
      std::vector<std::string> sub;
    };
    std::vector<Child> children;
    if (!(e.count.exact && e.count.value == 1))
      children.push_back({planInstancesText(e.count), {}});
    if (e.kind == ir::TestKind::FaultMatrix)
      children.push_back(
          {"fault_matrix",
           {"scenarios: [" + e.scenario + "]", "faults: [" + joinValues(e.matrixFaults) + "]"}});
    for (const Composition &c : compositions(plan, e)) {
      Child ch{c.kind, {}};
      for (const ir::PlanAxis *a : c.axes)
        ch.sub.push_back(planAxisText(*a));
      children.push_back(std::move(ch));
    }
    if (std::vector<std::string> proxy = proxyRules(spec, e); !proxy.empty())
      children.push_back({"proxy", std::move(proxy)});
    if (!e.faults.empty())
      children.push_back({"faults: [" + joinValues(e.faults) + "]", {}});
    if (!e.expect.empty())
      children.push_back(
          {"expect: " + (e.expect == "(mixed)" ? "(mixed — per-cell overrides)" : e.expect), {}});
    if (!e.terminateWhen.empty())
      children.push_back({"terminate_when: " + e.terminateWhen, {}});
    if (!e.assumes.empty())
      children.push_back({"assume: [" + joinValues(e.assumes) + "]", {}});
    if (!e.monitors.empty())
      children.push_back({"monitors: [" + joinValues(e.monitors) + "]", {}});
    if (!e.timeout.empty())
      children.push_back({"timeout: " + e.timeout, {}});

    for (size_t c = 0; c < children.size(); ++c) {
      bool lastChild = c + 1 == children.size();
      os << cont << (lastChild ? "└── " : "├── ") << children[c].label << "\n";
      std::string childCont = lastChild ? "    " : "│   ";
      for (size_t s = 0; s < children[c].sub.size(); ++s)
        os << cont << childCont << (s + 1 == children[c].sub.size() ? "└── " : "├── ")
           << children[c].sub[s] << "\n";
    }
  }

  const ir::Count &total = plan.total;
  os << "\nTotal: " << total.str() << " plan instance" << (total.value == 1 ? "" : "s") << "\n";
  if (!total.exact) {
    bool explained = false;
    if (plan.unknownChoose) {
      os << "  (a choose() option list is computed, so its size is not knowable without running "
            "the spec)\n";
      explained = true;
    }
    if (plan.unknownProbability) {
      os << "  (a max_fires= value is computed, so its outcome count is not knowable without "
            "running the spec)\n";
      explained = true;
    }
    if (plan.unknownInterleaving) {
      os << "  (a parallel() branch count or interleavings= policy is computed, so its "
            "ordering count is not knowable without running the spec)\n";
      explained = true;
    }
    if (plan.explored) {
      os << "  (the orderings of an interleavings=\"dpor\" site (parallel(), wait_all(), "
            "wait_n(), wait_first()) are explored at run time: at least 1 leaf, at most "
            "--explore-budget leaves per test)\n";
      explained = true;
    }
    if (total.saturated() || !explained)
      os << "  (the count saturated at 2^64" << saturatedBy(plan)
         << "; it is not a computed value)\n";
  }
  if (!spec.services.empty()) {
    std::vector<std::string> names;
    for (const ir::Service &s : spec.services)
      names.push_back(s.name);
    std::sort(names.begin(), names.end());
    os << "Services: " << names.size() << " (" << joinValues(names) << ")\n";
  }
  if (!spec.clients.empty()) { // client(): callers with a trace lane of their own
    std::vector<std::string> names;
    for (const ir::Client &c : spec.clients)
      names.push_back(c.name + " → " + c.service + "." + c.interface);
    std::sort(names.begin(), names.end());
    os << "Clients: " << names.size() << " (" << joinValues(names) << ")\n";
  }
}

std::string dotLabel(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '"':
      out += "\\\"";
      break;
    case '|':
    case '{':
    case '}':
    case '<':
    case '>':
      out += '\\';
      out += c;
      break;
    case '\n':
      out += "\\n";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string dotAxisLabel(const ir::PlanAxis &a) {
  if (a.kind == ir::AxisKind::Choose)
    return a.name + ": " + (a.size ? joinValues(a.values) : std::string(kComputed));
  return planAxisText(a);
}

} // namespace

void emitCoverageText(const ir::Plan &plan, llvm::raw_ostream &os) {
  const ir::PlanCoverage &cov = plan.coverage;
  if (!cov.computed) {
    os << "Coverage: no topology data available\n";
    return;
  }
  size_t services = plan.spec->services.size();
  os << "\nCoverage:\n";
  os << "- " << services << (services == 1 ? " service" : " services") << " declared\n";
  os << "- " << cov.edges.size()
     << (cov.edges.size() == 1 ? " dependency edge" : " dependency edges") << "\n";
  for (const ir::PlanEdge &e : cov.edges) {
    if (e.covered())
      os << "  ✓ " << e.from << " → " << e.to << "  (" << faultedIn(e) << ")\n";
    else
      os << "  ⚠ " << e.from << " → " << e.to << "  (no fault test)\n";
  }
  if (cov.uncovered > 0)
    os << "\n"
       << cov.uncovered << (cov.uncovered == 1 ? " edge" : " edges")
       << " without fault coverage — see `fbc plan --suggest` for proposed tests.\n";
}

void emitSuggestionsText(const ir::Plan &plan, llvm::raw_ostream &os) {
  if (plan.suggestions.empty()) {
    os << "# All dependency edges have at least one fault test. Nothing to suggest.\n";
    return;
  }
  os << "# Rule-based suggestions for uncovered dependency edges.\n"
        "# Paste the snippets you want into your .star file and adjust to taste.\n"
        "# These come from the edges alone (--strategy=rules); --strategy=llm is reserved.\n\n";
  for (const ir::Suggestion &s : plan.suggestions)
    os << s.text << "\n";
}

void emitPlanText(const ir::Plan &plan, const PlanEmitOptions &opts, llvm::raw_ostream &os) {
  emitTree(plan, os);
  if (opts.coverage || opts.suggest)
    emitCoverageText(plan, os);
  if (opts.suggest) {
    os << "\n";
    emitSuggestionsText(plan, os);
  }
}

void emitPlanDot(const ir::Plan &plan, llvm::raw_ostream &os) {
  const ir::Spec &spec = *plan.spec;
  os << "digraph plan {\n";
  os << "  rankdir=LR;\n";
  os << "  node [shape=box, fontname=\"Helvetica\"];\n";
  os << "  spec [label=\"" << dotLabel(spec.path.empty() ? "spec" : spec.path)
     << "\", shape=oval];\n";
  for (size_t i = 0; i < plan.entries.size(); ++i) {
    const ir::PlanEntry &e = plan.entries[i];
    std::string t = "t";
    t += std::to_string(i);
    os << "  " << t << " [label=\""
       << dotLabel(e.name + "\n[" + ir::testKindName(e.kind) + ", " + e.count.str() + " inst]")
       << "\"];\n";
    os << "  spec -> " << t << ";\n";
    std::vector<std::pair<std::string, std::vector<std::string>>> comps;
    if (e.kind == ir::TestKind::FaultMatrix)
      comps.push_back(
          {"fault_matrix", {"scenarios: " + e.scenario, "faults: " + joinValues(e.matrixFaults)}});
    for (const Composition &c : compositions(plan, e)) {
      std::vector<std::string> labels;
      for (const ir::PlanAxis *a : c.axes)
        labels.push_back(dotAxisLabel(*a));
      comps.push_back({c.kind, std::move(labels)});
    }
    for (size_t j = 0; j < comps.size(); ++j) {
      std::string c = t + "_c" + std::to_string(j);
      os << "  " << c << " [label=\"" << dotLabel(comps[j].first)
         << "\", shape=ellipse, style=dashed];\n";
      os << "  " << t << " -> " << c << ";\n";
      for (size_t k = 0; k < comps[j].second.size(); ++k) {
        std::string a = c + "_a" + std::to_string(k);
        os << "  " << a << " [label=\"" << dotLabel(comps[j].second[k]) << "\", shape=note];\n";
        os << "  " << c << " -> " << a << ";\n";
      }
    }
  }
  os << "}\n";
}

} // namespace fbc::backend
