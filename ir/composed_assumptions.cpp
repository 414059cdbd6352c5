#include "ir/composed_assumptions.h"

#include <algorithm>

namespace fbc::ir {

void appendComposedAssumptions(const Spec &spec, std::string_view name,
                               std::vector<const FaultAssumption *> &out) {
  const FaultAssumption *a = spec.findAssumption(name);
  if (!a || std::find(out.begin(), out.end(), a) != out.end())
    return;
  out.push_back(a);
  for (const std::string &child : a->faults)
    appendComposedAssumptions(spec, child, out);
}

std::vector<const FaultAssumption *> composedAssumptions(const Spec &spec, std::string_view name) {
  std::vector<const FaultAssumption *> out;
  appendComposedAssumptions(spec, name, out);
  return out;
}

} // namespace fbc::ir
