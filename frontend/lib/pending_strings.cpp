// Temporary definitions of the strings/bytes/printer symbols declared in the
// shared headers, so every test binary links while the real ones are written.
// Each stub is deleted when its real definition lands.
#include "frontend/eval/methods.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/printer.h"
#include "frontend/eval/thread.h"

#include <cstdlib>

namespace fbc::star {

void String::repr(Printer &) const {
  std::abort();
}
uint32_t String::hash(Thread &t) const {
  t.fail("not implemented: String::hash");
}
bool String::equals(Thread &t, const Object &, int) const {
  t.fail("not implemented: String::equals");
}
int String::compare(Thread &t, const Object &, int) const {
  t.fail("not implemented: String::compare");
}
Value String::index(Thread &t, Value) {
  t.fail("not implemented: String::index");
}
Value String::attr(Thread &t, std::string_view) {
  t.fail("not implemented: String::attr");
}
uint32_t String::hashCode() const {
  std::abort();
}
Value makeString(Heap &, std::string_view) {
  std::abort();
}

void Bytes::repr(Printer &) const {
  std::abort();
}
uint32_t Bytes::hash(Thread &t) const {
  t.fail("not implemented: Bytes::hash");
}
bool Bytes::equals(Thread &t, const Object &, int) const {
  t.fail("not implemented: Bytes::equals");
}
int Bytes::compare(Thread &t, const Object &, int) const {
  t.fail("not implemented: Bytes::compare");
}
Iterator *Bytes::iterate(Thread &t) {
  t.fail("not implemented: Bytes::iterate");
}
Value Bytes::index(Thread &t, Value) {
  t.fail("not implemented: Bytes::index");
}
Value makeBytes(Heap &, std::string_view) {
  std::abort();
}

llvm::ArrayRef<Method> stringMethods() {
  return {};
}
llvm::ArrayRef<Method> bytesMethods() {
  return {};
}

void Printer::repr(Value) {
  std::abort();
}
void Printer::str(Value) {
  std::abort();
}
bool Printer::enter(const Object *) {
  std::abort();
}
std::string repr(Value) {
  std::abort();
}
std::string str(Value) {
  std::abort();
}

} // namespace fbc::star
