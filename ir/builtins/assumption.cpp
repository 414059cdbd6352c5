// fault_assumption(name, target=, <syscall>=fault..., faults=, description=):
// a named set of fault rules on one service, optionally composing others.
#include "frontend/lib/objects.h"
#include "frontend/lib/spellcheck.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/builtins/temporal_values.h"
#include "ir/host_needs.h"
#include "ir/quote.h"
#include "ir/syscalls.h"

#include <algorithm>

namespace fbc::ir::builtins {

using star::Value;

namespace {

constexpr std::string_view kParams[] = {"target", "description", "faults", "rules", "monitors"};

// Every keyword fault_assumption() accepts besides op names.
std::vector<std::string_view> validKeywords() {
  std::vector<std::string_view> v(std::begin(kParams), std::end(kParams));
  for (std::string_view s : syscallKeywords())
    v.push_back(s);
  return v;
}

void appendUnique(std::vector<std::string> &out, const std::vector<std::string> &items) {
  for (const std::string &s : items)
    if (std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(s);
}

// The state of one fault_assumption() call while its keywords are read.
struct AssumptionReader {
  SpecBuilder &b;
  CallSite &site;
  FaultAssumption &a;
  std::string prefix;
  const ServiceValue *targetService = nullptr;

  void target(Value v, const syntax::Expr *lit) {
    if (auto *svc = valueAs<ServiceValue>(v)) {
      targetService = svc;
      a.target = {svc->data.name, ""};
    } else if (auto *ref = valueAs<InterfaceRefValue>(v)) {
      targetService = b.findService(ref->service);
      a.target = {ref->service, ref->iface.name};
    } else {
      site.fail(site.at(lit), prefix +
                                  ": target= must be a service or an interface "
                                  "reference (svc.iface), got " +
                                  typeOf(v));
    }
  }

  void description(Value v, const syntax::Expr *lit) {
    auto *s = v.as<star::String>();
    if (!s)
      site.fail(site.at(lit), "fault_assumption() description= must be a string, got " + typeOf(v));
    a.description = std::string(s->view());
  }

  // faults=: the assumptions this one composes.
  void composed(Value v, const syntax::Expr *lit) {
    std::vector<Value> items;
    if (!listItems(v, items))
      site.fail(site.at(lit),
                "fault_assumption() faults= must be a list of fault_assumption values, got " +
                    typeOf(v));
    for (size_t i = 0; i < items.size(); ++i) {
      auto *child = valueAs<AssumptionValue>(items[i]);
      if (!child)
        site.fail(site.at(CallSite::element(lit, i)),
                  "fault_assumption() faults= items must be fault_assumption values, got " +
                      typeOf(items[i]));
      a.faults.push_back(child->data.name);
    }
  }

  // rules=: protocol rules (and packet rules) on the target interface.
  void rules(Value v, const syntax::Expr *lit) {
    std::vector<Value> items;
    if (!listItems(v, items))
      site.fail(site.at(lit), prefix +
                                  ": rules= must be a list of response()/error()/"
                                  "delay()/drop() rules, got " +
                                  typeOf(v));
    for (size_t i = 0; i < items.size(); ++i) {
      if (auto *packet = valueAs<PacketRuleValue>(items[i])) {
        a.packetRules.push_back(packet->data);
        continue;
      }
      auto *rule = valueAs<ProxyRuleValue>(items[i]);
      if (!rule)
        site.fail(site.at(CallSite::element(lit, i)),
                  prefix + ": rules= items must be response()/error()/delay()/drop(), got " +
                      typeOf(items[i]));
      a.proxyRules.push_back(rule->data);
    }
  }

  // A keyword that is neither a parameter, a syscall nor an op of the target.
  [[noreturn]] void unknownKeyword(std::string_view keyword, const syntax::Argument *arg) {
    std::vector<std::string_view> valid = validKeywords();
    std::string ops;
    if (targetService)
      for (const Op &o : targetService->data.ops) {
        valid.push_back(o.name);
        ops += ops.empty() ? "" : ", ";
        ops += o.name;
      }
    std::string extra = ops.empty() ? "" : "; ops of " + a.target.service + ": " + ops;
    std::string msg = prefix + ": unknown keyword argument " + quote(keyword) +
                      " (not a parameter, a syscall or an op of the target); valid: " +
                      joinNames(validKeywords()) + ", any other syscall name" + extra;
    std::string_view near = star::nearestName(keyword, valid);
    if (!near.empty())
      msg += " (did you mean " + quote(near) + "?)";
    site.fail(site.at(arg), std::move(msg));
  }

  // A syscall keyword, once the target (and its ops) is known: a named op
  // of the target first, then the syscall families, then any other syscall
  // name (itself).
  void syscallRule(std::string_view keyword, Value value) {
    const syntax::Argument *arg = site.keyword(keyword);
    const Op *op = targetService ? targetService->data.findOp(keyword) : nullptr;
    if (!op && !isSyscallName(keyword))
      unknownKeyword(keyword, arg);
    const FaultValue *fault = valueAs<FaultValue>(value);
    if (!fault)
      site.fail(site.at(site.keywordValue(keyword)),
                "fault_assumption() " + std::string(keyword) +
                    "= must be a fault (delay/deny/allow), got " + typeOf(value));
    if (!a.target.valid())
      site.fail(site.at(arg), "fault_assumption() requires target= when syscall faults are "
                              "specified");
    if (targetService && targetService->data.isRemote())
      site.fail(site.at(arg), remoteSyscallRefusal(prefix, targetService->data, keyword));
    FaultRule r;
    r.keyword = std::string(keyword);
    r.fault = fault->data;
    r.loc = site.at(arg);
    if (op) {
      r.op = op->name;
      for (const std::string &s : op->syscalls)
        appendUnique(r.syscalls, expandSyscallFamily(s));
      if (r.fault.path.empty())
        r.fault.path = op->path;
    } else {
      r.syscalls = expandSyscallFamily(keyword);
    }
    // The launch handshake stops the child with kill() before its exec
    // (runtime/launcher.h): a filter trapping it could never start.
    if (std::find(r.syscalls.begin(), r.syscalls.end(), "kill") != r.syscalls.end())
      site.fail(site.at(arg), prefix + ": " + quote(keyword) +
                                  " covers the kill syscall, which fbc cannot put a rule on "
                                  "(it stops every service with kill() while launching it)");
    a.rules.push_back(std::move(r));
  }

  // rules= needs an interface target whose protocol has the rules' fields.
  void checkProxyRules(const syntax::Argument *rulesAt) {
    if (a.target.interface.empty())
      site.fail(site.at(rulesAt), prefix + ": rules= needs target= to be an interface "
                                           "(svc.iface), the one the proxy stands in front of");
    const Interface *iface =
        targetService ? targetService->data.findInterface(a.target.interface) : nullptr;
    for (const ProxyRule &r : a.proxyRules)
      if (std::string why = proxyRuleMismatch(r, iface ? iface->protocol : ""); !why.empty())
        site.fail(r.loc, prefix + ": " + why + " (interface " + a.target.service + "." +
                             a.target.interface + ")");
  }
};

// fault_assumption()'s keywords; every other keyword names a syscall or an
// op of the target, read once the target is known.
struct AssumptionArgs {
  AssumptionReader &r;
  std::vector<std::pair<std::string_view, Value>> syscallFaults;
  const syntax::Argument *proxyRulesAt;
};

void readTarget(AssumptionArgs &a, const Arg &arg) {
  a.r.target(arg.value, arg.expr);
}
void readDescription(AssumptionArgs &a, const Arg &arg) {
  a.r.description(arg.value, arg.expr);
}
void readComposed(AssumptionArgs &a, const Arg &arg) {
  a.r.composed(arg.value, arg.expr);
}
void readRules(AssumptionArgs &a, const Arg &arg) {
  a.r.rules(arg.value, arg.expr);
  a.proxyRulesAt = arg.site().keyword(arg.name);
}
void readMonitors(AssumptionArgs &a, const Arg &arg) {
  a.r.a.monitors = claimMonitors(arg.site(), arg.value, "fault_assumption()");
}
void readSyscallLater(AssumptionArgs &a, const Arg &arg) {
  a.syscallFaults.push_back({arg.name, arg.value});
}

constexpr Param<AssumptionArgs> kAssumptionParams[] = {
    {"target", readTarget}, {"description", readDescription}, {"faults", readComposed},
    {"rules", readRules},   {"monitors", readMonitors},       {kOtherKeywords, readSyscallLater},
};

} // namespace

Value faultAssumptionFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "fault_assumption");
  if (args.positional.empty() || !args.positional[0].as<star::String>())
    site.fail(site.at(site.positional(0)), "fault_assumption() requires a name");
  if (args.positional.size() > 1)
    site.fail(site.at(site.positional(1)),
              "fault_assumption() takes one positional argument (the name), got " +
                  std::to_string(args.positional.size()));
  auto *value = t.heap.make<AssumptionValue>();
  FaultAssumption &a = value->data;
  a.name = std::string(args.positional[0].as<star::String>()->view());
  a.loc = site.loc();
  if (a.name.empty())
    site.fail(site.at(site.positional(0)), "fault_assumption() name must not be empty");
  AssumptionReader r{b, site, a, "fault_assumption(" + quote(a.name) + ")"};

  AssumptionArgs read{r, {}, nullptr};
  bindKeywords(BindCall(site, args, {r.prefix}), kAssumptionParams, read);
  for (const auto &[keyword, v] : read.syscallFaults)
    r.syscallRule(keyword, v);
  if (read.proxyRulesAt)
    r.checkProxyRules(read.proxyRulesAt);

  if (AssumptionValue *prev = b.findAssumption(a.name))
    site.fail(site.at(site.positional(0)), r.prefix +
                                               ": duplicate fault assumption name (first "
                                               "declared at " +
                                               prev->data.loc.str() + ")");
  if (a.rules.empty() && a.proxyRules.empty() && a.packetRules.empty() && a.faults.empty())
    b.warnings.emplace_back(a.loc, r.prefix + " has no fault rules and composes no other "
                                              "assumption: applying it injects nothing");
  b.assumptions.push_back(value);
  return Value::object(value);
}

} // namespace fbc::ir::builtins
