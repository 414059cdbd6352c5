#include "bundle/report_plan.h"

#include "backend/plan_emit.h"
#include "ir/plan.h"

namespace fbc::bundle {
namespace {

// Calls f(x) for the elements of `v` while the page has room; counts the
// others as left out by a full budget.
template <typename T, typename F> void eachKept(ReportBudget &b, const std::vector<T> &v, F f) {
  size_t n = 0;
  for (; n < v.size() && b.room(); ++n)
    f(v[n]);
  b.cutItems(v.size() - n);
}

void strings(ReportBudget &b, ir::JsonWriter &w, const char *key,
             const std::vector<std::string> &values) {
  w.key(key).beginArray();
  eachKept(b, values, [&](const std::string &v) { w.value(b.clip(v)); });
  w.endArray();
}

// A plan.json count as `fbc plan` states it.
ir::Count countOf(uint64_t instances, bool estimated, bool saturated) {
  return saturated ? ir::Count::saturatedCount() : ir::Count{instances, !estimated};
}

std::string valuesWhat(const ReportLimits &l) {
  return "plan option values not shown (a line shows " + std::to_string(l.maxString) +
         " bytes of them)";
}

// ir::PlanAxis from a plan.json axis, for backend::planAxisText (its values
// only while they fit a line of maxString bytes).
ir::PlanAxis planAxis(ReportBudget &b, const std::string &kind, const PlanJsonAxis &a) {
  ir::PlanAxis ax;
  ax.kind = kind == "probability"    ? ir::AxisKind::Probability
            : kind == "interleaving" ? ir::AxisKind::Interleaving
                                     : ir::AxisKind::Choose;
  ax.name = b.clip(a.name);
  size_t bytes = 0;
  for (size_t i = 0; i < a.values.size(); ++i) {
    if (bytes > b.limits().maxString) {
      b.cut(valuesWhat(b.limits()), a.values.size() - i);
      break;
    }
    ax.values.push_back(b.clip(a.values[i]));
    bytes += ax.values.back().size() + 2;
  }
  ax.size = a.size;
  if (a.maxFires)
    ax.maxFires = *a.maxFires;
  ax.fault = b.clip(a.fault);
  if (a.branches)
    ax.branches = *a.branches;
  ax.policy = b.clip(a.policy);
  // "saturated": one too large for 64 bits; an older plan.json says only
  // "estimated", and a probability axis whose max_fires is known but whose
  // size is not is one such.
  if (!ax.size && (a.saturated || (ax.kind == ir::AxisKind::Probability && ax.maxFires)))
    ax.unknown = ir::UnknownReason::TooLarge;
  return ax;
}

// One composition's lines as `fbc plan` prints them.
void writeCompositionLines(ReportBudget &b, ir::JsonWriter &w, const PlanJsonComposition &c) {
  w.key("lines").beginArray();
  eachKept(b, c.axes, [&](const PlanJsonAxis &a) {
    if (c.kind != "fault_matrix") {
      w.value(b.clip(backend::planAxisText(planAxis(b, c.kind, a))));
      return;
    }
    std::string line = a.name + ": [";
    for (size_t k = 0; k < a.values.size() && line.size() <= b.limits().maxString; ++k)
      line += (k ? ", " : "") + a.values[k];
    w.value(b.clip(line + "]"));
  });
  w.endArray();
}

void writePlanTest(ReportBudget &b, ir::JsonWriter &w, const PlanJsonTest &t) {
  w.beginObject();
  w.field("name", b.clip(t.name));
  w.field("kind", b.clip(t.kind));
  w.field("instances", backend::planInstancesText(countOf(t.instances, t.estimated, t.saturated)));
  w.key("compositions").beginArray();
  eachKept(b, t.compositions, [&](const PlanJsonComposition &c) {
    w.beginObject();
    w.field("kind", b.clip(c.kind));
    writeCompositionLines(b, w, c);
    w.endObject();
  });
  w.endArray();
  strings(b, w, "faults", t.faults);
  strings(b, w, "matrix_cells", t.matrixCells);
  std::string expect = b.clip(t.expect);
  w.field("expect", expect == "(mixed)" ? "(mixed \u2014 per-cell overrides)" : expect);
  w.field("timeout", b.clip(t.timeout));
  w.endObject();
}

void writeCoverage(ReportBudget &b, ir::JsonWriter &w, const std::optional<PlanJsonCoverage> &cov) {
  if (!cov) {
    w.key("coverage").null();
    return;
  }
  w.key("coverage").beginObject();
  w.key("edges").beginArray();
  eachKept(b, cov->edges, [&](const PlanJsonEdge &e) {
    w.beginObject();
    w.field("from", b.clip(e.from));
    w.field("to", b.clip(e.to));
    w.field("protocol", b.clip(e.protocol));
    w.field("via", b.clip(e.via));
    strings(b, w, "fault_tests", e.faultTests);
    strings(b, w, "body_fault_tests", e.bodyFaultTests);
    w.field("covered", !e.faultTests.empty() || !e.bodyFaultTests.empty());
    w.endObject();
  });
  w.endArray();
  w.field("uncovered", cov->uncoveredEdges);
  strings(b, w, "covered_protocols", cov->coveredProtocols);
  strings(b, w, "uncovered_protocols", cov->uncoveredProtocols);
  w.endObject();
}

} // namespace

PlanReadLimits reportPlanLimits(const ReportLimits &limits) {
  return PlanReadLimits{limits.maxRows, limits.maxItems};
}

void writeReportPlan(ReportBudget &b, ir::JsonWriter &w, const PlanJson *plan) {
  if (!plan) {
    w.null();
    return;
  }
  const PlanJson &p = *plan;
  b.cut("plan tests not shown (the page shows the first " + std::to_string(b.limits().maxRows) +
            ")",
        p.testsNotRead);
  b.cut("plan list elements not shown (the page shows the first " +
            std::to_string(b.limits().maxItems) + " of each list)",
        p.itemsNotRead);
  w.beginObject();
  w.field("spec_path", b.clip(p.specPath));
  std::string det;
  if (p.determinism) {
    det = b.clip(p.determinism->level);
    if (p.determinism->strict)
      det += " (strict)";
    if (!p.determinism->isExplicit)
      det += " \u2014 default; spec did not call determinism()";
  }
  w.field("determinism", det);
  ir::Count total = countOf(p.totalInstances, p.totalEstimated, p.totalSaturated);
  w.field("total", "Total: " + total.str() + " plan instance" + (total.value == 1 ? "" : "s"));
  w.field("estimated", !total.exact);
  strings(b, w, "services", p.services);
  w.key("tests").beginArray();
  eachKept(b, p.tests, [&](const PlanJsonTest &t) { writePlanTest(b, w, t); });
  w.endArray();
  writeCoverage(b, w, p.coverage);
  w.key("diagnostics").beginArray();
  eachKept(b, p.diagnostics, [&](const PlanJsonDiagnostic &d) {
    w.beginObject();
    w.field("severity", b.clip(d.severity));
    w.field("code", b.clip(d.code));
    w.field("message", b.clip(d.message));
    w.field("location", b.clip(d.location));
    w.endObject();
  });
  w.endArray();
  w.endObject();
}

} // namespace fbc::bundle
