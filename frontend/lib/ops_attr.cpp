// Attribute access: x.name reads a field (Object::attr) or binds a method
// from the type's method table; errors carry Go's spelling suggestion.
#include "frontend/lib/methods.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/spellcheck.h"

#include <algorithm>

namespace fbc::star {

Value getAttrOrNull(Thread &t, Value x, std::string_view name) {
  if (!x.isObject())
    return Value();
  Object *o = x.obj();
  if (Value v = o->attr(t, name))
    return v;
  if (const Method *m = findMethod(o->kind(), name))
    return Value::object(t.heap.make<Builtin>(m->name, m->fn, x));
  return Value();
}

Value getAttr(Thread &t, Value x, std::string_view name) {
  if (Value v = getAttrOrNull(t, x, name))
    return v;
  std::vector<std::string> names = attrNames(x);
  // starlarkstruct words its error differently from the core types.
  if (!x.isObject() || x.obj()->kind() != Kind::Struct)
    t.fail(noFieldMessage(typeName(x), name, names));
  std::string msg = std::string(typeName(x)) + " has no ." + std::string(name) + " attribute";
  std::string_view suggestion = nearestName(name, names);
  if (!suggestion.empty())
    msg += " (did you mean ." + std::string(suggestion) + "?)";
  t.fail(std::move(msg));
}

void setField(Thread &t, Value x, std::string_view name, Value v) {
  if (!x.isObject())
    t.fail("can't assign to ." + std::string(name) + " field of " + std::string(typeName(x)));
  x.obj()->setField(t, name, v);
}

std::vector<std::string> attrNames(Value x) {
  std::vector<std::string> names;
  if (!x.isObject())
    return names;
  x.obj()->attrNames(names);
  for (const Method &m : methodsOf(x.obj()->kind()))
    names.emplace_back(m.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

} // namespace fbc::star
