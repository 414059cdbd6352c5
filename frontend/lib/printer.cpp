// str() and repr(): small ints are written directly, everything else by
// its Object::repr, which calls back into the Printer for elements.
#include "frontend/lib/printer.h"

#include "frontend/lib/objects.h"

#include <algorithm>
#include <charconv>

namespace fbc::star {

void Printer::repr(Value v) {
  if (v.isSmallInt()) {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v.smallInt());
    out.append(buf, res.ptr);
    return;
  }
  if (v.isNull()) {
    out += "<nil>"; // a bug elsewhere; Go prints the same
    return;
  }
  v.obj()->repr(*this);
}

void Printer::str(Value v) {
  if (String *s = v.as<String>())
    out.append(s->view());
  else
    repr(v);
}

bool Printer::enter(const Object *o) {
  if (std::find(active_.begin(), active_.end(), o) != active_.end())
    return false;
  active_.push_back(o);
  return true;
}

std::string repr(Value v) {
  Printer p;
  p.repr(v);
  return std::move(p.out);
}

std::string str(Value v) {
  if (String *s = v.as<String>())
    return std::string(s->view());
  Printer p;
  p.repr(v);
  return std::move(p.out);
}

} // namespace fbc::star
