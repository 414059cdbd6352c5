// Default behaviour of the value protocol (value.h): what an Object does
// unless its type overrides it, with the Go implementation's messages.
#include "frontend/lib/ops.h"
#include "frontend/lib/value.h"

namespace fbc::star {

Iterator::~Iterator() = default;
Object::~Object() = default;

uint32_t Object::hash(Thread &t) const {
  t.fail("unhashable type: " + std::string(typeName()));
}

bool Object::equals(Thread &, const Object &other, int) const {
  return this == &other;
}

int Object::compare(Thread &t, const Object &other, int) const {
  t.fail(std::string(typeName()) + " < " + std::string(other.typeName()) + " not implemented");
}

Value Object::attr(Thread &, std::string_view) {
  return Value();
}

void Object::setField(Thread &t, std::string_view name, Value) {
  t.fail("can't assign to ." + std::string(name) + " field of " + std::string(typeName()));
}

void Object::attrNames(std::vector<std::string> &) const {}

Iterator *Object::iterate(Thread &) {
  return nullptr;
}

Value Object::index(Thread &t, Value key) {
  t.fail("unhandled index operation " + std::string(typeName()) + "[" +
         std::string(fbc::star::typeName(key)) + "]");
}

void Object::setIndex(Thread &t, Value, Value) {
  t.fail(std::string(typeName()) + " value does not support item assignment");
}

Value Object::call(Thread &t, const Args &) {
  t.fail("invalid call of non-function (" + std::string(typeName()) + ")");
}

Value Object::binary(Thread &, BinOp, Value, Value, bool) {
  return Value();
}

const char *binOpSpelling(BinOp op) {
  switch (op) {
  case BinOp::Add:
    return "+";
  case BinOp::Sub:
    return "-";
  case BinOp::Mul:
    return "*";
  case BinOp::Div:
    return "/";
  case BinOp::FloorDiv:
    return "//";
  case BinOp::Mod:
    return "%";
  case BinOp::BitAnd:
    return "&";
  case BinOp::BitOr:
    return "|";
  case BinOp::BitXor:
    return "^";
  case BinOp::Shl:
    return "<<";
  case BinOp::Shr:
    return ">>";
  case BinOp::In:
    return "in";
  case BinOp::NotIn:
    return "not in";
  }
  return "?";
}

const char *cmpOpSpelling(CmpOp op) {
  switch (op) {
  case CmpOp::Eq:
    return "==";
  case CmpOp::Ne:
    return "!=";
  case CmpOp::Lt:
    return "<";
  case CmpOp::Le:
    return "<=";
  case CmpOp::Gt:
    return ">";
  case CmpOp::Ge:
    return ">=";
  }
  return "?";
}

} // namespace fbc::star
