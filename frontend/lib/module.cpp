// Module values: a load()ed module's exports, or assert-style `module(...)`
// namespaces (Go's starlarkstruct.Module).
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/universe/universe_helpers.h"
#include "frontend/lib/utf8.h"

#include <algorithm>
#include <string>

namespace fbc::star {

void Module::repr(Printer &p) const {
  std::string quoted; // Go's %q
  utf8::appendQuoted(quoted, moduleName);
  p.write("<module ");
  p.write(quoted);
  p.write('>');
}

uint32_t Module::hash(Thread &t) const {
  t.fail("unhashable: module");
}

// Null when absent: the caller reports "module has no .x field or method"
// with a spelling suggestion.
Value Module::attr(Thread &, std::string_view name) {
  auto it = std::lower_bound(members.begin(), members.end(), name,
                             [](const auto &m, std::string_view n) { return m.first < n; });
  if (it != members.end() && it->first == name)
    return it->second;
  return Value();
}

void Module::setField(Thread &t, std::string_view name, Value) {
  t.fail("can't assign to ." + std::string(name) + " field of module");
}

void Module::attrNames(std::vector<std::string> &out) const {
  for (const auto &m : members)
    out.push_back(m.first);
}

void Module::freeze() {
  if (frozen_)
    return;
  frozen_ = true;
  for (const auto &m : members)
    freezeValue(m.second);
}

} // namespace fbc::star
