// Lowering: per test, the axes the leaves enumerate (the plan's axes,
// referenced; a known axis of size 1 adds no digit), its count, and the
// syscall numbers each service's filter traps (passes/trap_scan.h), per
// leaf where a planned choose() option changes them; what the test needs of
// the machine.
#include "backend/leaf_lower.h"

#include "backend/rule_lower.h"

#include "ir/quote.h"
#include "ir/syscalls.h"
#include "ir/temporal.h"
#include "ir/unmediated.h"
#include "passes/trap_scan.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

namespace fbc::backend {
namespace {

// The trap sets (passes/trap_scan.h) as numbers: what every leaf traps,
// and what the leaves taking one option of a planned choose() add; what
// each filter observes; the proxied interfaces.
void lowerTraps(const ir::Spec &spec, ir::LeafTest &lt, const ir::ExploreOptions &explore) {
  std::vector<passes::ChoiceSite> choices;
  for (size_t a = 0; a < lt.axes.size(); ++a) {
    const ir::PlanAxis &p = lt.axes[a].plan;
    if (p.kind == ir::AxisKind::Choose && lt.axes[a].known)
      for (const ir::Loc &site : p.sites)
        choices.push_back({site, a, p.values.size()});
  }
  passes::TrapScan scan = passes::scanTraps(spec, *lt.test, choices);
  lt.traps = trapNumbers(scan.all);
  lt.holds.assign(spec.services.size(), {});
  bool exploring = explore.policy != ir::ExploreOptions::Policy::None || lt.dpor;
  if (exploring && scan.parallel && lt.axes.empty()) {
    std::set<int> held;
    for (const char *kw : ir::kExploreHeld)
      for (int nr : ir::syscallNumbers(kw))
        held.insert(nr);
    for (size_t s = 0; s < spec.services.size(); ++s) {
      if (!spec.services[s].seccomp || spec.services[s].isRemote() || spec.services[s].mock ||
          spec.services[s].isContainer() || scan.nondet[s])
        continue;
      lt.holds[s].assign(held.begin(), held.end());
      std::set<int> traps(lt.traps[s].begin(), lt.traps[s].end());
      traps.insert(held.begin(), held.end());
      lt.traps[s].assign(traps.begin(), traps.end());
    }
  }
  std::map<std::tuple<size_t, uint64_t, size_t>, std::set<int>> extra;
  for (const passes::TrapScan::Option &o : scan.options) {
    std::vector<std::vector<int>> sets = trapNumbers(o.traps);
    for (size_t s = 0; s < sets.size(); ++s) {
      std::set<int> &add = extra[{o.axis, o.option, s}];
      std::set_difference(sets[s].begin(), sets[s].end(), lt.traps[s].begin(), lt.traps[s].end(),
                          std::inserter(add, add.end()));
    }
  }
  for (auto &[key, nrs] : extra)
    if (!nrs.empty())
      lt.optionTraps.push_back(
          {std::get<0>(key), std::get<1>(key), std::get<2>(key), {nrs.begin(), nrs.end()}});
  // determinism() at L1 observes every unmediated source; otherwise only
  // the bypasses of the families a rule could name in some leaf (an event
  // needs a rule in force, so a leaf without one records none).
  bool detect = spec.determinism.explicitCall && spec.determinism.level == "L1";
  for (size_t s = 0; s < scan.all.size(); ++s) {
    std::vector<std::string> names = scan.all[s];
    for (const passes::TrapScan::Option &o : scan.options)
      names.insert(names.end(), o.traps[s].begin(), o.traps[s].end());
    lt.observes.push_back(spec.services[s].seccomp ? ir::observedFor(names, detect)
                                                   : std::vector<std::string>{});
  }
  lt.proxies = std::move(scan.proxies);
  // A body fault() call's keywords, lowered per site (the fault's value
  // is bound when the call runs: backend::bindFault).
  for (const passes::TrapScan::CallKeyword &k : scan.callKeywords)
    lowerKeyword(spec, int(k.service), k.keyword, k.at, lt.callRules);
  for (const ir::Service &svc : spec.services)
    lt.needs.insert(lt.needs.end(), svc.needs.begin(), svc.needs.end());
  for (const ir::Client &c : spec.clients)
    lt.needs.insert(lt.needs.end(), c.needs.begin(), c.needs.end());
  // fbc's proxy terminates TLS on a TLS interface with the tls_cert's
  // proxy_cert (runtime/proxy/tls_bridge.h): without one it has nothing to
  // present to the interface's callers, so such a test is not run.
  for (size_t s = 0; s < lt.proxies.size(); ++s)
    for (const std::string &name : lt.proxies[s])
      if (const ir::Interface *i = spec.services[s].findInterface(name);
          i && i->tls && (i->tls->proxyCert.empty() || i->tls->proxyKey.empty())) {
        ir::HostNeed n;
        n.subject = "interface " + ir::quote(spec.services[s].name + "." + name);
        n.what = "protocol faults on a TLS interface need tls_cert(proxy_cert=, proxy_key=): "
                 "fbc's proxy terminates TLS and presents that certificate to the callers";
        n.loc = i->loc;
        lt.needs.push_back(std::move(n));
      }
  lt.needs.insert(lt.needs.end(), scan.needs.begin(), scan.needs.end());
  for (ir::HostNeed &n : ir::temporalNeeds(spec, *lt.test))
    lt.needs.push_back(std::move(n));
}

} // namespace

std::vector<std::vector<int>> trapNumbers(const std::vector<std::vector<std::string>> &names) {
  std::vector<std::set<int>> sets(names.size());
  std::set<int> dest;
  for (size_t s = 0; s < names.size(); ++s)
    for (const std::string &n : names[s])
      for (int nr : ir::syscallNumbers(n)) {
        sets[s].insert(nr);
        if (ir::isDestinationSyscall(ir::syscallNameOf(nr)))
          dest.insert(nr);
      }
  std::vector<std::vector<int>> out;
  for (std::set<int> &s : sets) {
    s.insert(dest.begin(), dest.end());
    out.emplace_back(s.begin(), s.end());
  }
  return out;
}

ir::LeafProgram lowerToLeaves(const ir::Plan &plan) {
  return lowerExploring(plan, ir::ExploreOptions{});
}

ir::LeafProgram lowerExploring(const ir::Plan &plan, const ir::ExploreOptions &explore) {
  ir::LeafProgram out;
  out.spec = plan.spec;
  out.explore = explore;
  out.assumptions = lowerAssumptions(*plan.spec);
  out.tests.reserve(plan.tests.size());
  for (const ir::PlanTest &pt : plan.tests) {
    ir::LeafTest lt;
    lt.test = pt.test;
    for (const ir::PlanAxis &pa : pt.axes()) {
      if (pa.dpor()) { // explored at run time, not a leaf axis
        lt.dpor = ir::LeafTest::Dpor{pa.preemptions};
        continue;
      }
      ir::LeafAxis ax;
      ax.plan = pa;
      ax.known = pa.size.has_value() && pa.unknown == ir::UnknownReason::None;
      ax.size = pa.factor();
      // A known axis of size 1 adds no leaves and no digit worth keeping.
      if (ax.known && ax.size <= 1)
        continue;
      lt.axes.push_back(ax);
    }
    lowerTraps(*plan.spec, lt, explore);
    lt.recount();
    out.total += lt.count;
    out.tests.push_back(std::move(lt));
  }
  bool dpor = std::any_of(out.tests.begin(), out.tests.end(),
                          [](const ir::LeafTest &t) { return t.dpor.has_value(); });
  if (!out.explore.budget && dpor) // a dpor site is explored without --explore
    out.explore.budget = ir::defaultExploreBudget(explore.policy);
  return out;
}

passes::PassManager leafPipeline(bool coverage, ir::ExploreOptions explore) {
  passes::PassManager pm = passes::PassManager::planPipeline(coverage);
  pm.setLowering({"leaves", [explore](const ir::Plan &p) { return lowerExploring(p, explore); }});
  return pm;
}

} // namespace fbc::backend
