// The plan's JSON form: the seed's plan.json schema (schema_version 1), with
// probability and interleaving compositions, per-axis sizes and
// diagnostics as additive fields (docs/plan.md).
#include "backend/plan_emit.h"
#include "backend/plan_shape.h"

#include "ir/leaf_program.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <limits>

namespace fbc::backend {
namespace {

// Counts past int64 are written as its maximum (the text says "at least").
int64_t clampInt(uint64_t v) {
  return v > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                           : int64_t(v);
}

// `"key": ["a", ...]`, left out when `items` is empty.
void stringArray(ir::JsonWriter &w, const char *key, const std::vector<std::string> &items) {
  if (items.empty())
    return;
  w.key(key);
  w.beginArray();
  for (const std::string &s : items)
    w.value(s);
  w.endArray();
}

void writeDeterminism(ir::JsonWriter &w, const ir::Determinism &d) {
  w.key("determinism");
  w.beginObject();
  w.field("level", d.level);
  w.field("runtime", d.runtime);
  w.field("strict", d.strict);
  if (d.explicitCall)
    w.field("explicit", true);
  w.endObject();
}

// A fault_matrix entry's own composition: its scenario and fault axes.
void writeMatrixComposition(ir::JsonWriter &w, const ir::PlanEntry &e) {
  w.beginObject();
  w.field("kind", "fault_matrix");
  w.key("axes");
  w.beginArray();
  w.beginObject();
  w.field("name", "scenarios");
  w.key("values");
  w.beginArray();
  w.value(e.scenario);
  w.endArray();
  w.endObject();
  w.beginObject();
  w.field("name", "faults");
  w.key("values");
  w.beginArray();
  for (const std::string &f : e.matrixFaults)
    w.value(f);
  w.endArray();
  w.endObject();
  w.endArray();
  w.endObject();
}

void writeAxis(ir::JsonWriter &w, const ir::PlanAxis &a) {
  w.beginObject();
  w.field("name", a.name);
  if (a.kind == ir::AxisKind::Choose) {
    w.key("values");
    if (a.size && !a.values.empty()) {
      w.beginArray();
      for (const std::string &v : a.values)
        w.value(v);
      w.endArray();
    } else {
      w.null();
    }
  }
  if (a.size)
    w.field("size", clampInt(*a.size));
  if (a.kind == ir::AxisKind::Probability) {
    if (a.maxFires)
      w.field("max_fires", a.maxFires);
    if (a.probability)
      w.field("probability", *a.probability);
    if (!a.fault.empty())
      w.field("fault", a.fault);
  }
  if (a.kind == ir::AxisKind::Interleaving) {
    if (a.branches)
      w.field("branches", int64_t(a.branches));
    if (!a.policy.empty())
      w.field("policy", a.policy);
    if (a.preemptions)
      w.field("preemptions", int64_t(*a.preemptions));
    if (a.fanOut != ir::FanOut::Parallel)
      w.field("fan_out", ir::fanOutName(a.fanOut));
    if (a.waitsFor)
      w.field("waits_for", int64_t(a.waitsFor));
    if (a.dpor()) {
      w.field("explored_at_run_time", true);
      w.field("max_orderings", int64_t(ir::defaultExploreBudget(ir::ExploreOptions::Policy::None)));
    }
  }
  if (!a.size)
    w.field("estimated", true);
  if (a.unknown == ir::UnknownReason::TooLarge)
    w.field("saturated", true);
  w.endObject();
}

void writeCompositions(ir::JsonWriter &w, const ir::Plan &plan, const ir::PlanEntry &e) {
  std::vector<Composition> comps = compositions(plan, e);
  bool matrix = e.kind == ir::TestKind::FaultMatrix;
  if (!matrix && comps.empty())
    return;
  w.key("compositions");
  w.beginArray();
  if (matrix)
    writeMatrixComposition(w, e);
  for (const Composition &c : comps) {
    w.beginObject();
    w.field("kind", c.kind);
    w.key("axes");
    w.beginArray();
    for (const ir::PlanAxis *a : c.axes)
      writeAxis(w, *a);
    w.endArray();
    w.endObject();
  }
  w.endArray();
}

void writeEntry(ir::JsonWriter &w, const ir::Plan &plan, const ir::PlanEntry &e) {
  w.beginObject();
  w.field("name", e.name);
  w.field("kind", ir::testKindName(e.kind));
  w.field("instances", clampInt(e.count.value));
  writeCompositions(w, plan, e);
  if (e.kind == ir::TestKind::FaultMatrix && !e.tests.empty()) {
    w.key("matrix_cells"); // e.tests are in name order
    w.beginArray();
    for (uint32_t i : e.tests)
      w.value(plan.tests[i].test->name);
    w.endArray();
  }
  stringArray(w, "faults", e.faults);
  stringArray(w, "proxy_rules", proxyRules(*plan.spec, e));
  if (!e.expect.empty())
    w.field("expect", e.expect);
  if (!e.terminateWhen.empty())
    w.field("terminate_when", e.terminateWhen);
  stringArray(w, "assume", e.assumes);
  stringArray(w, "monitors", e.monitors);
  if (!e.timeout.empty())
    w.field("timeout", e.timeout);
  if (!e.count.exact)
    w.field("estimated", true);
  if (e.count.saturated())
    w.field("saturated", true);
  w.endObject();
}

// Services (with their interfaces) and clients, each in name order.
void writeTopology(ir::JsonWriter &w, const ir::Spec &spec) {
  w.key("topology");
  w.beginObject();
  if (!spec.services.empty()) {
    std::vector<const ir::Service *> services;
    for (const ir::Service &s : spec.services)
      services.push_back(&s);
    std::sort(services.begin(), services.end(),
              [](const ir::Service *a, const ir::Service *b) { return a->name < b->name; });
    w.key("services");
    w.beginArray();
    for (const ir::Service *s : services) {
      w.beginObject();
      w.field("name", s->name);
      std::vector<std::string> names;
      for (const ir::Interface &i : s->interfaces)
        names.push_back(i.name);
      std::sort(names.begin(), names.end());
      stringArray(w, "interfaces", names);
      w.endObject();
    }
    w.endArray();
  }
  if (!spec.clients.empty()) {
    std::vector<const ir::Client *> clients;
    for (const ir::Client &c : spec.clients)
      clients.push_back(&c);
    std::sort(clients.begin(), clients.end(),
              [](const ir::Client *a, const ir::Client *b) { return a->name < b->name; });
    w.key("clients");
    w.beginArray();
    for (const ir::Client *c : clients) {
      w.beginObject(/*inlined=*/true);
      w.field("name", c->name);
      w.field("service", c->service);
      w.field("interface", c->interface);
      w.endObject();
    }
    w.endArray();
  }
  w.endObject();
}

void writeEdge(ir::JsonWriter &w, const ir::PlanEdge &e) {
  w.beginObject();
  w.field("from", e.from);
  w.field("to", e.to);
  if (!e.protocol.empty())
    w.field("protocol", e.protocol);
  w.field("via", e.via);
  if (!e.envKey.empty())
    w.field("env", e.envKey);
  stringArray(w, "fault_tests", e.faultTests);
  if (!e.bodyFaultTests.empty()) {
    w.key("body_fault_tests");
    w.beginArray();
    for (const std::string &t : e.bodyFaultTests) {
      w.beginObject();
      w.field("test", t);
      w.field("via", "test body");
      w.endObject();
    }
    w.endArray();
  }
  w.endObject();
}

void writeCoverage(ir::JsonWriter &w, const ir::PlanCoverage &cov) {
  w.key("coverage");
  w.beginObject();
  w.key("edges");
  w.beginArray();
  for (const ir::PlanEdge &e : cov.edges)
    writeEdge(w, e);
  w.endArray();
  w.field("uncovered_edges", int64_t(cov.uncovered));
  stringArray(w, "covered_protocols", cov.coveredProtocols);
  stringArray(w, "uncovered_protocols", cov.uncoveredProtocols);
  w.endObject();
}

void writeDiagnostics(ir::JsonWriter &w, const std::vector<ir::PlanDiagnostic> &diagnostics) {
  if (diagnostics.empty())
    return;
  w.key("diagnostics");
  w.beginArray();
  for (const ir::PlanDiagnostic &d : diagnostics) {
    w.beginObject();
    w.field("severity", d.severity == frontend::Severity::Error ? "error" : "warning");
    w.field("code", ir::codeName(d.code));
    w.field("message", d.message);
    if (d.loc.valid())
      w.field("location", d.loc.str());
    w.endObject();
  }
  w.endArray();
}

} // namespace

void emitPlanJson(const ir::Plan &plan, const PlanEmitOptions &opts, llvm::raw_ostream &os) {
  const ir::Spec &spec = *plan.spec;
  ir::JsonWriter w(os);
  w.beginObject();
  w.field("schema_version", int64_t(1));
  w.field("spec_path", spec.path);
  writeDeterminism(w, spec.determinism);
  w.key("tests");
  w.beginArray();
  for (const ir::PlanEntry &e : plan.entries)
    writeEntry(w, plan, e);
  w.endArray();
  w.key("totals");
  w.beginObject();
  w.field("instances", clampInt(plan.total.value));
  if (!plan.total.exact)
    w.field("estimated", true);
  if (plan.total.saturated())
    w.field("saturated", true);
  w.endObject();
  writeTopology(w, spec);
  if ((opts.coverage || opts.suggest) && plan.coverage.computed)
    writeCoverage(w, plan.coverage);
  writeDiagnostics(w, plan.diagnostics);
  if (opts.jsonTail)
    opts.jsonTail(w);
  w.endObject();
  w.finish();
}

} // namespace fbc::backend
