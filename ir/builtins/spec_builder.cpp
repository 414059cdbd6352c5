#include "ir/builtins/spec_builder.h"
#include "ir/builtins/temporal_values.h"

#include "ir/builtins/client_value.h"

#include "frontend/eval/function.h"
#include "ir/builtins/discovery.h"
#include "ir/topology.h"

#include <llvm/ADT/DenseMap.h>

#include <algorithm>

namespace fbc::ir::builtins {

SpecBuilder &SpecBuilder::of(star::Thread &t) {
  return *static_cast<SpecBuilder *>(t.userData);
}

ServiceValue *SpecBuilder::findService(std::string_view name) const {
  ptrdiff_t i = serviceIndex_.find(
      services, name, [](const ServiceValue *s) -> std::string_view { return s->data.name; });
  return i < 0 ? nullptr : services[size_t(i)];
}

AssumptionValue *SpecBuilder::findAssumption(std::string_view name) const {
  ptrdiff_t i = assumptionIndex_.find(
      assumptions, name, [](const AssumptionValue *a) -> std::string_view { return a->data.name; });
  return i < 0 ? nullptr : assumptions[size_t(i)];
}

const Scenario *SpecBuilder::findScenario(std::string_view name) const {
  ptrdiff_t i = scenarioIndex_.find(scenarios, name,
                                    [](const Scenario &s) -> std::string_view { return s.name; });
  return i < 0 ? nullptr : &scenarios[size_t(i)];
}

const Test *SpecBuilder::findFaultScenarioTest(std::string_view name) const {
  ptrdiff_t i = faultScenarioIndex_.find(faultScenarioTests, name,
                                         [](const Test &t) -> std::string_view { return t.name; });
  return i < 0 ? nullptr : &faultScenarioTests[size_t(i)];
}

const Test *SpecBuilder::findBuiltinTest(std::string_view name) const {
  ptrdiff_t i = builtinIndex_.find(builtinTests, name,
                                   [](const Test &t) -> std::string_view { return t.name; });
  return i < 0 ? nullptr : &builtinTests[size_t(i)];
}

std::string declarationInBodyMessage(std::string_view fn) {
  return std::string(fn) +
         "() declares the spec: call it while the spec loads (at top level or from a "
         "function the top level calls), not from a test body";
}

void SpecBuilder::requireLoading(CallSite &site, const char *fn) const {
  if (finished)
    site.fail(site.lparen(), declarationInBodyMessage(fn), DiagCode::DeclarationInBody);
}

Spec SpecBuilder::finish(const star::ModuleEnv &root, std::string path,
                         frontend::DiagnosticList &diags) {
  finished = true;
  for (const auto &[loc, message] : warnings)
    diags.warning(loc.file, loc.pos, message);
  Spec spec;
  spec.path = std::move(path);
  if (determinism)
    spec.determinism = *determinism;
  spec.dataFiles = std::move(dataFiles);
  for (const MonitorValue *m : monitors)
    spec.monitors.push_back(m->data);
  spec.assumes = std::move(assumes);

  // Root globals by name: services record the names that hold them, and
  // the callable test_* globals are the def tests.
  std::vector<std::pair<std::string, star::Value>> globals;
  for (size_t i = 0; i < root.names.size(); ++i)
    if (!root.globals[i].isNull())
      globals.emplace_back(root.names[i], root.globals[i]);
  std::sort(globals.begin(), globals.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });

  // The globals holding each service (in name order), in one pass.
  llvm::DenseMap<const star::Object *, std::vector<std::string>> holders;
  for (const ServiceValue *s : services)
    holders.try_emplace(s);
  for (const auto &[name, v] : globals)
    if (v.isObject()) {
      auto it = holders.find(v.obj());
      if (it != holders.end())
        it->second.push_back(name);
    }
  std::vector<Service> declared;
  declared.reserve(services.size());
  for (const ServiceValue *s : services) {
    Service svc = s->data;
    svc.globals = holders.lookup(s);
    declared.push_back(std::move(svc));
  }
  spec.services.reserve(declared.size());
  for (size_t i : topologicalOrder(declared))
    spec.services.push_back(std::move(declared[i]));

  for (const ClientValue *c : clients)
    spec.clients.push_back(c->data);
  for (const AssumptionValue *a : assumptions)
    spec.assumptions.push_back(a->data);
  spec.scenarios = scenarios;
  spec.matrices = matrices;

  // The tests are discovered in the fault_scenario registry's own array
  // (most of a large spec's tests are matrix cells): the other sources are
  // appended to it and `precedence` gives the claim order (def, scenario,
  // fault_scenario / matrix cell, test()). The registries are not used
  // after finish(): move, never copy, and leave nothing behind.
  std::vector<Test> tests = std::move(faultScenarioTests);
  faultScenarioTests = {};
  size_t nRegistered = tests.size();
  size_t nDefs = 0;
  for (const auto &[name, v] : globals)
    if (name.rfind("test_", 0) == 0 && v.isObject() && v.obj()->callable())
      ++nDefs;
  tests.reserve(nRegistered + builtinTests.size() + nDefs + scenarios.size());
  std::move(builtinTests.begin(), builtinTests.end(), std::back_inserter(tests));
  size_t nBuiltins = builtinTests.size();
  builtinTests = {};
  faultScenarioIndex_ = NameIndex();
  builtinIndex_ = NameIndex();
  for (const auto &[name, v] : globals) {
    if (name.rfind("test_", 0) != 0 || !v.isObject() || !v.obj()->callable())
      continue;
    Test &t = tests.emplace_back();
    t.name = name;
    t.kind = TestKind::Def;
    t.body = FunctionRef{std::string(v.obj()->name()), v, nullptr, {}};
    if (auto *fn = v.as<star::Function>()) {
      t.body.syntax = fn->code->syntax;
      t.body.loc = Loc{fn->code->file, fn->code->pos};
    }
    t.loc = t.body.loc;
  }
  for (const Scenario &s : scenarios) {
    Test &t = tests.emplace_back();
    t.name = "test_" + s.name;
    t.kind = TestKind::Scenario;
    t.body = s.fn;
    t.loc = s.loc;
  }
  std::vector<uint32_t> precedence;
  precedence.reserve(tests.size());
  for (size_t i = nRegistered + nBuiltins; i < tests.size(); ++i) // def, scenario
    precedence.push_back(uint32_t(i));
  for (size_t i = 0; i < nRegistered + nBuiltins; ++i) // fault_scenario/cells, test()
    precedence.push_back(uint32_t(i));
  spec.tests = discoverTests(std::move(tests), precedence, diags);
  return spec;
}

} // namespace fbc::ir::builtins
