// The plan / leaf-program verifier: see pipeline_verifier.h.
#include "ir/verify/pipeline_verifier.h"

#include "ir/fanout_sites.h"
#include "ir/quote.h"

#include <set>
#include <utility>

namespace fbc::ir {
namespace {

class Checker {
public:
  Checker(std::string_view after, frontend::DiagnosticList &diags) : after_(after), diags_(diags) {}

  void error(const Loc &loc, const std::string &msg) {
    diags_.error(loc.file, loc.pos, "verifier: after " + std::string(after_) + ": " + msg);
    ++errors_;
  }
  bool ok() const { return errors_ == 0; }

private:
  std::string_view after_;
  frontend::DiagnosticList &diags_;
  unsigned errors_ = 0;
};

std::string what(const Test &t, const PlanAxis &a) {
  return "test " + quote(t.name) + " " + axisKindName(a.kind) + " axis " + quote(a.name);
}

void checkAxis(Checker &c, const Spec &spec, const Test &t, const PlanAxis &a) {
  if (a.loc.valid() && (a.sites.empty() || a.sites.front().file != a.loc.file ||
                        !(a.sites.front().pos == a.loc.pos)))
    c.error(a.loc, what(t, a) + ": its first call site is not its location");
  // The run finds a probabilistic rule's axis by where the rule comes into
  // force: an axis without such a site is one no rule can take.
  if (a.kind == AxisKind::Probability && a.ruleSites.empty())
    c.error(a.loc, what(t, a) + ": no rule site");
  for (const RuleSite &s : a.ruleSites)
    if (s.service >= int(spec.services.size()))
      c.error(a.loc, what(t, a) + ": rule site " + s.str() + " names no service");
  if (!a.size)
    return;
  if (*a.size == 0)
    c.error(a.loc, what(t, a) + ": size 0");
  if (a.kind == AxisKind::Probability && a.maxFires > 0 && a.maxFires < 64 &&
      *a.size != uint64_t(1) << a.maxFires)
    c.error(a.loc, what(t, a) + ": size " + std::to_string(*a.size) + " is not 2^max_fires (" +
                       std::to_string(a.maxFires) + ")");
  if (a.kind == AxisKind::Interleaving && a.branches && !a.policy.empty()) {
    std::string error;
    std::optional<ParallelPolicy> p = a.policy == "all" || a.policy == "critical"
                                          ? parallelPolicyOf(a.policy, error)
                                          : parallelPolicyOf(std::stoll(a.policy), error);
    std::optional<uint64_t> want = p ? p->size(a.branches) : std::nullopt;
    if (want != a.size)
      c.error(a.loc, what(t, a) + ": size " + std::to_string(*a.size) + " is not the size of " +
                         std::to_string(a.branches) + " branches under policy " + a.policy);
  }
}

} // namespace

bool verifyPlan(const Plan &plan, std::string_view after, bool counted,
                frontend::DiagnosticList &diags) {
  Checker c(after, diags);
  const Spec *spec = plan.spec;
  if (!spec || plan.tests.size() != spec->tests.size()) {
    c.error(Loc{}, "the plan has " + std::to_string(plan.tests.size()) + " tests, the spec " +
                       std::to_string(spec ? spec->tests.size() : 0));
    return false;
  }
  for (size_t i = 0; i < plan.tests.size(); ++i) {
    const PlanTest &pt = plan.tests[i];
    if (pt.test != &spec->tests[i]) {
      c.error(spec->tests[i].loc,
              "plan test " + std::to_string(i) + " is not spec test " + quote(spec->tests[i].name));
      continue;
    }
    const Test &t = *pt.test;
    std::set<std::pair<int, std::string>> keys;
    int lastKind = 0;
    Count product{1, true};
    for (const PlanAxis &a : pt.axes()) {
      int kind = int(a.kind);
      if (kind < lastKind)
        c.error(a.loc, what(t, a) + ": out of leaf-enumeration order (choose, probability, "
                                    "interleaving)");
      lastKind = std::max(lastKind, kind);
      if (!keys.emplace(kind, a.name).second)
        c.error(a.loc, what(t, a) + ": a second axis with this key");
      checkAxis(c, *spec, t, a);
      product *= axisCount(a);
    }
    if (counted && (pt.count.value != product.value || pt.count.exact != product.exact))
      c.error(t.loc, "test " + quote(t.name) + ": count " + pt.count.str() +
                         " is not the product of its axes (" + product.str() + ")");
  }
  return c.ok();
}

bool verifyLeafProgram(const Plan &plan, const LeafProgram &leaves, std::string_view after,
                       frontend::DiagnosticList &diags) {
  Checker c(after, diags);
  if (leaves.tests.size() != plan.tests.size()) {
    c.error(Loc{}, "the leaf program has " + std::to_string(leaves.tests.size()) +
                       " tests, the plan " + std::to_string(plan.tests.size()));
    return false;
  }
  size_t services = plan.spec ? plan.spec->services.size() : 0;
  Count total{0, true};
  for (size_t i = 0; i < leaves.tests.size(); ++i) {
    const LeafTest &lt = leaves.tests[i];
    const PlanTest &pt = plan.tests[i];
    if (lt.test != pt.test) {
      c.error(pt.test ? pt.test->loc : Loc{},
              "leaf test " + std::to_string(i) + " is not plan test " + std::to_string(i));
      continue;
    }
    const Test &t = *lt.test;
    size_t next = 0; // the plan axis the next leaf axis may reference
    Count product{1, true};
    for (const LeafAxis &a : lt.axes) {
      size_t found = next;
      while (found < pt.axes().size() && !samePlanAxis(pt.axes()[found], a.plan))
        ++found;
      if (found == pt.axes().size()) {
        c.error(t.loc, "test " + quote(t.name) +
                           ": a leaf axis references no axis of its plan test (or is out of "
                           "order)");
        break;
      }
      for (size_t k = next; k < found; ++k)
        if (!pt.axes()[k].dpor() &&
            (pt.axes()[k].size != 1u || pt.axes()[k].unknown != UnknownReason::None))
          c.error(pt.axes()[k].loc, what(t, pt.axes()[k]) + ": dropped by the lowering");
      next = found + 1;
      const PlanAxis &p = a.plan;
      bool known = p.size.has_value() && p.unknown == UnknownReason::None;
      if (a.size != p.factor() || a.known != known)
        c.error(p.loc, what(t, p) + ": leaf size " + std::to_string(a.size) +
                           " is not the plan's " + std::to_string(p.factor()));
      product *= Count{std::max<uint64_t>(1, a.size), a.known};
    }
    if (lt.explored() || lt.dpor) // its leaves are the release orders the run finds
      product.exact = false;
    if (lt.count.value != product.value || lt.count.exact != product.exact)
      c.error(t.loc, "test " + quote(t.name) + ": " + lt.count.str() +
                         " leaves is not the product of its axes (" + product.str() + ")");
    total += lt.count;
    if (lt.traps.size() != services) {
      c.error(t.loc, "test " + quote(t.name) + ": trap sets for " +
                         std::to_string(lt.traps.size()) + " services, the spec has " +
                         std::to_string(services));
      continue;
    }
    for (size_t s = 0; s < services; ++s)
      for (size_t k = 1; k < lt.traps[s].size(); ++k)
        if (!(lt.traps[s][k - 1] < lt.traps[s][k]))
          c.error(t.loc, "test " + quote(t.name) + ": the trap set of service " +
                             quote(plan.spec->services[s].name) + " is not sorted and unique");
    for (const LeafTest::OptionTraps &o : lt.optionTraps)
      if (o.axis >= lt.axes.size() || lt.axes[o.axis].kind() != AxisKind::Choose ||
          o.option >= lt.axes[o.axis].size || o.service >= services || o.syscalls.empty())
        c.error(t.loc, "test " + quote(t.name) + ": option traps of axis " +
                           std::to_string(o.axis) + " option " + std::to_string(o.option) +
                           " name no choose option or no service");
  }
  if (total.value != leaves.total.value || total.value != plan.total.value)
    c.error(Loc{}, "total " + leaves.total.str() + " is not the sum of the tests' leaves (" +
                       total.str() + ") or the plan's total (" + plan.total.str() + ")");
  return c.ok();
}

} // namespace fbc::ir
