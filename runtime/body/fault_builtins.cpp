// fault(), fault_all(), fault_start(), fault_stop(): the rules a call
// names (a service's keywords, an assumption's rules) pushed as one scope
// on the supervisor, checked against the service's trap set first (and
// refused on a remote service, which has no process here); for an
// exhaustive probability rule the running leaf pins each occurrence.
#include "runtime/driver/executor.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/call_site.h"
#include "ir/builtins/values.h"
#include "ir/composed_assumptions.h"
#include "ir/host_needs.h"
#include "ir/quote.h"
#include "ir/syscalls.h"
#include "runtime/body/builtin_args.h"
#include "runtime/rules/rules_from_ir.h"
#include "runtime/supervisor/supervisor.h"

#include <algorithm>

namespace fbc::rt {

using ir::builtins::AssumptionValue;
using ir::builtins::BindCall;
using ir::builtins::bindKeywords;
using ir::builtins::InterfaceRefValue;
using ir::builtins::ServiceValue;
using ir::builtins::UnknownForm;
using ir::builtins::valueAs;
using star::Value;

void Executor::rulesFromKwargs(star::Thread &t, const char *who, ServiceId target,
                               const star::Args &args, std::vector<RuleSpec> &out) {
  const ir::Service &svc = loaded_.spec().services[target];
  ir::Loc at = callerLoc(t);
  // run= is the caller's; every other keyword names a syscall or an op.
  bindKeywords(BindCall(t, args, {who}), {{"run"}, {ir::builtins::kOtherKeywords}},
               [&](size_t i, const ir::builtins::Arg &a) {
                 if (i == 0)
                   return;
                 std::string key(a.name);
                 const ir::Op *op = svc.findOp(key);
                 if (!op && !ir::isSyscallKeyword(key))
                   ir::builtins::failMistake(
                       t, ir::DiagCode::UnknownSyscall,
                       ir::unknownFaultKeywordMessage(who, key, svc.name, svc.opNames()));
                 auto *fv = valueAs<ir::builtins::FaultValue>(a.value);
                 if (!fv)
                   failBadArgument(t, std::string(who) + "() " + key +
                                          "= must be a fault (delay/deny/allow), got " +
                                          std::string(star::typeName(a.value)) +
                                          ". Example: " + key + "=deny(\"ECONNREFUSED\")");
                 // The plan lowered the keywords it read at this call
                 // (ir::LeafTest::callRules); one it did not read (through
                 // **kwargs, in a function it does not reach) is lowered now.
                 std::span<const ir::LoweredRule> planned =
                     runningTest_ ? runningTest_->findCallRules(at, int(target), key)
                                  : std::span<const ir::LoweredRule>{};
                 if (planned.empty())
                   keywordRules(loaded_.spec(), target, key, fv->data, at, out);
                 else
                   boundRules(loaded_.spec(), planned, fv->data, out);
               });
}

// Exhaustive probability rules: the leaf pins occurrence k to bit k of
// its site's digit; past max_fires (or off the plan) the seeded stream.
DecisionOverride Executor::leafOverride(star::Thread &t, const char *who, const ir::RuleSite &site,
                                        const std::string &key, uint64_t bits) {
  uint64_t size = bits < 64 ? uint64_t(1) << bits : 0;
  std::optional<uint64_t> digit = leafDigitAt(site, size);
  if (!digit) {
    warnOnce(t, std::string(who) + "(): probability site " + ir::quote(key) +
                    " is not a planned axis of this test: its max_fires=" + std::to_string(bits) +
                    " occurrences are drawn from the seeded "
                    "stream instead of fanning out");
    return nullptr;
  }
  std::vector<bool> vec = ir::probabilityVector(*digit, int64_t(bits));
  return [vec](uint64_t k) -> std::optional<bool> {
    if (k < vec.size())
      return bool(vec[k]);
    return std::nullopt;
  };
}

uint64_t Executor::pushRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules) {
  const ir::Spec &spec = loaded_.spec();
  // A remote service has no process here to put a syscall rule on: the
  // test cannot run as written (fault_assumption() refuses it at load).
  for (const RuleSpec &r : rules)
    if (const ir::Service &s = spec.services[r.target]; s.isRemote())
      throw CannotRunSignal(ir::remoteSyscallRefusal(std::string(who) + "()", s, r.syscall));
  for (const RuleSpec &r : rules) {
    if (r.nrs.empty())
      ir::builtins::failMistake(t, ir::DiagCode::UnknownSyscall,
                                std::string(who) + "(): unknown syscall " + ir::quote(r.syscall));
    const std::vector<int> &trapped = traps_.at(r.target);
    for (int nr : r.nrs) {
      if (std::binary_search(trapped.begin(), trapped.end(), nr))
        continue;
      std::string list;
      for (int x : trapped) {
        list += list.empty() ? "" : ", ";
        list += syscallName(x);
      }
      const std::string &svc = spec.services[r.target].name;
      bool tracing = r.action.kind == ActionKind::Trace;
      // A fault that cannot fire has its code (a trace that cannot see
      // has none: nothing was to be faulted).
      t.failWithCode(
          tracing ? "" : ir::codeName(ir::DiagCode::FaultNotFilterable),
          std::string(who) + "(): service " + ir::quote(svc) + " is not intercepting " +
              std::string(syscallName(nr)) + ", so this " +
              (tracing ? "trace could not see it" : "fault could not fire") +
              " (intercepting: " + (list.empty() ? "nothing" : list) +
              "). fbc decides what to intercept from the spec before the test starts, and it "
              "could not see this rule: name the service and the syscall in the " +
              who + "() call itself, e.g. " +
              (tracing ? std::string(who) + "(" + svc + ", syscalls=[\"" + r.syscall + "\"], ...)"
                       : "fault(" + svc + ", " + r.syscall + "=deny(...), run=...)"));
    }
  }
  for (RuleSpec &r : rules)
    if (r.leafBits)
      r.decisionOverride = leafOverride(t, who, r.site, r.siteKey, r.leafBits);
  std::string error;
  std::optional<ScopeId> scope = sup_->applyFaults(std::move(rules), error);
  if (!scope)
    t.fail(std::string(who) + "(): " + error);
  return *scope;
}

Value Executor::fault(star::Thread &t, std::string_view, const star::Args &args) {
  if (args.positional.empty())
    failBadArgument(t, "fault() requires a service or interface argument");
  Value target = args.positional[0];
  // Protocol rules on an interface are positional: fault(svc.iface, error(...), ...).
  if (args.positional.size() > 1 && !valueAs<InterfaceRefValue>(target))
    failBadArgument(t, "fault() takes one positional argument (the target), got " +
                           std::to_string(args.positional.size()));
  Value run = kwarg(args, "run");
  std::vector<RuleSpec> rules;
  if (auto *svc = valueAs<ServiceValue>(target)) {
    std::optional<ServiceId> id = sup_->findService(svc->data.name);
    if (!id)
      t.fail("fault(): service " + ir::quote(svc->data.name) + " is not running");
    rulesFromKwargs(t, "fault", *id, args, rules);
  } else if (auto *a = valueAs<AssumptionValue>(target)) {
    std::string fn = "fault(" + a->data.name + ", ...)";
    bindKeywords(BindCall(t, args,
                          ir::builtins::Wording::own(
                              fn,
                              [](std::string_view fn, std::string_view k) {
                                return std::string(fn) +
                                       ": a fault_assumption carries its own rules; got " +
                                       std::string(k) + "=";
                              })),
                 {{"run"}}, [](size_t, const ir::builtins::Arg &) {});
    assumptionRules(*cfg_.leaves, a->data.name, rules);
    // Its protocol rules (rules=) go on their interfaces' proxies for as long.
    std::vector<uint64_t> proxyScopes;
    uint64_t from = windowStart(true); // its monitors see the run's events
    auto pop = [&] {
      for (auto it = proxyScopes.rbegin(); it != proxyScopes.rend(); ++it)
        popProxyRules(*it);
      assumptionMonitors(a->data.name, from);
    };
    Value result;
    try {
      for (const ir::FaultAssumption *fa : ir::composedAssumptions(loaded_.spec(), a->data.name))
        if (!fa->packetRules.empty())
          refuseGatewayNeed(t, fa->packetRules.front().builtin);
      proxyScopes = pushAssumptionProxyRules(t, "fault", a->data.name);
      result = runWithRules(t, "fault", std::move(rules), run);
    } catch (...) {
      pop();
      throw;
    }
    pop();
    return result;
  } else if (auto *ref = valueAs<InterfaceRefValue>(target)) {
    return faultInterface(t, *ref, args, run);
  } else {
    failBadArgument(
        t, "fault() first arg must be a service, interface_ref, or fault_assumption, got " +
               std::string(star::typeName(target)));
  }
  return runWithRules(t, "fault", std::move(rules), run);
}

// Puts `rules` in force while run() runs: one scope, removed also when run
// fails.
Value Executor::runWithRules(star::Thread &t, const char *who, std::vector<RuleSpec> rules,
                             Value run) {
  if (!run)
    failBadArgument(t, std::string(who) + "() requires run= keyword with a callback function");
  if (!run.isObject() || !run.obj()->callable())
    failBadArgument(t, std::string(who) + "() run= must be a callable");
  uint64_t scope = pushRules(t, who, std::move(rules));
  Value result;
  try {
    result = star::call(t, run, llvm::ArrayRef<Value>{});
  } catch (...) {
    sup_->removeFaults(scope);
    throw;
  }
  sup_->removeFaults(scope);
  return result ? result : star::none();
}

// fault_all([svc, ...], **rules, run=fn): fault() with the same rules on
// every listed service, in one scope.
Value Executor::faultAll(star::Thread &t, std::string_view, const star::Args &args) {
  if (args.positional.size() != 1)
    failBadArgument(t, "fault_all() takes one positional argument (a list of services)");
  Value list = args.positional[0];
  llvm::ArrayRef<Value> elems;
  if (auto *l = list.as<star::List>())
    elems = l->elems;
  else if (auto *tu = list.as<star::Tuple>())
    elems = tu->elems();
  else
    failBadArgument(t, "fault_all() first arg must be a list of services, got " +
                           std::string(star::typeName(list)));
  if (elems.empty())
    failBadArgument(t, "fault_all() requires at least one service in the list");
  std::vector<RuleSpec> rules;
  for (size_t i = 0; i < elems.size(); ++i) {
    auto *svc = valueAs<ServiceValue>(elems[i]);
    if (!svc)
      failBadArgument(t, "fault_all() list element " + std::to_string(i) +
                             " must be a service, got " + std::string(star::typeName(elems[i])));
    std::optional<ServiceId> id = sup_->findService(svc->data.name);
    if (!id)
      t.fail("fault_all(): service " + ir::quote(svc->data.name) + " is not running");
    rulesFromKwargs(t, "fault_all", *id, args, rules);
  }
  return runWithRules(t, "fault_all", std::move(rules), kwarg(args, "run"));
}

std::optional<ServiceId> Executor::serviceArg(star::Thread &t, std::string_view who,
                                              const star::Args &args, bool keywords, bool mustRun) {
  std::string w(who);
  if (!keywords && !args.kwargs.empty())
    failUnknownKeyword(t, w + "() takes one argument (the service)");
  if (args.positional.size() != 1)
    failBadArgument(t, w + (keywords ? "() takes one positional argument (the service)"
                                     : "() takes one argument (the service)"));
  auto *svc = valueAs<ServiceValue>(args.positional[0]);
  if (!svc)
    failBadArgument(t, w + "() first arg must be a service, got " +
                           std::string(star::typeName(args.positional[0])));
  std::optional<ServiceId> id = sup_->findService(svc->data.name);
  if (!id && mustRun)
    t.fail(w + "(): service " + ir::quote(svc->data.name) + " is not running");
  return id;
}

Value Executor::faultStart(star::Thread &t, std::string_view, const star::Args &args) {
  if (args.positional.size() >= 1)
    if (auto *ref = valueAs<InterfaceRefValue>(args.positional[0]))
      return faultStartInterface(t, *ref, args);
  ServiceId id = *serviceArg(t, "fault_start", args, /*keywords=*/true, /*mustRun=*/true);
  std::vector<RuleSpec> rules;
  rulesFromKwargs(t, "fault_start", id, args, rules);
  started_[id].push_back(pushRules(t, "fault_start", std::move(rules)));
  return star::none();
}

Value Executor::faultStop(star::Thread &t, std::string_view, const star::Args &args) {
  if (args.positional.size() == 1 && args.kwargs.empty())
    if (auto *ref = valueAs<InterfaceRefValue>(args.positional[0]))
      return faultStopInterface(*ref);
  if (std::optional<ServiceId> id = serviceArg(t, "fault_stop", args, false, false))
    endScopes(started_[*id]);
  return star::none();
}

void Executor::endScopes(std::vector<uint64_t> &scopes) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    sup_->removeFaults(*it);
  scopes.clear();
}

} // namespace fbc::rt
