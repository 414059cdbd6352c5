// scenario(fn), fault_scenario(name, ...) and test(name, ...): the
// registrations that become tests.
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/expect_value.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/temporal_values.h"
#include "ir/duration.h"
#include "ir/quote.h"

namespace fbc::ir::builtins {

using star::Value;

namespace {

constexpr int64_t kDefaultTestTimeout = 30 * kSecond;

// The name: the one positional string.
std::string nameArg(const CallSite &site, const star::Args &args, const char *fn) {
  if (args.positional.empty() || !args.positional[0].as<star::String>())
    site.fail(site.at(site.positional(0)), std::string(fn) + "() requires a name (a string as "
                                                             "the first positional argument)");
  if (args.positional.size() > 1)
    site.fail(site.at(site.positional(1)), std::string(fn) +
                                               "() takes one positional argument (the name), got " +
                                               std::to_string(args.positional.size()));
  std::string name(args.positional[0].as<star::String>()->view());
  if (name.empty())
    site.fail(site.at(site.positional(0)), std::string(fn) + "() name must not be empty");
  return name;
}

// fault_scenario(faults=): one assumption or a list of them.
std::vector<std::string> faultsArg(const CallSite &site, Value v, const char *fn) {
  std::vector<std::string> out;
  if (isNone(v))
    return out;
  const syntax::Expr *lit = site.keywordValue("faults");
  if (auto *a = valueAs<AssumptionValue>(v))
    return {a->data.name};
  std::vector<Value> items;
  if (!listItems(v, items))
    site.fail(site.at(lit), std::string(fn) +
                                "() faults= must be a fault_assumption or a list of them, got " +
                                typeOf(v));
  for (size_t i = 0; i < items.size(); ++i) {
    auto *a = valueAs<AssumptionValue>(items[i]);
    if (!a)
      site.fail(site.at(CallSite::element(lit, i)),
                std::string(fn) + "() faults= items must be fault_assumption values, got " +
                    typeOf(items[i]));
    out.push_back(a->data.name);
  }
  return out;
}

// fault_scenario()'s keywords.
void readScenario(Test &test, const Arg &arg) {
  if (!isCallable(arg.value))
    arg.site().fail(arg.at(),
                    "fault_scenario() scenario= must be a callable, got " + typeOf(arg.value));
  test.body = functionRef(arg.value);
}

void readScenarioFaults(Test &test, const Arg &arg) {
  test.faults = faultsArg(arg.site(), arg.value, "fault_scenario");
}

void readScenarioExpect(Test &test, const Arg &arg) {
  if (!isCallable(arg.value))
    arg.site().fail(arg.at(),
                    "fault_scenario() expect= must be a callable, got " + typeOf(arg.value));
  test.expect = std::make_shared<const Expect>(expectFrom(arg.value));
}

void readScenarioMonitors(Test &test, const Arg &arg) {
  std::vector<uint32_t> monitors = claimMonitors(arg.site(), arg.value, "fault_scenario()");
  if (!monitors.empty())
    test.temporal =
        std::make_shared<const TestTemporal>(TestTemporal{std::move(monitors), {}, {}, {}});
}

template <const char *Fn> void readTimeout(Test &test, const Arg &arg) {
  test.timeoutNs = durationArg(arg.site(), arg.value, arg.at(), std::string(Fn) + " bad timeout");
}
constexpr char kFaultScenarioFn[] = "fault_scenario()", kTestFn[] = "test()";

// A pass whose faults never fired fails instead of fault_bypassed.
void readRequireFaultsFire(Test &test, const Arg &arg) {
  auto *flag = arg.value.as<star::Bool>();
  if (!flag)
    arg.site().fail(arg.at(), "fault_scenario() require_faults_fire= must be a bool, got " +
                                  typeOf(arg.value));
  test.requireFaultsFire = flag->value;
}

constexpr Param<Test> kFaultScenarioParams[] = {
    {"scenario", readScenario, Required, "fault_scenario() requires scenario= keyword"},
    {"faults", readScenarioFaults},
    {"expect", readScenarioExpect},
    {"monitors", readScenarioMonitors},
    {"timeout", readTimeout<kFaultScenarioFn>},
    {"require_faults_fire", readRequireFaultsFire},
};

// test()'s keywords: the test, and its temporal properties until all are read.
struct TestArgs {
  Test &test;
  TestTemporal temporal;
  const std::string &name;
};

void readBody(TestArgs &a, const Arg &arg) {
  if (!isCallable(arg.value))
    arg.site().fail(arg.at(), "test() body= must be a callable, got " + typeOf(arg.value));
  a.test.body = functionRef(arg.value);
}

void readSetup(TestArgs &a, const Arg &arg) {
  if (isNone(arg.value))
    return;
  if (!isCallable(arg.value))
    arg.site().fail(arg.at(), "test() setup= must be a callable, got " + typeOf(arg.value));
  a.test.setup = std::make_shared<const FunctionRef>(functionRef(arg.value));
}

void readTestTimeout(TestArgs &a, const Arg &arg) {
  readTimeout<kTestFn>(a.test, arg);
}

void readClock(TestArgs &, const Arg &arg) {
  auto *s = arg.value.as<star::String>();
  if (!s || s->view() != "wall")
    arg.site().fail(arg.at(),
                    "test(): clock= supports only \"wall\" in fbc (the virtual clock is not "
                    "supported yet), got " +
                        star::repr(arg.value));
}

void readTemporalExpect(TestArgs &a, const Arg &arg) {
  a.temporal.expect = temporalArg(arg.site(), arg.value, a.name, arg.name);
}

void readTerminateWhen(TestArgs &a, const Arg &arg) {
  a.temporal.terminateWhen = temporalArg(arg.site(), arg.value, a.name, arg.name);
}

void readAssume(TestArgs &a, const Arg &arg) {
  a.temporal.assumes = assumeList(arg.site(), arg.value, a.name);
}

constexpr Param<TestArgs> kTestParams[] = {
    {"body", readBody, Required, "test() requires body= keyword with the test function"},
    {"setup", readSetup},
    {"expect", readTemporalExpect},
    {"timeout", readTestTimeout},
    {"terminate_when", readTerminateWhen},
    {"assume", readAssume},
    {"clock", readClock},
};

} // namespace

Value scenarioFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "scenario");
  if (args.positional.size() != 1 || !args.kwargs.empty())
    site.fail("scenario() requires exactly one callable");
  Value fn = args.positional[0];
  if (!isCallable(fn))
    site.fail(site.at(site.positional(0)),
              "scenario() argument must be a callable, got " + typeOf(fn));
  Scenario s;
  s.fn = functionRef(fn);
  s.name = s.fn.name;
  s.loc = site.loc();
  if (const Scenario *prev = b.findScenario(s.name))
    site.fail(site.at(site.positional(0)), "scenario(): a scenario named " + quote(s.name) +
                                               " is already registered (at " + prev->loc.str() +
                                               ")");
  b.scenarios.push_back(std::move(s));
  return star::none();
}

Value faultScenarioFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "fault_scenario");
  std::string name = nameArg(site, args, "fault_scenario");
  Test test;
  test.name = "test_" + name;
  test.kind = TestKind::FaultScenario;
  test.timeoutNs = kDefaultTestTimeout;
  test.loc = site.loc();
  bindKeywords(BindCall(site, args, {"fault_scenario()", UnknownForm::Reference}),
               kFaultScenarioParams, test);
  if (const Test *prev = b.findFaultScenarioTest(test.name))
    site.fail(site.at(site.positional(0)), "fault_scenario(" + quote(name) + "): test " +
                                               quote(test.name) + " is already registered (at " +
                                               prev->loc.str() + ")");
  b.faultScenarioTests.push_back(std::move(test));
  return star::none();
}

Value testFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "test");
  std::string name = nameArg(site, args, "test");
  Test test;
  test.name = "test_" + name;
  test.kind = TestKind::TestBuiltin;
  test.timeoutNs = kDefaultTestTimeout;
  test.loc = site.loc();
  TestArgs read{test, {}, name};
  bindKeywords(BindCall(site, args, {"test()"}), kTestParams, read);
  TestTemporal &temporal = read.temporal;
  if (temporal.expect || temporal.terminateWhen || !temporal.assumes.empty())
    test.temporal = std::make_shared<const TestTemporal>(std::move(temporal));
  if (const Test *prev = b.findBuiltinTest(test.name))
    site.fail(site.at(site.positional(0)), "test(): duplicate test name " + quote(name) +
                                               " (first declared at " + prev->loc.str() + ")");
  b.builtinTests.push_back(std::move(test));
  return star::none();
}

} // namespace fbc::ir::builtins
