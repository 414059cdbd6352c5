// Builtin functions and bound methods implemented in C++.
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <string>

namespace fbc::star {

void Builtin::repr(Printer &p) const {
  if (self.isNull()) {
    p.write("<built-in function ");
    p.write(name_);
  } else {
    p.write("<built-in method ");
    p.write(name_);
    p.write(" of ");
    p.write(star::typeName(self));
    p.write(" value");
  }
  p.write('>');
}

// Go hashes the name, distinguishing bound methods from functions.
uint32_t Builtin::hash(Thread &) const {
  uint32_t h = 2166136261u; // FNV-1a
  for (const char *c = name_; *c; ++c)
    h = (h ^ static_cast<unsigned char>(*c)) * 16777619u;
  return self.isNull() ? h : h ^ 5521;
}

// Identity, as in Go: each x.method expression binds a new method value.
bool Builtin::equals(Thread &, const Object &other, int) const {
  return this == &other;
}

Value Builtin::call(Thread &t, const Args &args) {
  BuiltinFrame frame(t, name_);
  return fn(t, self, args);
}

} // namespace fbc::star
