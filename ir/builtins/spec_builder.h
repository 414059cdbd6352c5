// The state the spec builtins share while a spec loads: everything
// registered so far (in call order) and the call-site index for locations.
// It lives in Thread::userData; finish() turns it into an ir::Spec.
#pragma once

#include "frontend/eval/program.h"
#include "frontend/source/diagnostic.h"
#include "ir/body_runtime.h"
#include "ir/builtins/call_site.h"
#include "ir/builtins/values.h"
#include "ir/name_index.h"
#include "ir/spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir::builtins {

class MonitorValue;
class ClientValue; // client_value.h

// The builtins that declare the spec (they register into the builder) and
// the error a call to one gets once the spec is built, from a test body;
// `fbc plan` reports the same statically.
inline constexpr const char *kDeclarationBuiltins[] = {
    "service",      "fault_assumption", "scenario",     "fault_scenario", "test",
    "fault_matrix", "determinism",      "mock_service", "assume",         "client"};
std::string declarationInBodyMessage(std::string_view fn);

class SpecBuilder {
public:
  // The builder of the thread's spec (Thread::userData).
  static SpecBuilder &of(star::Thread &t);

  CallSiteIndex callSites;

  std::vector<ServiceValue *> services;       // service() calls
  std::vector<ClientValue *> clients;         // client() calls
  std::vector<AssumptionValue *> assumptions; // fault_assumption() calls
  std::vector<Scenario> scenarios;            // scenario() calls
  std::vector<Matrix> matrices;               // fault_matrix() calls
  // fault_scenario() tests and fault_matrix() cells share one registry (a
  // test name may be registered once); test() has its own.
  std::vector<Test> faultScenarioTests;
  std::vector<Test> builtinTests;
  std::optional<Determinism> determinism;
  std::vector<DataFile> dataFiles;      // load_file()/load_json()/load_yaml() calls
  std::vector<MonitorValue *> monitors; // monitor() calls while loading
  std::vector<Assume> assumes;          // top-level assume() calls (held)
  // Named choose() calls while loading (each returned its first option):
  // what a top-level assume() predicate sees.
  std::vector<std::pair<std::string, star::Value>> loadChoices;
  // Set by loadSpec(): where load_*() paths are relative to (the root
  // spec's folder), and where the files they read are kept.
  std::string specDir;
  frontend::SourceManager *sources = nullptr;
  // Load-time warnings (location, message), reported by finish().
  std::vector<std::pair<Loc, std::string>> warnings;
  // Set by a runtime that executes test bodies (see ir/body_runtime.h).
  BodyRuntime *body = nullptr;
  // Set by finish(): the spec is built, and a declaration (service(),
  // fault_scenario(), ...) made now, from a test body, would change
  // nothing; requireLoading() makes it an error instead.
  bool finished = false;
  void requireLoading(CallSite &site, const char *fn) const;

  ServiceValue *findService(std::string_view name) const;
  AssumptionValue *findAssumption(std::string_view name) const;
  const Scenario *findScenario(std::string_view name) const;
  const Test *findFaultScenarioTest(std::string_view name) const;
  const Test *findBuiltinTest(std::string_view name) const;

  // The IR of everything registered. `root` is the main file's module
  // (its def test_* and the globals naming services); test-name
  // collisions are reported to `diags` as warnings.
  // The registered tests move into the Spec: call it once, at the end.
  Spec finish(const star::ModuleEnv &root, std::string path, frontend::DiagnosticList &diags);

private:
  // Name indexes for the find*() lookups (one per registration).
  NameIndex serviceIndex_, assumptionIndex_, scenarioIndex_, faultScenarioIndex_, builtinIndex_;
};

} // namespace fbc::ir::builtins
