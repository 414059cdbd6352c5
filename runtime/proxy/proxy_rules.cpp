// The proxy's rule table: see proxy_rules.h.
#include "runtime/proxy/proxy_rules.h"

#include "llvm/ADT/StringRef.h"

#include "runtime/trace/trace.h"

#include <algorithm>
#include <cctype>

namespace fbc::rt {
bool proxyGlobMatch(std::string_view p, std::string_view t) {
  // Greedy with one backtrack point (the last '*'): linear for one star,
  // O(|p|·|t|) at worst; no allocation.
  if (p.empty())
    return true;
  size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
      ++pi;
      ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*')
    ++pi;
  return pi == p.size();
}

const std::string &ruleMethod(const ir::ProxyRule &r) {
  return !r.method.empty() ? r.method : !r.command.empty() ? r.command : r.exchange;
}

ReplySpec replySpec(const ir::ProxyRule &r) {
  ReplySpec s;
  s.kind = r.action == ir::ProxyAction::Respond ? ReplyKind::Response : ReplyKind::Error;
  s.status = static_cast<int>(r.status);
  s.code = r.code;
  s.errorNumber = static_cast<int>(r.errorNumber);
  s.message = r.message;
  s.body = r.body;
  s.hasBody = r.hasBody;
  return s;
}

uint64_t ProxyRuleTable::push(std::vector<ProxyRuleSpec> specs) {
  std::lock_guard lock(mu_);
  Scope scope{nextScope_++, {}};
  for (size_t i = 0; i < specs.size(); ++i) {
    ProxyRuleSpec &s = specs[i];
    // method= and command= ignore case (HTTP methods, Redis commands);
    // an exchange= is a name, matched as written.
    bool exact = s.rule.method.empty() && s.rule.command.empty() && !s.rule.exchange.empty();
    Rule r{{},
           exact ? ruleMethod(s.rule) : llvm::StringRef(ruleMethod(s.rule)).upper(),
           s.rule.target(),
           exact,
           SplitMix64(0),
           0,
           {}};
    r.rng = ruleStream(seed_, s.siteKey, scope.id, i);
    r.spec = std::move(s);
    scope.rules.push_back(std::move(r));
  }
  scopes_.push_back(std::move(scope));
  return scopes_.back().id;
}

std::vector<ProxyRuleStats> ProxyRuleTable::pop(uint64_t scope) {
  std::lock_guard lock(mu_);
  std::vector<ProxyRuleStats> out;
  auto it =
      std::find_if(scopes_.begin(), scopes_.end(), [&](const Scope &s) { return s.id == scope; });
  if (it == scopes_.end())
    return out;
  for (Rule &r : it->rules)
    out.push_back(std::move(r.stats));
  scopes_.erase(it);
  return out;
}

bool ProxyRuleTable::hasConnectionRules(size_t iface) const {
  std::lock_guard lock(mu_);
  for (const Scope &s : scopes_)
    for (const Rule &r : s.rules)
      if (r.spec.interface == iface && r.spec.rule.perConnection)
        return true;
  return false;
}

// One matching occurrence: pinned by the leaf, else the rule's own coin.
bool ProxyRuleTable::fires(Rule &r) {
  ++r.stats.matches;
  uint64_t k = r.occurrences++;
  std::optional<bool> pinned;
  if (r.spec.decisionOverride)
    pinned = r.spec.decisionOverride(k);
  bool fire = fireDecision(pinned, r.spec.rule.probability, r.rng);
  if (fire)
    ++r.stats.fires;
  return fire;
}

void ProxyRuleTable::notePassedOver(Rule &r, const std::string &method, const std::string &target) {
  ProxyRuleStats &st = r.stats;
  ++st.passedOver;
  if (st.seen.size() >= kMaxSeen)
    return;
  std::string unit = clippedField(method.empty()   ? target
                                  : target.empty() ? method
                                                   : method + " " + target,
                                  80);
  if (std::find(st.seen.begin(), st.seen.end(), unit) == st.seen.end())
    st.seen.push_back(std::move(unit));
}

ProxyDecision ProxyRuleTable::decide(size_t iface, ProxyUnit unit, const std::string &method,
                                     const std::string &target) {
  ProxyDecision d;
  const std::string upperMethod = llvm::StringRef(method).upper(); // rules hold theirs upper-cased
  std::lock_guard lock(mu_);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    for (Rule &r : scope->rules) {
      const ir::ProxyRule &pr = r.spec.rule;
      // duplicate() is installed only on a protocol whose messages it
      // re-delivers (ir::Protocol::duplicates: the UDP relay, a codec
      // framing messages); elsewhere it is a load error.
      if (r.spec.interface != iface || pr.perConnection != (unit == ProxyUnit::Connection))
        continue;
      bool replies = pr.action == ir::ProxyAction::Respond || pr.action == ir::ProxyAction::Error;
      if (replies && unit == ProxyUnit::Chunk) {
        ++r.stats.unframed;
        continue;
      }
      if (!proxyGlobMatch(r.method, r.exactMethod ? method : upperMethod) ||
          !proxyGlobMatch(r.target, target)) {
        notePassedOver(r, method, target);
        continue;
      }
      if (!fires(r))
        continue;
      if (!pr.label.empty())
        d.label = pr.label;
      if (pr.action == ir::ProxyAction::Delay) {
        d.delayNs = addSaturating(d.delayNs, pr.delayNs);
        if (!d.rule)
          d.rule = pr;
        continue;
      }
      d.action = pr.action;
      d.rule = pr;
      return d;
    }
  }
  return d;
}

} // namespace fbc::rt
