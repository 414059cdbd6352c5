// Temporary stubs for the numbers/ops area so every test binary links while
// the real definitions are written. Each stub is deleted when its real
// definition lands; the file goes when it is empty.
#include "frontend/eval/numeric.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/printer.h"

#include <cstdlib>

namespace fbc::star {

// ops.h (except call)
std::string_view typeName(Value) {
  std::abort();
}
bool truth(Value) {
  std::abort();
}
uint32_t hashValue(Thread &t, Value) {
  t.fail("not implemented: hashValue");
}
bool equals(Thread &t, Value, Value, int) {
  t.fail("not implemented: equals");
}
bool compare(Thread &t, CmpOp, Value, Value, int) {
  t.fail("not implemented: compare");
}
int order(Thread &t, Value, Value) {
  t.fail("not implemented: order");
}
Value binary(Thread &t, BinOp, Value, Value) {
  t.fail("not implemented: binary");
}
Value unary(Thread &t, UnOp, Value) {
  t.fail("not implemented: unary");
}
Value getAttr(Thread &t, Value, std::string_view) {
  t.fail("not implemented: getAttr");
}
Value getAttrOrNull(Thread &t, Value, std::string_view) {
  t.fail("not implemented: getAttrOrNull");
}
void setField(Thread &t, Value, std::string_view, Value) {
  t.fail("not implemented: setField");
}
std::vector<std::string> attrNames(Value) {
  std::abort();
}
Value getIndex(Thread &t, Value, Value) {
  t.fail("not implemented: getIndex");
}
void setIndex(Thread &t, Value, Value, Value) {
  t.fail("not implemented: setIndex");
}
Value slice(Thread &t, Value, Value, Value, Value) {
  t.fail("not implemented: slice");
}
int64_t length(Value) {
  std::abort();
}
Iterator *iterate(Thread &t, Value) {
  t.fail("not implemented: iterate");
}
std::vector<Value> toVector(Thread &t, Value) {
  t.fail("not implemented: toVector");
}

} // namespace fbc::star
