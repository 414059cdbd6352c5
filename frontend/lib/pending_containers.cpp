// Temporary definitions of the container library's symbols so everyone's
// binaries link while frontend/lib is being written. Each stub is deleted
// when its real definition lands; the file goes when it is empty.
#include "frontend/eval/methods.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/struct.h"
#include "frontend/lib/universe.h"

#include <cstdlib>

namespace fbc::star {

// List
void List::repr(Printer &) const {
  std::abort();
}
bool List::equals(Thread &, const Object &, int) const {
  std::abort();
}
int List::compare(Thread &, const Object &, int) const {
  std::abort();
}
void List::freeze() {
  std::abort();
}
Iterator *List::iterate(Thread &t) {
  t.fail("not implemented: List::iterate");
}
Value List::index(Thread &t, Value) {
  t.fail("not implemented: List::index");
}
void List::setIndex(Thread &t, Value, Value) {
  t.fail("not implemented: List::setIndex");
}
void List::checkMutable(Thread &t, std::string_view) const {
  t.fail("not implemented: List::checkMutable");
}

// Tuple
void Tuple::repr(Printer &) const {
  std::abort();
}
uint32_t Tuple::hash(Thread &t) const {
  t.fail("not implemented: Tuple::hash");
}
bool Tuple::equals(Thread &, const Object &, int) const {
  std::abort();
}
int Tuple::compare(Thread &, const Object &, int) const {
  std::abort();
}
void Tuple::freeze() {
  std::abort();
}
Iterator *Tuple::iterate(Thread &t) {
  t.fail("not implemented: Tuple::iterate");
}
Value Tuple::index(Thread &t, Value) {
  t.fail("not implemented: Tuple::index");
}
Tuple *makeTuple(Heap &, llvm::ArrayRef<Value>) {
  std::abort();
}
Tuple *makeTupleUninit(Heap &, uint32_t) {
  std::abort();
}

// HashTable
Value HashTable::get(Thread &t, Value) const {
  t.fail("not implemented: HashTable::get");
}
void HashTable::set(Thread &t, Value, Value) {
  t.fail("not implemented: HashTable::set");
}
Value HashTable::erase(Thread &t, Value) {
  t.fail("not implemented: HashTable::erase");
}
void HashTable::clear() {
  std::abort();
}
int64_t HashTable::find(Thread &, Value, uint32_t) const {
  std::abort();
}
void HashTable::rehash(size_t) {
  std::abort();
}

// Dict
void Dict::repr(Printer &) const {
  std::abort();
}
bool Dict::equals(Thread &, const Object &, int) const {
  std::abort();
}
void Dict::freeze() {
  std::abort();
}
Iterator *Dict::iterate(Thread &t) {
  t.fail("not implemented: Dict::iterate");
}
Value Dict::index(Thread &t, Value) {
  t.fail("not implemented: Dict::index");
}
void Dict::setIndex(Thread &t, Value, Value) {
  t.fail("not implemented: Dict::setIndex");
}
void Dict::put(Thread &t, Value, Value) {
  t.fail("not implemented: Dict::put");
}
void Dict::checkMutable(Thread &t, std::string_view) const {
  t.fail("not implemented: Dict::checkMutable");
}

// Set
void Set::repr(Printer &) const {
  std::abort();
}
bool Set::equals(Thread &, const Object &, int) const {
  std::abort();
}
int Set::compare(Thread &, const Object &, int) const {
  std::abort();
}
void Set::freeze() {
  std::abort();
}
Iterator *Set::iterate(Thread &t) {
  t.fail("not implemented: Set::iterate");
}
void Set::insert(Thread &t, Value) {
  t.fail("not implemented: Set::insert");
}
void Set::checkMutable(Thread &t, std::string_view) const {
  t.fail("not implemented: Set::checkMutable");
}

// Range
void Range::repr(Printer &) const {
  std::abort();
}
bool Range::equals(Thread &, const Object &, int) const {
  std::abort();
}
Iterator *Range::iterate(Thread &t) {
  t.fail("not implemented: Range::iterate");
}
Value Range::index(Thread &t, Value) {
  t.fail("not implemented: Range::index");
}

// Builtin
void Builtin::repr(Printer &) const {
  std::abort();
}
uint32_t Builtin::hash(Thread &t) const {
  t.fail("not implemented: Builtin::hash");
}
bool Builtin::equals(Thread &, const Object &, int) const {
  std::abort();
}
Value Builtin::call(Thread &t, const Args &) {
  t.fail("not implemented: Builtin::call");
}

// Module
void Module::repr(Printer &) const {
  std::abort();
}
Value Module::attr(Thread &t, std::string_view) {
  t.fail("not implemented: Module::attr");
}
void Module::setField(Thread &t, std::string_view, Value) {
  t.fail("not implemented: Module::setField");
}
void Module::attrNames(std::vector<std::string> &) const {
  std::abort();
}
void Module::freeze() {
  std::abort();
}

// Struct
void Struct::repr(Printer &) const {
  std::abort();
}
uint32_t Struct::hash(Thread &t) const {
  t.fail("not implemented: Struct::hash");
}
bool Struct::equals(Thread &, const Object &, int) const {
  std::abort();
}
Value Struct::attr(Thread &t, std::string_view) {
  t.fail("not implemented: Struct::attr");
}
void Struct::setField(Thread &t, std::string_view, Value) {
  t.fail("not implemented: Struct::setField");
}
void Struct::attrNames(std::vector<std::string> &) const {
  std::abort();
}
void Struct::freeze() {
  std::abort();
}
Value makeStructBuiltin() {
  std::abort();
}
Struct *makeStruct(Heap &, std::vector<std::pair<std::string, Value>>) {
  std::abort();
}

// Method tables
llvm::ArrayRef<Method> methodsOf(Kind) {
  return {};
}
const Method *findMethod(Kind, std::string_view) {
  return nullptr;
}
llvm::ArrayRef<Method> listMethods() {
  return {};
}
llvm::ArrayRef<Method> dictMethods() {
  return {};
}
llvm::ArrayRef<Method> setMethods() {
  return {};
}

// Universe
Value lookupUniverse(std::string_view) {
  return Value();
}
bool isUniversal(llvm::StringRef) {
  return false;
}
llvm::ArrayRef<std::pair<const char *, Value>> universeMembers() {
  return {};
}

// Added with the objects.h overrides.
int64_t HashTable::first() const {
  std::abort();
}
uint32_t Range::hash(Thread &t) const {
  t.fail("unhashable: range");
}
uint32_t Module::hash(Thread &t) const {
  t.fail("unhashable: module");
}
Value Struct::binary(Thread &, BinOp, Value, Value, bool) {
  return Value();
}

} // namespace fbc::star
