// The attributes of a step's result whose type does not depend on what the
// service answered (a response, a pg_result, a mysql_result: the same fields
// whether the call succeeded or not). A name outside the type's table is a
// mistake of the spec that only the run can see (`resp.stauts`), not data
// the service sent: an error row with UNKNOWN_ATTRIBUTE and the frontend's
// message, located at the body's line. A value whose fields follow the
// answer (an event's fields, a Redis reply or redis_error, decoded JSON)
// keeps Starlark's plain error: a fail.
//
// attr() fails rather than return null: hasattr() then answers from
// attrNames() and getattr() with a default returns it (frontend/lib/
// universe_core.cpp), so asking about a name is never an error.
#pragma once

#include "frontend/lib/attr_table.h"
#include "frontend/lib/spellcheck.h"
#include "ir/builtins/call_site.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

template <typename Self>
star::Value fixedAttribute(std::span<const star::Attribute<Self>> table, Self &self,
                           star::Thread &t, std::string_view name) {
  if (star::Value v = star::lookupAttribute<Self>(table, self, t, name))
    return v;
  std::vector<std::string> names;
  star::attributeNames<Self>(table, names);
  ir::builtins::failMistake(t, ir::DiagCode::UnknownAttribute,
                            star::noFieldMessage(Self::kTypeName, name, names));
}

} // namespace fbc::rt
