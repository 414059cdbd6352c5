// Binary and unary operators on any values (Go's Binary/Unary): numbers go
// to numericBinary, then the sequence and collection operators, then host
// types' Object::binary, else "unknown binary op: T op U".
#include "frontend/eval/budget.h"
#include "frontend/lib/format.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/set_algebra.h"

#include <cmath>
#include <cstring>

namespace fbc::star {

namespace {

using llvm::APInt;

bool isNumber(Kind k) {
  return k == Kind::Int || k == Kind::Float;
}

[[noreturn]] void failUnknown(Thread &t, BinOp op, Value x, Value y) {
  t.fail("unknown binary op: " + std::string(typeName(x)) + " " + binOpSpelling(op) + " " +
         std::string(typeName(y)));
}

// --- repetition ---------------------------------------------------------

// Go refuses to build anything of 2^30 elements or more.
constexpr int64_t kMaxAlloc = int64_t(1) << 30;

Value emptyLike(Thread &t, Kind k) {
  switch (k) {
  case Kind::String:
    return makeString(t.heap, "");
  case Kind::Bytes:
    return makeBytes(t.heap, "");
  case Kind::List:
    return Value::object(t.heap.make<List>());
  default:
    return Value::object(makeTuple(t.heap, {}));
  }
}

// seq * n for a string, bytes, list or tuple, with Go's checks: the count
// must fit 32 bits and the result must stay under kMaxAlloc elements.
Value repeat(Thread &t, Value seq, Value n) {
  Kind k = seq.kind();
  int64_t len = seq.obj()->length();
  if (len == 0)
    return emptyLike(t, k);
  int64_t count;
  if (!toInt64(n, count) || count < INT32_MIN || count > INT32_MAX)
    t.fail("repeat count " + intToString(n) + " too large");
  if (count < 1)
    return emptyLike(t, k);
  if (len * count >= kMaxAlloc) // both < 2^32: no overflow
    t.fail("excessive repeat (" + std::to_string(len) + " * " + std::to_string(count) +
           " elements)");
  size_t total = static_cast<size_t>(len * count);
  checkMemory(t, total * (k == Kind::String || k == Kind::Bytes ? 1 : sizeof(Value)));
  switch (k) {
  case Kind::String:
  case Kind::Bytes: {
    std::string_view s = k == Kind::String ? static_cast<const String *>(seq.obj())->view()
                                           : static_cast<const Bytes *>(seq.obj())->view();
    std::string out;
    out.reserve(total);
    for (int64_t i = 0; i < count; ++i)
      out.append(s);
    return k == Kind::String ? makeString(t.heap, out) : makeBytes(t.heap, out);
  }
  case Kind::List: {
    const auto &elems = static_cast<const List *>(seq.obj())->elems;
    std::vector<Value> out;
    out.reserve(total);
    for (int64_t i = 0; i < count; ++i)
      out.insert(out.end(), elems.begin(), elems.end());
    return Value::object(t.heap.make<List>(std::move(out)));
  }
  default: {
    llvm::ArrayRef<Value> elems = static_cast<const Tuple *>(seq.obj())->elems();
    Tuple *r = makeTupleUninit(t.heap, static_cast<uint32_t>(total));
    Value *p = r->data();
    for (int64_t i = 0; i < count; ++i, p += elems.size())
      std::copy(elems.begin(), elems.end(), p);
    return Value::object(r);
  }
  }
}

bool isRepeatable(Kind k) {
  return k == Kind::String || k == Kind::Bytes || k == Kind::List || k == Kind::Tuple;
}

// --- concatenation --------------------------------------------------------

Value concat(Thread &t, Value x, Value y) {
  Kind k = x.kind();
  if (k == Kind::String || k == Kind::Bytes || k == Kind::List || k == Kind::Tuple)
    checkMemory(t, static_cast<uint64_t>(x.obj()->length() + y.obj()->length()) *
                       (k == Kind::String || k == Kind::Bytes ? 1 : sizeof(Value)));
  switch (k) {
  case Kind::String: {
    std::string_view a = static_cast<const String *>(x.obj())->view();
    std::string_view b = static_cast<const String *>(y.obj())->view();
    return makeStringWith(t.heap, a.size() + b.size(), [&](char *out) {
      std::memcpy(out, a.data(), a.size());
      std::memcpy(out + a.size(), b.data(), b.size());
    });
  }
  case Kind::List: {
    const auto &a = static_cast<const List *>(x.obj())->elems;
    const auto &b = static_cast<const List *>(y.obj())->elems;
    std::vector<Value> out;
    out.reserve(a.size() + b.size());
    out.insert(out.end(), a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    return Value::object(t.heap.make<List>(std::move(out)));
  }
  case Kind::Tuple: {
    llvm::ArrayRef<Value> a = static_cast<const Tuple *>(x.obj())->elems();
    llvm::ArrayRef<Value> b = static_cast<const Tuple *>(y.obj())->elems();
    Tuple *r = makeTupleUninit(t.heap, static_cast<uint32_t>(a.size() + b.size()));
    std::copy(a.begin(), a.end(), r->data());
    std::copy(b.begin(), b.end(), r->data() + a.size());
    return Value::object(r);
  }
  default:
    return Value();
  }
}

// --- dict and set algebra -------------------------------------------------

template <class F> void forEachKey(const HashTable &table, F &&f) {
  for (const HashTable::Entry &e : table.entries())
    if (!e.value.isNull())
      f(e.key, e.value);
}

bool tableHas(Thread &t, const HashTable &table, Value key) {
  return !table.get(t, key).isNull();
}

Value dictUnion(Thread &t, const Dict &x, const Dict &y) {
  Dict *r = t.heap.make<Dict>();
  forEachKey(x.table, [&](Value k, Value v) { r->put(t, k, v); });
  forEachKey(y.table, [&](Value k, Value v) { r->put(t, k, v); });
  return Value::object(r);
}

// --- membership -----------------------------------------------------------

bool rangeContains(const Range &r, Value x) {
  int64_t v;
  if (!toInt64(x, v))
    return false;
  __int128 delta = static_cast<__int128>(v) - r.start;
  __int128 quo = delta / r.step, rem = delta % r.step;
  return rem == 0 && quo >= 0 && quo < r.len;
}

// `needle in container`; null when the container type has no `in`.
Value contains(Thread &t, Value needle, Value container) {
  if (!container.isObject())
    return Value();
  Object *c = container.obj();
  switch (c->kind()) {
  case Kind::List:
    for (Value e : static_cast<const List *>(c)->elems)
      if (equals(t, e, needle))
        return trueValue();
    return falseValue();
  case Kind::Tuple:
    for (Value e : static_cast<const Tuple *>(c)->elems())
      if (equals(t, e, needle))
        return trueValue();
    return falseValue();
  case Kind::Dict:
    // Go ignores lookup errors here: `[] in {}` is False, not an error.
    try {
      return boolean(tableHas(t, static_cast<const Dict *>(c)->table, needle));
    } catch (const EvalError &) {
      return falseValue();
    }
  case Kind::Set:
    return boolean(tableHas(t, static_cast<const Set *>(c)->table, needle));
  case Kind::String: {
    const String *s = needle.as<String>();
    if (!s)
      t.fail("'in <string>' requires string as left operand, not " + std::string(typeName(needle)));
    return boolean(static_cast<const String *>(c)->view().find(s->view()) !=
                   std::string_view::npos);
  }
  case Kind::Bytes: {
    std::string_view hay = static_cast<const Bytes *>(c)->view();
    if (const Bytes *b = needle.as<Bytes>())
      return boolean(hay.find(b->view()) != std::string_view::npos);
    if (needle.isInt()) {
      int64_t v;
      if (!toInt64(needle, v) || v < 0 || v > 255)
        t.fail("int in bytes: " + intToString(needle) +
               " out of range (want value in unsigned 8-bit range)");
      return boolean(hay.find(static_cast<char>(v)) != std::string_view::npos);
    }
    t.fail("'in bytes' requires bytes or int as left operand, not " +
           std::string(typeName(needle)));
  }
  case Kind::Range: {
    // Go converts the operand with NumberToInt: floats are truncated.
    Value i = needle;
    if (const Float *f = needle.as<Float>()) {
      if (!std::isfinite(f->value))
        i = Value();
      else
        i = floatToInt(t, f->value);
    }
    if (!i || !i.isInt())
      t.fail("'in <range>' requires integer as left operand, not " + std::string(typeName(needle)));
    return boolean(rangeContains(*static_cast<const Range *>(c), i));
  }
  default:
    return Value();
  }
}

// Operators a host type defines, tried on the left operand then the right.
Value hostBinary(Thread &t, BinOp op, Value x, Value y) {
  if (x.isObject())
    if (Value r = x.obj()->binary(t, op, x, y, true))
      return r;
  if (y.isObject())
    if (Value r = y.obj()->binary(t, op, y, x, false))
      return r;
  return Value();
}

Value membership(Thread &t, Value x, Value y) {
  if (Value r = contains(t, x, y))
    return r;
  if (Value r = hostBinary(t, BinOp::In, x, y))
    return r;
  failUnknown(t, BinOp::In, x, y);
}

} // namespace

Value binary(Thread &t, BinOp op, Value x, Value y) {
  // The arithmetic fast path: both inline ints, result inline (62-bit
  // operands cannot overflow int64 on + and -).
  if (x.isSmallInt() && y.isSmallInt()) {
    int64_t a = x.smallInt(), b = y.smallInt(), r;
    switch (op) {
    case BinOp::Add:
      r = a + b;
      return Value::fitsSmall(r) ? Value::small(r) : makeInt(t.heap, r);
    case BinOp::Sub:
      r = a - b;
      return Value::fitsSmall(r) ? Value::small(r) : makeInt(t.heap, r);
    case BinOp::Mul:
      if (!__builtin_mul_overflow(a, b, &r) && Value::fitsSmall(r))
        return Value::small(r);
      return numericBinary(t, op, x, y);
    case BinOp::In:
    case BinOp::NotIn:
      break;
    default:
      return numericBinary(t, op, x, y);
    }
  }

  if (op == BinOp::In)
    return membership(t, x, y);
  if (op == BinOp::NotIn)
    return boolean(!truth(membership(t, x, y)));

  Kind kx = x.kind(), ky = y.kind();
  if (kx == Kind::Int && (op == BinOp::Shl || op == BinOp::Shr))
    return numericBinary(t, op, x, y); // Go checks the count's type itself
  if (isNumber(kx) && isNumber(ky))
    if (Value r = numericBinary(t, op, x, y))
      return r;

  switch (op) {
  case BinOp::Add:
    if (kx == ky)
      if (Value r = concat(t, x, y))
        return r;
    break;
  case BinOp::Mul:
    if (kx == Kind::Int && isRepeatable(ky))
      return repeat(t, y, x);
    if (ky == Kind::Int && isRepeatable(kx))
      return repeat(t, x, y);
    break;
  case BinOp::Mod:
    if (kx == Kind::String)
      return formatPercent(t, static_cast<const String *>(x.obj())->view(), y);
    break;
  case BinOp::BitOr:
    if (kx == Kind::Dict && ky == Kind::Dict)
      return dictUnion(t, *static_cast<const Dict *>(x.obj()), *static_cast<const Dict *>(y.obj()));
    [[fallthrough]];
  case BinOp::BitAnd:
  case BinOp::BitXor:
  case BinOp::Sub:
    if (kx == Kind::Set && ky == Kind::Set)
      return setBinary(t, op, *static_cast<const Set *>(x.obj()),
                       *static_cast<const Set *>(y.obj()));
    break;
  default:
    break;
  }

  if (Value r = hostBinary(t, op, x, y))
    return r;
  failUnknown(t, op, x, y);
}

Value unary(Thread &t, UnOp op, Value x) {
  if (x.isSmallInt()) {
    int64_t v = x.smallInt();
    switch (op) {
    case UnOp::Neg:
      return makeInt(t.heap, -v);
    case UnOp::Plus:
      return x;
    case UnOp::Invert:
      return Value::small(~v);
    }
  }
  if (const BigInt *b = x.as<BigInt>()) {
    switch (op) {
    case UnOp::Neg:
      return makeInt(t.heap, -b->value.sext(b->value.getBitWidth() + 1));
    case UnOp::Plus:
      return x;
    case UnOp::Invert:
      return makeInt(t.heap, ~b->value);
    }
  }
  if (const Float *f = x.as<Float>()) {
    if (op == UnOp::Neg)
      return makeFloat(t.heap, -f->value);
    if (op == UnOp::Plus)
      return x;
  }
  const char *spelling = op == UnOp::Neg ? "-" : op == UnOp::Plus ? "+" : "~";
  t.fail(std::string("unknown unary op: ") + spelling + " " + std::string(typeName(x)));
}

} // namespace fbc::star
