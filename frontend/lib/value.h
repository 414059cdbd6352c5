// The Starlark value model.
//
// A Value is one machine word. Integers in [-2^62, 2^62) are stored inline
// (low bit 1), so integer loops never allocate; everything else is a pointer
// to an Object allocated in the Thread's Heap. Objects are never freed one by
// one: the Heap releases them all when it is destroyed (a spec is loaded, its
// tests run, the process ends), so there is no reference counting on the hot
// path. See docs/architecture.md, "Values and memory".
//
// Every Object subclass implements the protocol below (type name, repr,
// truth, hash, equality, ordering, attributes, iteration, indexing, calls).
// The evaluator fast-paths the core kinds by switching on kind() and falls
// back to these virtuals for everything else, including host types defined
// outside frontend/ (services, interfaces, fault rules, ...).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::star {

class Object;
class Thread;
class Printer;
class String;

// The core kinds. Host types use Kind::Host and identify themselves through
// Object::typeName().
enum class Kind : uint8_t {
  None,
  Bool,
  Int, // inline small int or BigInt object
  Float,
  String,
  Bytes,
  List,
  Tuple,
  Dict,
  Set,
  Range,
  Function, // a def or lambda (frontend/eval/function.h)
  Builtin,  // a C++ function, possibly bound to a receiver
  Module,   // load()ed module namespace or `module(...)` value
  Struct,
  Host,
};

class Value {
public:
  constexpr Value() = default; // the null value: "absent", never visible to programs

  static constexpr int64_t kMinSmall = -(int64_t(1) << 62);
  static constexpr int64_t kMaxSmall = (int64_t(1) << 62) - 1;

  static bool fitsSmall(int64_t v) { return v >= kMinSmall && v <= kMaxSmall; }
  // Precondition: fitsSmall(v). Use makeInt() (numeric.h) for any int64.
  static Value small(int64_t v) {
    Value r;
    r.bits_ = (static_cast<uint64_t>(v) << 1) | 1;
    return r;
  }
  static Value object(const Object *o) {
    Value r;
    r.bits_ = reinterpret_cast<uintptr_t>(o);
    return r;
  }

  bool isNull() const { return bits_ == 0; }
  explicit operator bool() const { return bits_ != 0; }
  bool isSmallInt() const { return bits_ & 1; }
  int64_t smallInt() const { return static_cast<int64_t>(bits_) >> 1; }
  bool isObject() const { return bits_ != 0 && !(bits_ & 1); }
  Object *obj() const { return reinterpret_cast<Object *>(bits_); }

  inline Kind kind() const; // precondition: !isNull()
  bool is(Kind k) const { return kind() == k; }
  bool isInt() const { return isSmallInt() || is(Kind::Int); }

  // Checked downcast to a core object type: `v.as<List>()` is null unless v
  // is a list.
  template <class T> T *as() const {
    return isObject() && kind() == T::kKind ? static_cast<T *>(obj()) : nullptr;
  }

  // Identity (same word). Starlark equality is equals() below.
  friend bool operator==(Value a, Value b) { return a.bits_ == b.bits_; }
  friend bool operator!=(Value a, Value b) { return a.bits_ != b.bits_; }
  uintptr_t bits() const { return bits_; }

private:
  uintptr_t bits_ = 0;
};

// Binary operators, as the evaluator dispatches them.
enum class BinOp : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  BitAnd,
  BitOr,
  BitXor,
  Shl,
  Shr,
  In,
  NotIn, // `x in y`: dispatched to the container y
};

// Comparison operators.
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

// Source-level spelling of an operator, for error messages ("unknown binary
// op: int + string").
const char *binOpSpelling(BinOp op);
const char *cmpOpSpelling(CmpOp op);

// Arguments of a call, as a builtin sees them. Keyword names are Strings
// interned by the evaluator; their order is the call site's.
struct Kwarg {
  String *name;
  Value value;
};
struct Args {
  llvm::ArrayRef<Value> positional;
  llvm::ArrayRef<Kwarg> kwargs;
};

// Iterates a value. Iterators are heap objects too (no free needed).
class Iterator {
public:
  virtual ~Iterator();
  // Stores the next element and returns true, or returns false at the end.
  virtual bool next(Value &out) = 0;
  // Called exactly once when iteration stops (normally or by an error);
  // mutable containers release their iteration lock here.
  virtual void done() {}
};

class Object {
public:
  explicit Object(Kind k) : kind_(k) {}
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;
  virtual ~Object();

  Kind kind() const { return kind_; }
  bool frozen() const { return frozen_; }

  // --- the value protocol ------------------------------------------------
  // Name returned by type(x): "int", "list", "builtin_function_or_method".
  virtual std::string_view typeName() const = 0;
  // repr(x); str(x) differs only for strings (see Printer).
  virtual void repr(Printer &p) const = 0;
  virtual bool truth() const { return true; }
  // Throws "unhashable type: T" unless the type is hashable.
  virtual uint32_t hash(Thread &t) const;
  // Starlark `==` against another object of the same kind()/typeName().
  // The default is identity. `depth` guards cyclic structures.
  virtual bool equals(Thread &t, const Object &other, int depth) const;
  // Three-way ordering against an object of the same type. The default
  // throws "T < T not implemented".
  virtual int compare(Thread &t, const Object &other, int depth) const;
  // Deep freeze. Containers override to freeze their elements.
  virtual void freeze() { frozen_ = true; }

  // Fields and methods. attr() returns the null Value when there is no such
  // attribute; methods of core types are found through the method tables
  // (frontend/lib/methods.h), not here.
  virtual Value attr(Thread &t, std::string_view name);
  virtual void setField(Thread &t, std::string_view name, Value v);
  // Sorted names for dir(); methods are added by the caller.
  virtual void attrNames(std::vector<std::string> &out) const;

  // Sequences and mappings. length() < 0: no len(). iterate() null: not
  // iterable. index(): `x[i]`; the default throws "unhandled index operation".
  virtual int64_t length() const { return -1; }
  virtual bool iterable() const { return false; }
  virtual Iterator *iterate(Thread &t);
  virtual Value index(Thread &t, Value key);
  virtual void setIndex(Thread &t, Value key, Value v);

  // Calls: only callables override. `name()` is the callee's name for
  // messages ("function f", "len").
  virtual bool callable() const { return false; }
  virtual Value call(Thread &t, const Args &args);
  virtual std::string_view name() const { return typeName(); }

  // Operators a host type supports beyond the core semantics (e.g. a test
  // type for which `list + x` is defined). Return null when unsupported.
  virtual Value binary(Thread &t, BinOp op, Value self, Value other, bool selfOnLeft);

protected:
  Kind kind_;
  bool frozen_ = false;
  // Number of active iterations over a mutable container; mutation while
  // non-zero is an error ("cannot append to list during iteration").
  uint32_t iterLocks_ = 0;
  friend class IterationGuard;
};

inline Kind Value::kind() const {
  return isSmallInt() ? Kind::Int : obj()->kind();
}

} // namespace fbc::star
