// The first difference between two leaf programs (what the text form's
// round trip is checked with) and the pipeline verifier's plan-axis test.
#include "ir/leaf_program.h"

#include "ir/fanout_sites.h"
#include "ir/quote.h"

#include <algorithm>
#include <string>
#include <utility>

namespace fbc::ir {

namespace {

bool sameSites(const std::vector<Loc> &a, const std::vector<Loc> &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), sameLoc);
}

bool sameRuleSite(const RuleSite &r, const RuleSite &s) {
  return sameLoc(r.rule, s.rule) && sameLoc(r.at, s.at) && r.keyword == s.keyword &&
         r.service == s.service;
}

// The first field two plan axes differ in, or null.
const char *planAxisDifference(const PlanAxis &a, const PlanAxis &b) {
  const std::pair<const char *, bool> fields[] = {
      {"kind", a.kind == b.kind},
      {"name", a.name == b.name},
      {"plan size", a.size == b.size && a.unknown == b.unknown},
      {"loc", sameLoc(a.loc, b.loc)},
      {"values", a.values == b.values},
      {"constants", a.constants == b.constants && a.named == b.named},
      {"max_fires", a.maxFires == b.maxFires},
      {"probability", a.probability == b.probability && a.fault == b.fault},
      {"branches/policy", a.branches == b.branches && a.policy == b.policy},
      {"fan_out", a.fanOut == b.fanOut && a.waitsFor == b.waitsFor},
      {"sites", sameSites(a.sites, b.sites)},
      {"rule sites", std::equal(a.ruleSites.begin(), a.ruleSites.end(), b.ruleSites.begin(),
                                b.ruleSites.end(), sameRuleSite)},
  };
  for (const auto &[name, same] : fields)
    if (!same)
      return name;
  return nullptr;
}

bool sameRule(const LoweredRule &r, const LoweredRule &s) {
  return r.service == s.service && r.keyword == s.keyword && r.syscalls == s.syscalls &&
         r.action == s.action && r.errnoNumber == s.errnoNumber && r.delayNs == s.delayNs &&
         r.probability == s.probability && r.leafBits == s.leafBits && r.label == s.label &&
         r.pathGlob == s.pathGlob && r.siteKey == s.siteKey && r.fault == s.fault &&
         sameRuleSite(r.site, s.site);
}

const char *axisDifference(const LeafAxis &x, const LeafAxis &y) {
  if (x.size != y.size || x.known != y.known)
    return "size";
  return planAxisDifference(x.plan, y.plan);
}

} // namespace

std::string leafProgramDifference(const LeafProgram &a, const LeafProgram &b) {
  if (a.assumptions.size() != b.assumptions.size())
    return "assumption count";
  for (size_t i = 0; i < a.assumptions.size(); ++i) {
    const LoweredAssumption &x = a.assumptions[i], &y = b.assumptions[i];
    std::string where = "assumption " + quote(x.name) + ": ";
    if (x.name != y.name || x.rules.size() != y.rules.size())
      return where + "name or rule count";
    for (size_t k = 0; k < x.rules.size(); ++k)
      if (!sameRule(x.rules[k], y.rules[k]))
        return where + "rule " + std::to_string(k);
    if (x.proxyRules.size() != y.proxyRules.size())
      return where + "proxy rule count";
    for (size_t k = 0; k < x.proxyRules.size(); ++k) {
      const LoweredProxyRule &r = x.proxyRules[k], &s = y.proxyRules[k];
      bool same = r.service == s.service && r.interface == s.interface && r.source == s.source &&
                  r.target == s.target && r.leafBits == s.leafBits && r.siteKey == s.siteKey &&
                  r.fault == s.fault && r.index == s.index && sameLoc(r.site.rule, s.site.rule) &&
                  sameLoc(r.site.at, s.site.at) && r.site.keyword == s.site.keyword &&
                  r.site.service == s.site.service;
      if (!same)
        return where + "proxy rule " + std::to_string(k);
    }
  }
  const ExploreOptions &ea = a.explore, &eb = b.explore;
  if (ea.policy != eb.policy || ea.budget != eb.budget || ea.settleNs != eb.settleNs ||
      ea.quietBoundNs != eb.quietBoundNs)
    return "explore";
  if (a.tests.size() != b.tests.size())
    return std::to_string(a.tests.size()) + " tests vs " + std::to_string(b.tests.size());
  if (a.total.str() != b.total.str())
    return "total " + a.total.str() + " vs " + b.total.str();
  for (size_t i = 0; i < a.tests.size(); ++i) {
    const LeafTest &x = a.tests[i], &y = b.tests[i];
    std::string t = "test " + quote(x.test ? x.test->name : "?") + ": ";
    if (x.test != y.test)
      return t + "another test";
    if (x.axes.size() != y.axes.size())
      return t + "axis count";
    for (size_t k = 0; k < x.axes.size(); ++k)
      if (const char *d = axisDifference(x.axes[k], y.axes[k]))
        return t + "axis " + std::to_string(k) + " " + d;
    if (x.count.str() != y.count.str())
      return t + "count";
    if (x.traps != y.traps)
      return t + "traps";
    if (x.optionTraps.size() != y.optionTraps.size())
      return t + "option traps";
    for (size_t k = 0; k < x.optionTraps.size(); ++k) {
      const LeafTest::OptionTraps &o = x.optionTraps[k], &p = y.optionTraps[k];
      if (o.axis != p.axis || o.option != p.option || o.service != p.service ||
          o.syscalls != p.syscalls)
        return t + "option traps " + std::to_string(k);
    }
    if (x.observes != y.observes)
      return t + "observes";
    if (x.proxies != y.proxies)
      return t + "proxies";
    if (x.holds != y.holds)
      return t + "holds";
    if (x.callRules.size() != y.callRules.size())
      return t + "call rule count";
    for (size_t k = 0; k < x.callRules.size(); ++k)
      if (!sameRule(x.callRules[k], y.callRules[k]))
        return t + "call rule " + std::to_string(k);
    if (x.dpor != y.dpor)
      return t + "dpor";
    if (x.needs.size() != y.needs.size())
      return t + "needs";
    for (size_t k = 0; k < x.needs.size(); ++k)
      if (!(x.needs[k] == y.needs[k]) || !sameLoc(x.needs[k].loc, y.needs[k].loc))
        return t + "need " + std::to_string(k);
  }
  return "";
}

bool samePlanAxis(const PlanAxis &a, const PlanAxis &b) {
  return planAxisDifference(a, b) == nullptr;
}

} // namespace fbc::ir
