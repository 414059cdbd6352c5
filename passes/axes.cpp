// The axes pass: per test, the fan-out axes, in leaf-enumeration order (see
// ir/plan.h).
//
// From the test body's AST (the def, the scenario function, test(body=)),
// walked pre-order including nested defs and lambdas:
//   choose("name", options)  a choose axis. The name is the string literal
//       (or a module string constant); otherwise "choose#k" (k counts such
//       sites in the body from 1). Options: a list literal is sized by its
//       elements; a module-level constant list (globals are bound once and
//       frozen after load) is sized and rendered from its value; anything
//       else is computed, size unknown. A repeated name is one axis (the
//       first site), as the run de-duplicates by name. Anonymous
//       choose([...]) is single-leaf at run time and is not an axis.
//   fault(target, kw=deny(...)/delay(...), ...), fault_start, fault_all
//       a probability site per rule with probability<1 and max_fires=N:
//       2^N outcomes, key = label, else "<service>:<keyword>".
//   parallel(f1, ..., fB, interleavings=P)  an interleaving site: "all" B!,
//       "critical" min(2B-1, B!), N min(N, B!); 1 / omitted: no axis.
//   helper(...)  a call to a module function that (transitively) calls a
//       named choose(): recorded, not attributed (the run will not fan out).
// From the fault assumptions a fault_scenario / matrix cell installs
// (composed assumptions flattened depth-first): a probability site per
// rule with probability<1 and max_fires=N.
// A probabilistic rule without max_fires= (and not mode="stochastic") is
// recorded as unmodeled fan-out.
#include "passes/axes_sites.h"
#include "passes/pass_manager.h"

#include "frontend/eval/function.h"
#include "ir/composed_assumptions.h"

#include <llvm/ADT/ArrayRef.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <string>

namespace fbc::passes {
namespace axes {

// A service's index in the spec (ir::RuleSite::service); -1 for none.
int serviceIndex(const ir::Spec &spec, const ir::Service *s) {
  return s ? int(s - spec.services.data()) : -1;
}

// A proxy rule's probability knobs as a fault's (the site is the same
// shape: probability, max_fires, mode, label).
ir::Fault proxyKnobs(const ir::ProxyRule &r) {
  ir::Fault f;
  f.probability = r.probability;
  f.maxFires = r.maxFires;
  f.mode = r.mode;
  f.label = r.label;
  f.loc = r.loc;
  return f;
}

void ruleSite(const ir::Fault &f, const std::string &service, const std::string &keyword,
              const std::string &fault, const ir::Loc &ruleLoc, std::string where,
              ir::RuleSite site, std::vector<ir::PlanAxis> &sites,
              std::vector<ir::UnmodeledFanout> &unmodeled) {
  if (f.action == ir::FaultAction::Allow || f.probability >= 1)
    return;
  if (f.maxFires <= 0) {
    if (f.mode != ir::FaultMode::Stochastic)
      unmodeled.push_back({std::move(where), f.probability, f.loc.valid() ? f.loc : ruleLoc});
    return;
  }
  ir::PlanAxis ax;
  ax.kind = ir::AxisKind::Probability;
  ax.name = ir::probabilitySiteKey(f.label, service.empty() ? "?" : service, keyword);
  ax.maxFires = f.maxFires;
  ax.probability = f.probability;
  ax.fault = fault;
  ax.loc = f.loc.valid() ? f.loc : ruleLoc;
  ax.ruleSites.push_back(std::move(site));
  if (f.maxFires < 64)
    ax.size = uint64_t(1) << f.maxFires;
  else
    ax.unknown = ir::UnknownReason::TooLarge;
  addUnique(sites, std::move(ax));
}

// An axis per key: a second site with the same key (choose name,
// parallel line, probability key) joins the first axis as a call site.
void addUnique(std::vector<ir::PlanAxis> &axes, ir::PlanAxis ax) {
  for (ir::PlanAxis &a : axes)
    if (a.name == ax.name) {
      if (ax.loc.valid())
        a.sites.push_back(ax.loc);
      joinRuleSites(a, ax);
      return;
    }
  if (ax.sites.empty() && ax.loc.valid())
    ax.sites.push_back(ax.loc);
  axes.push_back(std::move(ax));
}

// `from`'s rule sites join `into` (one probability key, one axis).
void joinRuleSites(ir::PlanAxis &into, const ir::PlanAxis &from) {
  for (const ir::RuleSite &s : from.ruleSites) {
    bool known = false;
    for (const ir::RuleSite &t : into.ruleSites)
      known = known || (ir::ruleSiteMatches(t, s) && t.service == s.service);
    if (!known)
      into.ruleSites.push_back(s);
  }
}

// Probability sites and unmodeled rules of the assumptions a fault
// scenario / matrix cell installs.
void assumptionSites(const ir::Spec &spec, const std::vector<std::string> &faults,
                     std::vector<ir::PlanAxis> &sites,
                     std::vector<ir::UnmodeledFanout> &unmodeled) {
  std::vector<const ir::FaultAssumption *> installed;
  for (const std::string &f : faults) {
    size_t from = installed.size();
    ir::appendComposedAssumptions(spec, f, installed);
    for (size_t i = from; i < installed.size(); ++i) {
      const ir::FaultAssumption *a = installed[i];
      int svc = serviceIndex(spec, spec.findService(a->target.service));
      for (const ir::FaultRule &r : a->rules)
        ruleSite(r.fault, a->target.service, r.keyword, f, r.loc,
                 "fault_assumption \"" + a->name + "\" rule " + r.keyword,
                 {r.fault.loc, r.loc, r.keyword, svc}, sites, unmodeled);
      for (const ir::ProxyRule &r : a->proxyRules) {
        std::string action(ir::proxyActionName(r.action));
        ruleSite(proxyKnobs(r), a->target.service + "." + a->target.interface, action, f, r.loc,
                 "fault_assumption \"" + a->name + "\" rule " + r.display(),
                 {r.loc, a->loc, action, svc}, sites, unmodeled);
      }
    }
  }
}

} // namespace axes

namespace {

using namespace axes;

// What a body contributes, cached per syntax::Function (matrix cells share
// their scenario function). Kept as the shape of a test that installs no
// faults, so that such a test (one per body, most often) shares it instead
// of holding a second copy.
struct BodyAxes {
  std::shared_ptr<const ir::PlanTestShape> plain; // null: nothing found
  size_t choose = 0, probability = 0;             // plain->axes: choose, probability, interleaving

  bool empty() const { return !plain; }
  llvm::ArrayRef<ir::PlanAxis> axes() const {
    return plain ? llvm::ArrayRef<ir::PlanAxis>(plain->axes) : llvm::ArrayRef<ir::PlanAxis>();
  }
  llvm::ArrayRef<ir::PlanAxis> chooseAxes() const { return axes().take_front(choose); }
  llvm::ArrayRef<ir::PlanAxis> probabilityAxes() const { return axes().slice(choose, probability); }
  llvm::ArrayRef<ir::PlanAxis> interleavingAxes() const {
    return axes().drop_front(choose + probability);
  }
};

class AxesBuilder {
public:
  AxesBuilder(const ir::Spec &spec) : spec_(spec), scanner_(spec) {}

  const BodyAxes &body(const ir::FunctionRef &ref) {
    auto it = cache_.find(ref.syntax);
    if (it != cache_.end())
      return it->second;
    BodyAxes &out = cache_[ref.syntax];
    const star::ModuleEnv *mod = nullptr;
    const frontend::SourceFile *file = ref.loc.file;
    if (auto *fn = ref.value.as<star::Function>()) {
      mod = fn->module;
      if (fn->code->file)
        file = fn->code->file;
    }
    BodyScan scan;
    if (ref.syntax)
      scanner_.scan(*ref.syntax, mod, file, scan);
    if (scan.choose.empty() && scan.probability.empty() && scan.interleaving.empty() &&
        scan.helpers.empty() && scan.unmodeled.empty() && scan.errors.empty())
      return out;
    auto plain = std::make_shared<ir::PlanTestShape>();
    out.choose = scan.choose.size();
    out.probability = scan.probability.size();
    // Sized once: a plan holds thousands of these vectors, and growing them
    // leaves up to half of each unused.
    plain->axes.reserve(out.choose + out.probability + scan.interleaving.size());
    for (auto *part : {&scan.choose, &scan.probability, &scan.interleaving})
      std::move(part->begin(), part->end(), std::back_inserter(plain->axes));
    plain->helperChooses = std::move(scan.helpers);
    plain->unmodeled = std::move(scan.unmodeled);
    plain->argErrors = std::move(scan.errors);
    plain->helperChooses.shrink_to_fit();
    plain->unmodeled.shrink_to_fit();
    plain->argErrors.shrink_to_fit();
    out.plain = std::move(plain);
    return out;
  }

  const ir::Spec &spec() const { return spec_; }

private:
  const ir::Spec &spec_;
  BodyScanner scanner_;
  std::map<const syntax::Function *, BodyAxes> cache_;
};

// The shape of a test with `body` that installs `t.faults`.
std::shared_ptr<const ir::PlanTestShape> buildShape(AxesBuilder &b, const ir::Test &t,
                                                    const BodyAxes &body) {
  auto shape = std::make_shared<ir::PlanTestShape>();
  std::vector<ir::PlanAxis> prob;
  assumptionSites(b.spec(), t.faults, prob, shape->unmodeled);
  // A body site with the key of an assumption's joins that axis: its
  // rules come into force at its own sites.
  std::vector<const ir::PlanAxis *> fromBody;
  for (const ir::PlanAxis &a : body.probabilityAxes()) {
    auto same = [&](const ir::PlanAxis &p) { return p.name == a.name; };
    auto it = std::find_if(prob.begin(), prob.end(), same);
    if (it != prob.end())
      joinRuleSites(*it, a);
    else
      fromBody.push_back(&a);
  }
  llvm::ArrayRef<ir::PlanAxis> choose = body.chooseAxes(), inter = body.interleavingAxes();
  std::vector<ir::PlanAxis> &axes = shape->axes;
  axes.reserve(choose.size() + prob.size() + fromBody.size() + inter.size());
  axes.insert(axes.end(), choose.begin(), choose.end());
  std::move(prob.begin(), prob.end(), std::back_inserter(axes));
  for (const ir::PlanAxis *a : fromBody)
    axes.push_back(*a);
  axes.insert(axes.end(), inter.begin(), inter.end());
  if (body.plain) {
    shape->helperChooses = body.plain->helperChooses;
    shape->argErrors = body.plain->argErrors;
    shape->unmodeled.insert(shape->unmodeled.end(), body.plain->unmodeled.begin(),
                            body.plain->unmodeled.end());
  }
  if (axes.empty() && shape->helperChooses.empty() && shape->unmodeled.empty() &&
      shape->argErrors.empty())
    return nullptr;
  return shape;
}

struct FaultsLess {
  bool operator()(const std::vector<std::string> *a, const std::vector<std::string> *b) const {
    return *a < *b;
  }
};

} // namespace

void runAxesPass(const ir::Spec &spec, ir::Plan &plan) {
  AxesBuilder b(spec);
  plan.tests.clear();
  plan.tests.reserve(spec.tests.size());
  // A test whose body has no axes (a matrix cell's scenario, most often)
  // has the shape of its faults alone: one per distinct list of faults.
  std::map<const std::vector<std::string> *, std::shared_ptr<const ir::PlanTestShape>, FaultsLess>
      byFaults;
  for (const ir::Test &t : spec.tests) {
    ir::PlanTest pt;
    pt.test = &t;
    const BodyAxes &body = b.body(t.body);
    bool assumes = t.kind == ir::TestKind::FaultScenario || t.kind == ir::TestKind::FaultMatrix;
    if (!assumes) {
      pt.shape = body.plain;
    } else if (body.empty()) {
      auto [it, added] = byFaults.try_emplace(&t.faults);
      if (added)
        it->second = buildShape(b, t, body);
      pt.shape = it->second;
    } else {
      pt.shape = buildShape(b, t, body);
    }
    plan.tests.push_back(std::move(pt));
  }
}

} // namespace fbc::passes
