#include "backend/plan_emit.h"

#include "ir/composed_assumptions.h"
#include "ir/json_writer.h"
#include "ir/print.h"
#include "ir/quote.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <limits>
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
    s += a.branches ? std::to_string(a.branches) + " branches" : std::string("computed branches");
    s += ", interleavings=";
    if (a.policy.empty())
      s += "(computed)";
    else if (a.policy == "all" || a.policy == "critical")
      s += "\"" + a.policy + "\"";
    else
      s += a.policy;
    if (a.size)
      s += " → " + std::to_string(*a.size) + " orderings";
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

// One composition of an entry as the tree / DOT / JSON show it.
struct Composition {
  std::string kind; // fault_matrix, choose, probability, interleaving
  std::vector<const ir::PlanAxis *> axes;
};

// Compositions of an entry: the matrix axes are rendered separately; the
// choose and interleaving axes come from the body (shared by all cells of a
// matrix group); probability sites are the union over the cells.
std::vector<Composition> compositions(const ir::Plan &plan, const ir::PlanEntry &e) {
  std::vector<Composition> out;
  Composition choose{"choose", {}}, prob{"probability", {}}, inter{"interleaving", {}};
  for (size_t n = 0; n < e.tests.size(); ++n) {
    const ir::PlanTest &t = plan.tests[e.tests[n]];
    for (const ir::PlanAxis &a : t.axes()) {
      Composition *c = a.kind == ir::AxisKind::Choose        ? &choose
                       : a.kind == ir::AxisKind::Probability ? &prob
                                                             : &inter;
      if (n > 0 && a.kind != ir::AxisKind::Probability)
        continue;
      bool dup = false;
      for (const ir::PlanAxis *b : c->axes)
        dup = dup || (b->name == a.name && b->fault == a.fault);
      if (!dup)
        c->axes.push_back(&a);
    }
  }
  for (Composition *c : {&choose, &prob, &inter})
    if (!c->axes.empty())
      out.push_back(std::move(*c));
  return out;
}

// The proxy composition of an entry: every protocol rule its assumptions
// (composed ones included, each once) put on an interface, as
// "api.public (http): error(path=\"/kv/*\", status=503)", in assumption order.
std::vector<std::string> proxyRules(const ir::Spec &spec, const ir::PlanEntry &e) {
  std::vector<std::string> out;
  std::vector<const ir::FaultAssumption *> seen;
  for (const std::vector<std::string> *names : {&e.faults, &e.matrixFaults})
    for (const std::string &name : *names)
      for (const ir::FaultAssumption *a : ir::composedAssumptions(spec, name)) {
        if (std::find(seen.begin(), seen.end(), a) != seen.end())
          continue;
        seen.push_back(a);
        const ir::Service *svc = spec.findService(a->target.service);
        const ir::Interface *iface = svc ? svc->findInterface(a->target.interface) : nullptr;
        for (const ir::ProxyRule &r : a->proxyRules)
          out.push_back(a->target.service + "." + a->target.interface + " (" +
                        (iface ? iface->protocol : "?") + "): " + r.display());
      }
  return out;
}

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
    if (!explained)
      os << "  (the count does not fit in 64 bits)\n";
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

int64_t clampInt(uint64_t v) {
  return v > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                           : int64_t(v);
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

void emitPlanJson(const ir::Plan &plan, const PlanEmitOptions &opts, llvm::raw_ostream &os) {
  const ir::Spec &spec = *plan.spec;
  ir::JsonWriter w(os);
  w.beginObject();
  w.field("schema_version", int64_t(1));
  w.field("spec_path", spec.path);
  w.key("determinism");
  w.beginObject();
  w.field("level", spec.determinism.level);
  w.field("runtime", spec.determinism.runtime);
  w.field("strict", spec.determinism.strict);
  if (spec.determinism.explicitCall)
    w.field("explicit", true);
  w.endObject();

  w.key("tests");
  w.beginArray();
  for (const ir::PlanEntry &e : plan.entries) {
    w.beginObject();
    w.field("name", e.name);
    w.field("kind", ir::testKindName(e.kind));
    w.field("instances", clampInt(e.count.value));
    std::vector<Composition> comps = compositions(plan, e);
    if (e.kind == ir::TestKind::FaultMatrix || !comps.empty()) {
      w.key("compositions");
      w.beginArray();
      if (e.kind == ir::TestKind::FaultMatrix) {
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
      for (const Composition &c : comps) {
        w.beginObject();
        w.field("kind", c.kind);
        w.key("axes");
        w.beginArray();
        for (const ir::PlanAxis *a : c.axes) {
          w.beginObject();
          w.field("name", a->name);
          if (a->kind == ir::AxisKind::Choose) {
            w.key("values");
            if (a->size && !a->values.empty()) {
              w.beginArray();
              for (const std::string &v : a->values)
                w.value(v);
              w.endArray();
            } else {
              w.null();
            }
          }
          if (a->size)
            w.field("size", clampInt(*a->size));
          if (a->kind == ir::AxisKind::Probability) {
            if (a->maxFires)
              w.field("max_fires", a->maxFires);
            if (a->probability)
              w.field("probability", *a->probability);
            if (!a->fault.empty())
              w.field("fault", a->fault);
          }
          if (a->kind == ir::AxisKind::Interleaving) {
            if (a->branches)
              w.field("branches", int64_t(a->branches));
            if (!a->policy.empty())
              w.field("policy", a->policy);
          }
          if (!a->size)
            w.field("estimated", true);
          w.endObject();
        }
        w.endArray();
        w.endObject();
      }
      w.endArray();
    }
    if (e.kind == ir::TestKind::FaultMatrix && !e.tests.empty()) {
      w.key("matrix_cells"); // e.tests are in name order
      w.beginArray();
      for (uint32_t i : e.tests)
        w.value(plan.tests[i].test->name);
      w.endArray();
    }
    if (!e.faults.empty()) {
      w.key("faults");
      w.beginArray();
      for (const std::string &f : e.faults)
        w.value(f);
      w.endArray();
    }
    if (std::vector<std::string> proxy = proxyRules(*plan.spec, e); !proxy.empty()) {
      w.key("proxy_rules");
      w.beginArray();
      for (const std::string &r : proxy)
        w.value(r);
      w.endArray();
    }
    if (!e.expect.empty())
      w.field("expect", e.expect);
    if (!e.terminateWhen.empty())
      w.field("terminate_when", e.terminateWhen);
    for (auto [key, list] :
         {std::pair<const char *, const std::vector<std::string> *>{"assume", &e.assumes},
          {"monitors", &e.monitors}}) {
      if (list->empty())
        continue;
      w.key(key);
      w.beginArray();
      for (const std::string &s : *list)
        w.value(s);
      w.endArray();
    }
    if (!e.timeout.empty())
      w.field("timeout", e.timeout);
    if (!e.count.exact)
      w.field("estimated", true);
    w.endObject();
  }
  w.endArray();

  w.key("totals");
  w.beginObject();
  w.field("instances", clampInt(plan.total.value));
  if (!plan.total.exact)
    w.field("estimated", true);
  w.endObject();

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
      if (!s->interfaces.empty()) {
        std::vector<std::string> names;
        for (const ir::Interface &i : s->interfaces)
          names.push_back(i.name);
        std::sort(names.begin(), names.end());
        w.key("interfaces");
        w.beginArray();
        for (const std::string &n : names)
          w.value(n);
        w.endArray();
      }
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

  if ((opts.coverage || opts.suggest) && plan.coverage.computed) {
    const ir::PlanCoverage &cov = plan.coverage;
    w.key("coverage");
    w.beginObject();
    w.key("edges");
    w.beginArray();
    for (const ir::PlanEdge &e : cov.edges) {
      w.beginObject();
      w.field("from", e.from);
      w.field("to", e.to);
      if (!e.protocol.empty())
        w.field("protocol", e.protocol);
      w.field("via", e.via);
      if (!e.envKey.empty())
        w.field("env", e.envKey);
      if (!e.faultTests.empty()) {
        w.key("fault_tests");
        w.beginArray();
        for (const std::string &t : e.faultTests)
          w.value(t);
        w.endArray();
      }
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
    w.endArray();
    w.field("uncovered_edges", int64_t(cov.uncovered));
    if (!cov.coveredProtocols.empty()) {
      w.key("covered_protocols");
      w.beginArray();
      for (const std::string &p : cov.coveredProtocols)
        w.value(p);
      w.endArray();
    }
    if (!cov.uncoveredProtocols.empty()) {
      w.key("uncovered_protocols");
      w.beginArray();
      for (const std::string &p : cov.uncoveredProtocols)
        w.value(p);
      w.endArray();
    }
    w.endObject();
  }

  if (!plan.diagnostics.empty()) {
    w.key("diagnostics");
    w.beginArray();
    for (const ir::PlanDiagnostic &d : plan.diagnostics) {
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
  if (opts.jsonTail)
    opts.jsonTail(w);
  w.endObject();
  w.finish();
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
