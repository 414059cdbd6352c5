// Protocol rules on an interface: fault(svc.iface, rule, ..., run=),
// fault_start(svc.iface, rule, ...) and fault_stop(svc.iface), and the
// proxy scopes they (and a scenario's assumptions with rules=) push on the
// test's proxy (runtime/proxy/proxy.h).
#include "runtime/driver/executor.h"

#include "backend/rule_lower.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/values.h"
#include "ir/fanout_sites.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/proxy/proxy.h"
#include "runtime/proxy/proxy_scopes.h"
#include "runtime/supervisor/supervisor.h"

#include <algorithm>

namespace fbc::rt {

using ir::builtins::InterfaceRefValue;
using ir::builtins::ProxyRuleValue;
using ir::builtins::valueAs;
using star::Value;

namespace {

// fault(svc.iface, ..., source=svc2): the service the reference records as
// the traffic's source.
std::string sourceService(star::Thread &t, const InterfaceRefValue &ref, Value v) {
  if (auto *svc = valueAs<ir::builtins::ServiceValue>(v))
    return svc->data.name;
  failBadArgument(t, "fault(" + ref.service + "." + ref.iface.name +
                         ", ...): source= must be a service, got " +
                         std::string(star::typeName(v)));
}

// The rules after the target: response()/error()/delay()/drop() values.
std::vector<ir::ProxyRule> ruleArgs(star::Thread &t, const char *who, const InterfaceRefValue &ref,
                                    const star::Args &args) {
  std::string prefix = std::string(who) + "(" + ref.service + "." + ref.iface.name + ", ...)";
  std::vector<ir::ProxyRule> out;
  for (size_t i = 1; i < args.positional.size(); ++i) {
    auto *r = valueAs<ProxyRuleValue>(args.positional[i]);
    if (!r)
      failBadArgument(t, prefix + " arguments must be response()/error()/delay()/drop(), got " +
                             std::string(star::typeName(args.positional[i])));
    out.push_back(r->data);
  }
  if (out.empty())
    failBadArgument(
        t, prefix + " requires at least one protocol fault, e.g. error(path=\"/*\", status=503)");
  return out;
}

} // namespace

ir::Address Executor::dialAddress(const std::string &service, const ir::Interface &iface) const {
  if (std::optional<size_t> i = proxies_ ? proxies_->find(service, iface.name) : std::nullopt)
    return {"", proxies_->endpoints()[*i].proxyPort};
  const ir::Service *s = loaded_.spec().findService(service);
  return s ? s->addressOrLoopback(iface) : ir::Address{"", iface.port};
}

std::vector<ir::LoweredProxyRule>
Executor::lowerCallProxyRules(star::Thread &t, const char *who, const InterfaceRefValue &ref,
                              const std::vector<ir::ProxyRule> &rules) {
  const ir::Spec &spec = loaded_.spec();
  const ir::Service *svc = spec.findService(ref.service);
  if (!svc)
    t.fail(std::string(who) + "(): no service " + ir::quote(ref.service) + " in this spec");
  std::vector<ir::LoweredProxyRule> out;
  for (size_t i = 0; i < rules.size(); ++i) {
    out.push_back(backend::lowerProxyRule(spec, int(svc - spec.services.data()), ref.iface,
                                          rules[i], callerLoc(t)));
    out.back().index = i;
  }
  return out;
}

uint64_t Executor::pushProxyRules(star::Thread &t, const char *who,
                                  std::span<const ir::LoweredProxyRule> rules,
                                  const std::string &source) {
  const ir::LoweredProxyRule &first = rules.front();
  const std::string &service = loaded_.spec().services[size_t(first.service)].name;
  std::string name = service + "." + first.interface;
  std::optional<size_t> index = proxies_ ? proxies_->find(service, first.interface) : std::nullopt;
  if (!index)
    t.fail(std::string(who) + "(): interface " + ir::quote(name) +
           " has no proxy in this test, so this fault could not fire. fbc decides which "
           "interfaces to proxy from the spec before the test starts, and it could not see "
           "this rule: name the interface in the call itself, e.g. fault(" +
           name + ", error(...), run=...)");
  const ProxyEndpoint &ep = proxies_->endpoints()[*index];
  std::vector<ProxyRuleSpec> specs;
  std::vector<ir::ProxyRule> written; // as written: what events show
  for (const ir::LoweredProxyRule &l : rules) {
    const ir::ProxyRule &r = *l.source;
    if (std::string why = ir::proxyRuleMismatch(r, ep.protocol); !why.empty())
      failBadArgument(t, std::string(who) + "(" + name + ", ...): " + why);
    // A rule the reference enforces and fbc's proxy cannot (a Kafka topic, a
    // MongoDB collection): the test stops saying so, as a plan-time need
    // would have, rather than run without it.
    if (std::string gap = ir::proxyRuleGap(r, ep.protocol); !gap.empty())
      throw CannotRunSignal(std::string(who) + "(" + name + ", ...): " + gap);
    ProxyRuleSpec s;
    s.interface = *index;
    s.rule = r;
    s.rule.target() = l.target; // the codec's form, lowered
    s.siteKey = l.siteKey;
    if (l.leafBits) {
      s.leafBits = l.leafBits;
      s.decisionOverride = leafOverride(t, who, l.site, l.siteKey, l.leafBits);
    }
    specs.push_back(std::move(s));
    written.push_back(r);
  }
  return proxyFaults_->push(*index, std::move(specs), std::move(written), source);
}

std::vector<uint64_t> Executor::pushAssumptionProxyRules(star::Thread &t, const char *who,
                                                         const std::string &assumption) {
  std::vector<uint64_t> scopes;
  const ir::LoweredAssumption *a = cfg_.leaves->findAssumption(assumption);
  if (!a)
    return scopes;
  // One scope per composed assumption's interface, as each is one fault.
  for (size_t i = 0; i < a->proxyRules.size();) {
    size_t j = i + 1;
    while (j < a->proxyRules.size() && a->proxyRules[j].fault == a->proxyRules[i].fault &&
           a->proxyRules[j].service == a->proxyRules[i].service &&
           a->proxyRules[j].interface == a->proxyRules[i].interface)
      ++j;
    scopes.push_back(pushProxyRules(t, who, std::span(a->proxyRules).subspan(i, j - i)));
    i = j;
  }
  return scopes;
}

void Executor::popProxyRules(uint64_t id) {
  if (proxyFaults_)
    proxyFaults_->pop(id);
}

Value Executor::faultInterface(star::Thread &t, const InterfaceRefValue &ref,
                               const star::Args &args, Value run) {
  std::string source;
  std::string fn = "fault(" + ref.service + "." + ref.iface.name + ", ...)";
  // run= is the caller's.
  ir::builtins::bindKeywords(
      ir::builtins::BindCall(t, args,
                             ir::builtins::Wording::own(
                                 fn,
                                 [](std::string_view fn, std::string_view k) {
                                   return std::string(fn) + ": unexpected keyword " + ir::quote(k) +
                                          " (protocol faults are positional: error(...), ...)";
                                 })),
      {{"source"}, {"run"}}, [&](size_t i, const ir::builtins::Arg &a) {
        if (i == 0)
          source = sourceService(t, ref, a.value);
      });
  if (!source.empty())
    warnOnce(t, "fault(" + ref.service + "." + ref.iface.name + ", source=" + source +
                    "): source= does not narrow a protocol rule (as in the reference, it is "
                    "recorded in proxy_fault_applied): the rule hits every client of the "
                    "interface, the test's own steps included");
  refusePacketRules(t, args);
  std::vector<ir::ProxyRule> rules = ruleArgs(t, "fault", ref, args);
  if (!run)
    failBadArgument(t, "fault() requires run= keyword with a callback function");
  if (!run.isObject() || !run.obj()->callable())
    failBadArgument(t, "fault() run= must be a callable");
  uint64_t scope = pushProxyRules(t, "fault", lowerCallProxyRules(t, "fault", ref, rules), source);
  Value result;
  try {
    result = star::call(t, run, llvm::ArrayRef<Value>{});
  } catch (...) {
    popProxyRules(scope);
    throw;
  }
  popProxyRules(scope);
  return result ? result : star::none();
}

Value Executor::faultStartInterface(star::Thread &t, const InterfaceRefValue &ref,
                                    const star::Args &args) {
  if (!args.kwargs.empty())
    failUnknownKeyword(t, "fault_start(" + ref.service + "." + ref.iface.name +
                              ", ...): unexpected keyword " +
                              ir::quote(args.kwargs.front().name->view()));
  refusePacketRules(t, args);
  std::vector<ir::ProxyRule> rules = ruleArgs(t, "fault_start", ref, args);
  uint64_t scope =
      pushProxyRules(t, "fault_start", lowerCallProxyRules(t, "fault_start", ref, rules));
  proxyFaults_->start(proxies_->find(ref.service, ref.iface.name).value(), scope);
  return star::none();
}

Value Executor::faultStopInterface(const InterfaceRefValue &ref) {
  std::optional<size_t> i = proxies_ ? proxies_->find(ref.service, ref.iface.name) : std::nullopt;
  if (!i)
    return star::none();
  proxyFaults_->stop(*i);
  return star::none();
}

} // namespace fbc::rt
