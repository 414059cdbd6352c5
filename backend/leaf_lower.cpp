#include "backend/leaf_lower.h"

namespace fbc::backend {

ir::LeafProgram lowerToLeaves(const ir::Plan &plan) {
  ir::LeafProgram out;
  out.spec = plan.spec;
  out.tests.reserve(plan.tests.size());
  for (const ir::PlanTest &pt : plan.tests) {
    ir::LeafTest lt;
    lt.test = pt.test;
    for (const ir::PlanAxis &pa : pt.axes) {
      ir::LeafAxis ax;
      ax.kind = pa.kind;
      ax.name = pa.name;
      ax.known = pa.size.has_value() && pa.unknown == ir::UnknownReason::None;
      ax.size = pa.factor();
      ax.unknown = pa.unknown;
      ax.loc = pa.loc;
      ax.values = pa.values;
      ax.maxFires = pa.maxFires;
      ax.branches = pa.branches;
      ax.policy = pa.policy;
      // A known axis of size 1 adds no leaves and no digit worth keeping.
      if (ax.known && ax.size <= 1)
        continue;
      lt.axes.push_back(std::move(ax));
    }
    lt.recount();
    out.total += lt.count;
    out.tests.push_back(std::move(lt));
  }
  return out;
}

} // namespace fbc::backend
