// scenario(fn), fault_scenario(name, ...) and test(name, ...): the
// registrations that become tests.
#include "frontend/eval/objects.h"
#include "frontend/eval/printer.h"
#include "ir/builtins/arg_util.h"
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
  bool haveScenario = false;
  for (const star::Kwarg &kw : args.kwargs) {
    std::string_view k = kw.name->view();
    Value v = kw.value;
    Loc at = site.at(site.keywordValue(k));
    if (k == "scenario") {
      if (!isCallable(v))
        site.fail(at, "fault_scenario() scenario= must be a callable, got " + typeOf(v));
      test.body = functionRef(v);
      haveScenario = true;
    } else if (k == "faults") {
      test.faults = faultsArg(site, v, "fault_scenario");
    } else if (k == "expect") {
      if (!isCallable(v))
        site.fail(at, "fault_scenario() expect= must be a callable, got " + typeOf(v));
      test.expect = std::make_shared<const Expect>(expectFrom(v));
    } else if (k == "monitors") {
      std::vector<uint32_t> monitors = claimMonitors(site, v, "fault_scenario()");
      if (!monitors.empty())
        test.temporal =
            std::make_shared<const TestTemporal>(TestTemporal{std::move(monitors), {}, {}, {}});
    } else if (k == "timeout") {
      test.timeoutNs = durationArg(site, v, at, "fault_scenario() bad timeout");
    } else if (k == "require_faults_fire") {
      // A pass whose faults never fired fails instead of fault_bypassed.
      auto *flag = v.as<star::Bool>();
      if (!flag)
        site.fail(at, "fault_scenario() require_faults_fire= must be a bool, got " + typeOf(v));
      test.requireFaultsFire = flag->value;
    } else {
      failUnexpectedKeyword(
          site, "fault_scenario", k,
          {"scenario", "faults", "expect", "monitors", "timeout", "require_faults_fire"});
    }
  }
  if (!haveScenario)
    site.fail("fault_scenario() requires scenario= keyword");
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
  bool haveBody = false;
  TestTemporal temporal;
  static constexpr std::string_view kValid[] = {"body",           "setup",  "expect", "timeout",
                                                "terminate_when", "assume", "clock"};
  for (const star::Kwarg &kw : args.kwargs) {
    std::string_view k = kw.name->view();
    Value v = kw.value;
    Loc at = site.at(site.keywordValue(k));
    if (k == "body") {
      if (!isCallable(v))
        site.fail(at, "test() body= must be a callable, got " + typeOf(v));
      test.body = functionRef(v);
      haveBody = true;
    } else if (k == "setup") {
      if (isNone(v))
        continue;
      if (!isCallable(v))
        site.fail(at, "test() setup= must be a callable, got " + typeOf(v));
      test.setup = std::make_shared<const FunctionRef>(functionRef(v));
    } else if (k == "timeout") {
      test.timeoutNs = durationArg(site, v, at, "test() bad timeout");
    } else if (k == "clock") {
      auto *s = v.as<star::String>();
      if (!s || s->view() != "wall")
        site.fail(at, "test(): clock= supports only \"wall\" in fbc (the virtual clock is not "
                      "supported yet), got " +
                          star::repr(v));
    } else if (k == "expect") {
      temporal.expect = temporalArg(site, v, name, k);
    } else if (k == "terminate_when") {
      temporal.terminateWhen = temporalArg(site, v, name, k);
    } else if (k == "assume") {
      temporal.assumes = assumeList(site, v, name);
    } else {
      failUnknownKeyword(site, "test():", k, kValid);
    }
  }
  if (!haveBody)
    site.fail("test() requires body= keyword with the test function");
  if (temporal.expect || temporal.terminateWhen || !temporal.assumes.empty())
    test.temporal = std::make_shared<const TestTemporal>(std::move(temporal));
  if (const Test *prev = b.findBuiltinTest(test.name))
    site.fail(site.at(site.positional(0)), "test(): duplicate test name " + quote(name) +
                                               " (first declared at " + prev->loc.str() + ")");
  b.builtinTests.push_back(std::move(test));
  return star::none();
}

} // namespace fbc::ir::builtins
