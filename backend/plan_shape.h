// What the plan's three forms (plan_emit.cpp: text and DOT; plan_json.cpp:
// JSON) show of an entry alike: its compositions and its proxy rules.
// Internal to backend/.
#pragma once

#include "ir/plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fbc::backend {

// One composition of an entry as the tree / DOT / JSON show it.
struct Composition {
  std::string kind; // fault_matrix, choose, probability, interleaving
  std::vector<const ir::PlanAxis *> axes;
};

// Compositions of an entry: the matrix axes are rendered separately; the
// choose and interleaving axes come from the body (shared by all cells of a
// matrix group); probability sites are the union over the cells.
std::vector<Composition> compositions(const ir::Plan &plan, const ir::PlanEntry &e);

// The proxy composition of an entry: every protocol rule its assumptions
// (composed ones included, each once) put on an interface, as
// "api.public (http): error(path=\"/kv/*\", status=503)", in assumption order.
std::vector<std::string> proxyRules(const ir::Spec &spec, const ir::PlanEntry &e);

} // namespace fbc::backend
