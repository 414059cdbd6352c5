// The attributes of a Starlark value type, declared once: each name with
// how its value is made. A type's attr() looks the name up in its table and
// its attrNames() (dir(), "did you mean", json.encode) lists the same table,
// so the two cannot disagree. Tables are kept in name order, the order
// attrNames() reports.
#pragma once

#include "frontend/lib/value.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::star {

class Thread;

template <typename Self> struct Attribute {
  std::string_view name;
  Value (*get)(Self &self, Thread &t);
};

// The value of attribute `name` of `self`, or a null Value when the table
// has no such name (the caller's "has no attribute" error).
template <typename Self>
Value lookupAttribute(std::span<const Attribute<Self>> table, Self &self, Thread &t,
                      std::string_view name) {
  for (const Attribute<Self> &a : table)
    if (a.name == name)
      return a.get(self, t);
  return Value();
}

template <typename Self>
void attributeNames(std::span<const Attribute<Self>> table, std::vector<std::string> &out) {
  for (const Attribute<Self> &a : table)
    out.emplace_back(a.name);
}

} // namespace fbc::star
