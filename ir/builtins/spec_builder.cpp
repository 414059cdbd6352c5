#include "ir/builtins/spec_builder.h"

#include "frontend/eval/function.h"
#include "ir/discovery.h"
#include "ir/topology.h"

#include <algorithm>

namespace fbc::ir::builtins {

SpecBuilder &SpecBuilder::of(star::Thread &t) {
  return *static_cast<SpecBuilder *>(t.userData);
}

ServiceValue *SpecBuilder::findService(std::string_view name) const {
  for (ServiceValue *s : services)
    if (s->data.name == name)
      return s;
  return nullptr;
}

AssumptionValue *SpecBuilder::findAssumption(std::string_view name) const {
  for (AssumptionValue *a : assumptions)
    if (a->data.name == name)
      return a;
  return nullptr;
}

const Scenario *SpecBuilder::findScenario(std::string_view name) const {
  for (const Scenario &s : scenarios)
    if (s.name == name)
      return &s;
  return nullptr;
}

const Test *SpecBuilder::findFaultScenarioTest(std::string_view name) const {
  for (const Test &t : faultScenarioTests)
    if (t.name == name)
      return &t;
  return nullptr;
}

const Test *SpecBuilder::findBuiltinTest(std::string_view name) const {
  for (const Test &t : builtinTests)
    if (t.name == name)
      return &t;
  return nullptr;
}

Spec SpecBuilder::finish(const star::ModuleEnv &root, std::string path,
                         frontend::DiagnosticList &diags) const {
  Spec spec;
  spec.path = std::move(path);
  if (determinism)
    spec.determinism = *determinism;

  // Root globals by name: services record the names that hold them, and
  // the callable test_* globals are the def tests.
  std::vector<std::pair<std::string, star::Value>> globals;
  for (size_t i = 0; i < root.names.size(); ++i)
    if (!root.globals[i].isNull())
      globals.emplace_back(root.names[i], root.globals[i]);
  std::sort(globals.begin(), globals.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });

  std::vector<Service> declared;
  for (const ServiceValue *s : services) {
    Service svc = s->data;
    for (const auto &[name, v] : globals)
      if (v == star::Value::object(s))
        svc.globals.push_back(name);
    declared.push_back(std::move(svc));
  }
  for (size_t i : topologicalOrder(declared))
    spec.services.push_back(declared[i]);

  for (const AssumptionValue *a : assumptions)
    spec.assumptions.push_back(a->data);
  spec.scenarios = scenarios;
  spec.matrices = matrices;

  std::vector<Test> candidates;
  for (const auto &[name, v] : globals) {
    if (name.rfind("test_", 0) != 0 || !v.isObject() || !v.obj()->callable())
      continue;
    Test t;
    t.name = name;
    t.kind = TestKind::Def;
    t.body = FunctionRef{std::string(v.obj()->name()), v, nullptr, {}};
    if (auto *fn = v.as<star::Function>()) {
      t.body.syntax = fn->code->syntax;
      t.body.loc = Loc{fn->code->file, fn->code->pos};
    }
    t.loc = t.body.loc;
    candidates.push_back(std::move(t));
  }
  for (const Scenario &s : scenarios) {
    Test t;
    t.name = "test_" + s.name;
    t.kind = TestKind::Scenario;
    t.body = s.fn;
    t.loc = s.loc;
    candidates.push_back(std::move(t));
  }
  candidates.insert(candidates.end(), faultScenarioTests.begin(), faultScenarioTests.end());
  candidates.insert(candidates.end(), builtinTests.begin(), builtinTests.end());
  spec.tests = discoverTests(std::move(candidates), diags);
  return spec;
}

} // namespace fbc::ir::builtins
