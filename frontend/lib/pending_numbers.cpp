// Temporary stubs for the numbers/ops area so every test binary links while
// the real definitions are written. Each stub is deleted when its real
// definition lands; the file goes when it is empty.
#include "frontend/eval/numeric.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/printer.h"

#include <cstdlib>

namespace fbc::star {

// numeric.h
Value makeInt(Heap &, int64_t) {
  std::abort();
}
Value makeInt(Heap &, const llvm::APInt &) {
  std::abort();
}
Value makeFloat(Heap &, double) {
  std::abort();
}
bool toInt64(Value, int64_t &) {
  std::abort();
}
llvm::APInt toAPInt(Value) {
  std::abort();
}
double intToFloat(Thread &t, Value) {
  t.fail("not implemented: intToFloat");
}
Value floatToInt(Thread &t, double) {
  t.fail("not implemented: floatToInt");
}
Value parseIntLiteral(Heap &, std::string_view) {
  std::abort();
}
Value parseInt(Thread &t, std::string_view, int) {
  t.fail("not implemented: parseInt");
}
std::string intToString(Value, unsigned) {
  std::abort();
}
std::string floatToString(double) {
  std::abort();
}
std::string formatFloat(double, char) {
  std::abort();
}
Value numericBinary(Thread &t, BinOp, Value, Value) {
  t.fail("not implemented: numericBinary");
}
int numericCompare(Value, Value) {
  std::abort();
}
uint32_t numericHash(Value) {
  std::abort();
}

// objects.h: None, Bool, BigInt, Float
void NoneType::repr(Printer &) const {
  std::abort();
}
uint32_t NoneType::hash(Thread &) const {
  std::abort();
}
void Bool::repr(Printer &) const {
  std::abort();
}
uint32_t Bool::hash(Thread &) const {
  std::abort();
}
int Bool::compare(Thread &t, const Object &, int) const {
  t.fail("not implemented: Bool::compare");
}
Value none() {
  std::abort();
}
Value boolean(bool) {
  std::abort();
}
void BigInt::repr(Printer &) const {
  std::abort();
}
uint32_t BigInt::hash(Thread &) const {
  std::abort();
}
void Float::repr(Printer &) const {
  std::abort();
}
uint32_t Float::hash(Thread &) const {
  std::abort();
}

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

// value.h: Object / Iterator base defaults
const char *binOpSpelling(BinOp) {
  std::abort();
}
const char *cmpOpSpelling(CmpOp) {
  std::abort();
}
Iterator::~Iterator() = default;
Object::~Object() = default;
uint32_t Object::hash(Thread &t) const {
  t.fail("not implemented: Object::hash");
}
bool Object::equals(Thread &, const Object &other, int) const {
  return this == &other;
}
int Object::compare(Thread &t, const Object &, int) const {
  t.fail("not implemented: Object::compare");
}
Value Object::attr(Thread &, std::string_view) {
  return Value();
}
void Object::setField(Thread &t, std::string_view, Value) {
  t.fail("not implemented: Object::setField");
}
void Object::attrNames(std::vector<std::string> &) const {}
Iterator *Object::iterate(Thread &) {
  return nullptr;
}
Value Object::index(Thread &t, Value) {
  t.fail("not implemented: Object::index");
}
void Object::setIndex(Thread &t, Value, Value) {
  t.fail("not implemented: Object::setIndex");
}
Value Object::call(Thread &t, const Args &) {
  t.fail("not implemented: Object::call");
}
Value Object::binary(Thread &, BinOp, Value, Value, bool) {
  return Value();
}

} // namespace fbc::star
