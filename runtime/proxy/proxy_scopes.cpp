// Protocol fault scopes and their trace events (proxy_scopes.h).
#include "runtime/proxy/proxy_scopes.h"

#include "ir/protocols.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace fbc::rt {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

// What a rule on `protocol` decides one at a time, singular and plural.
std::pair<std::string, std::string> unitNouns(const ir::ProxyRule &r, const std::string &protocol) {
  if (r.perConnection)
    return {"connection", "connections"};
  if (const ir::Protocol *p = ir::findProtocol(protocol); p && !p->unit.empty())
    return {std::string(p->unit), std::string(p->units)};
  return {"TCP chunk", "TCP chunks"};
}

// Why rule `r` on `where` ("api.public") matched nothing, in one line.
std::string zeroTrafficHint(const ProxyEndpoint &ep, const std::string &where,
                            const ir::ProxyRule &r, const ProxyRuleStats &st, bool scopeMatched) {
  auto [unit, units] = unitNouns(r, ep.protocol);
  std::string hint;
  if (st.passedOver == 1)
    hint = "the one " + unit + " to " + where + " did not match " + r.matchers();
  else if (st.passedOver > 1)
    hint = "none of the " + std::to_string(st.passedOver) + " " + units + " to " + where +
           " matched " + r.matchers();
  else
    hint = "no " + unit + " to " + where + " reached the rule";
  hint += " while it was in force";
  if (st.unframed)
    hint += std::string(st.unframed == 1 ? "; the chunk it saw was" : "; the chunks it saw were") +
            " not " + ep.protocol + " (relayed as TCP), which " + ir::proxyActionName(r.action) +
            "() cannot answer";
  if (scopeMatched)
    hint += " (not bypassed: another rule of the same fault matched)";
  return hint;
}

// fault_zero_traffic's fields for protocol rule `r` on `where`, removed
// without one match: what it watched, what it saw instead, and whether its
// whole scope saw nothing (`bypassed`: every protocol rule is a fault, none
// is an observation).
Fields zeroTrafficFields(const ProxyEndpoint &ep, const std::string &where, const ir::ProxyRule &r,
                         const ProxyRuleStats &st, bool scopeMatched) {
  Fields f{{"interface", ep.interface},
           {"protocol", ep.protocol},
           {"rule", r.display()},
           {"watched", unitNouns(r, ep.protocol).second},
           {"passed_over", std::to_string(st.passedOver)}};
  if (!st.seen.empty())
    f.emplace_back("seen_requests", llvm::join(st.seen, ", "));
  if (st.unframed)
    f.emplace_back("unframed_chunks", std::to_string(st.unframed));
  f.emplace_back("hint", zeroTrafficHint(ep, where, r, st, scopeMatched));
  f.emplace_back("bypassed", scopeMatched ? "false" : "true");
  return f;
}

} // namespace

void ProxyFaultScopes::record(EventType type, ServiceId service, const ir::ProxyRule &r,
                              Fields fields) {
  TraceEvent e;
  e.type = type;
  e.service = service;
  e.rule.proxyAction = std::string(ir::proxyActionName(r.action));
  e.fields = std::move(fields);
  trace_.record(std::move(e));
}

uint64_t ProxyFaultScopes::push(size_t iface, std::vector<ProxyRuleSpec> specs,
                                std::vector<ir::ProxyRule> rules, const std::string &source) {
  const ProxyEndpoint &ep = hub_.endpoints()[iface];
  for (const ir::ProxyRule &r : rules) {
    Fields fields{{"interface", ep.interface}, {"protocol", ep.protocol}, {"rule", r.display()}};
    if (!source.empty())
      fields.emplace_back("source", source);
    record(EventType::ProxyFaultApplied, ep.service, r, std::move(fields));
  }
  uint64_t id = hub_.rules().push(std::move(specs));
  scopes_.push_back({id, iface, std::move(rules)});
  return id;
}

void ProxyFaultScopes::pop(uint64_t id) {
  auto it =
      std::find_if(scopes_.begin(), scopes_.end(), [&](const Scope &s) { return s.id == id; });
  if (it == scopes_.end())
    return;
  const ProxyEndpoint &ep = hub_.endpoints()[it->iface];
  std::vector<ProxyRuleStats> stats = hub_.rules().pop(id);
  // A scope is one fault (an assumption's rules=, or one call's rules):
  // it happened if any of its rules matched.
  bool matched = std::any_of(stats.begin(), stats.end(),
                             [](const ProxyRuleStats &s) { return s.matches > 0; });
  std::string where = trace_.serviceName(ep.service) + "." + ep.interface;
  for (size_t i = 0; i < stats.size() && i < it->rules.size(); ++i) {
    const ir::ProxyRule &r = it->rules[i];
    if (stats[i].matches == 0)
      record(EventType::FaultZeroTraffic, ep.service, r,
             zeroTrafficFields(ep, where, r, stats[i], matched));
    record(EventType::ProxyFaultRemoved, ep.service, r,
           {{"interface", ep.interface},
            {"protocol", ep.protocol},
            {"rule", r.display()},
            {"matches", std::to_string(stats[i].matches)},
            {"hits", std::to_string(stats[i].fires)}});
  }
  scopes_.erase(it);
}

void ProxyFaultScopes::stop(size_t iface) {
  std::vector<uint64_t> &scopes = started_[iface];
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    pop(*it);
  scopes.clear();
}

void ProxyFaultScopes::stopAll() {
  for (auto &[iface, scopes] : started_)
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
      pop(*it);
  started_.clear();
}

} // namespace fbc::rt
