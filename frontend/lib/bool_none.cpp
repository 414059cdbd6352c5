// None and the two bools: immutable singletons in static storage.
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"

namespace fbc::star {

namespace singletons {
// Never in a Heap; Values refer to them by address, so identity is equality.
NoneType none;
Bool falseValue(false);
Bool trueValue(true);
} // namespace singletons

void NoneType::repr(Printer &p) const {
  p.write("None");
}
uint32_t NoneType::hash(Thread &) const {
  return 0;
}

void Bool::repr(Printer &p) const {
  p.write(value ? "True" : "False");
}
uint32_t Bool::hash(Thread &) const {
  return value ? 1 : 0;
}
int Bool::compare(Thread &, const Object &other, int) const {
  return int(value) - int(static_cast<const Bool &>(other).value);
}

} // namespace fbc::star
