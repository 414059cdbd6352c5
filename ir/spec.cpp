#include "ir/spec.h"

#include <algorithm>

namespace fbc::ir {

std::string Loc::str() const {
  if (!valid())
    return "";
  return file->path() + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col);
}

namespace {
constexpr std::string_view kCategories[] = {"clock", "rand", "dns", "network-unmediated",
                                            "fs-unmediated"};
} // namespace

llvm::ArrayRef<std::string_view> determinismCategories() {
  return kCategories;
}

bool isDeterminismCategory(std::string_view c) {
  return std::find(std::begin(kCategories), std::end(kCategories), c) != std::end(kCategories);
}

const char *healthcheckKindName(HealthcheckKind k) {
  switch (k) {
  case HealthcheckKind::Tcp:
    return "tcp";
  case HealthcheckKind::Http:
    return "http";
  case HealthcheckKind::Ready:
    return "ready";
  }
  return "tcp";
}

const char *faultActionName(FaultAction a) {
  switch (a) {
  case FaultAction::Deny:
    return "deny";
  case FaultAction::Delay:
    return "delay";
  case FaultAction::Allow:
    return "allow";
  }
  return "deny";
}

const char *faultModeName(FaultMode m) {
  switch (m) {
  case FaultMode::None:
    return "";
  case FaultMode::Exhaustive:
    return "exhaustive";
  case FaultMode::Stochastic:
    return "stochastic";
  }
  return "";
}

const char *testKindName(TestKind k) {
  switch (k) {
  case TestKind::Def:
    return "def";
  case TestKind::Scenario:
    return "scenario";
  case TestKind::FaultScenario:
    return "fault_scenario";
  case TestKind::FaultMatrix:
    return "fault_matrix";
  case TestKind::TestBuiltin:
    return "test_builtin";
  }
  return "def";
}

std::string Expect::display() const {
  if (kind == ExpectKind::ErrorWithin)
    return name + "(ms=" + std::to_string(withinMs) + ")";
  if (kind == ExpectKind::Success || kind == ExpectKind::Hang)
    return name + "()";
  return name;
}

const Interface *Service::findInterface(std::string_view n) const {
  for (const Interface &i : interfaces)
    if (i.name == n)
      return &i;
  return nullptr;
}

const Op *Service::findOp(std::string_view n) const {
  for (const Op &o : ops)
    if (o.name == n)
      return &o;
  return nullptr;
}

const Service *Spec::findService(std::string_view n) const {
  ptrdiff_t i =
      serviceIndex_.find(services, n, [](const Service &s) -> std::string_view { return s.name; });
  return i < 0 ? nullptr : &services[size_t(i)];
}

const FaultAssumption *Spec::findAssumption(std::string_view n) const {
  ptrdiff_t i = assumptionIndex_.find(
      assumptions, n, [](const FaultAssumption &a) -> std::string_view { return a.name; });
  return i < 0 ? nullptr : &assumptions[size_t(i)];
}

const Test *Spec::findTest(std::string_view n) const {
  auto it = std::lower_bound(tests.begin(), tests.end(), n,
                             [](const Test &t, std::string_view key) { return t.name < key; });
  return it != tests.end() && it->name == n ? &*it : nullptr;
}

} // namespace fbc::ir
