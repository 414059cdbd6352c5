// The core object types. Each type's behaviour (the Object virtuals and its
// methods) is implemented in frontend/lib/<type>.cpp; these are only the
// layouts the evaluator needs for its fast paths.
#pragma once

#include "frontend/lib/heap.h"
#include "frontend/lib/value.h"

#include <llvm/ADT/APInt.h>

#include <cstring>
#include <string>
#include <vector>

namespace fbc::star {

class NoneType final : public Object {
public:
  static constexpr Kind kKind = Kind::None;
  static constexpr bool kNeedsDestroy = false;
  NoneType() : Object(Kind::None) { frozen_ = true; }
  std::string_view typeName() const override { return "NoneType"; }
  void repr(Printer &p) const override;
  bool truth() const override { return false; }
  uint32_t hash(Thread &t) const override;
};

class Bool final : public Object {
public:
  static constexpr Kind kKind = Kind::Bool;
  static constexpr bool kNeedsDestroy = false;
  explicit Bool(bool v) : Object(Kind::Bool), value(v) { frozen_ = true; }
  std::string_view typeName() const override { return "bool"; }
  void repr(Printer &p) const override;
  bool truth() const override { return value; }
  uint32_t hash(Thread &t) const override;
  int compare(Thread &t, const Object &other, int depth) const override;
  const bool value;
};

// The singletons. They live in static storage, never in a Heap.
namespace singletons {
extern NoneType none;
extern Bool falseValue, trueValue;
} // namespace singletons
inline Value none() {
  return Value::object(&singletons::none);
}
inline Value boolean(bool b) {
  return Value::object(b ? &singletons::trueValue : &singletons::falseValue);
}
inline Value trueValue() {
  return boolean(true);
}
inline Value falseValue() {
  return boolean(false);
}

// An integer outside the inline range. Always normalised: a BigInt never
// holds a value that fits Value::small(). Arithmetic lives in numeric.h.
class BigInt final : public Object {
public:
  static constexpr Kind kKind = Kind::Int;
  static constexpr bool kNeedsDestroy = true;
  explicit BigInt(llvm::APInt v) : Object(Kind::Int), value(std::move(v)) { frozen_ = true; }
  std::string_view typeName() const override { return "int"; }
  void repr(Printer &p) const override;
  uint32_t hash(Thread &t) const override;
  // Signed, two's complement, minimal width (at least 64 bits).
  const llvm::APInt value;
};

class Float final : public Object {
public:
  static constexpr Kind kKind = Kind::Float;
  static constexpr bool kNeedsDestroy = false;
  explicit Float(double v) : Object(Kind::Float), value(v) { frozen_ = true; }
  std::string_view typeName() const override { return "float"; }
  void repr(Printer &p) const override;
  bool truth() const override { return value != 0.0; }
  uint32_t hash(Thread &t) const override;
  const double value;
};

// An immutable byte string (Go semantics: bytes, usually UTF-8). The bytes
// follow the object in memory. Use makeString() to create one.
class String final : public Object {
public:
  static constexpr Kind kKind = Kind::String;
  static constexpr bool kNeedsDestroy = false;
  std::string_view typeName() const override { return "string"; }
  void repr(Printer &p) const override;
  bool truth() const override { return size_ != 0; }
  uint32_t hash(Thread &t) const override;
  bool equals(Thread &t, const Object &other, int depth) const override;
  int compare(Thread &t, const Object &other, int depth) const override;
  int64_t length() const override { return size_; }
  Value index(Thread &t, Value key) override;
  Value attr(Thread &t, std::string_view name) override;

  std::string_view view() const { return {data(), size_}; }
  const char *data() const { return reinterpret_cast<const char *>(this + 1); }
  uint32_t size() const { return size_; }
  // Starlark hash(s) (Java String.hashCode), cached after the first call.
  uint32_t hashCode() const;

private:
  friend class Heap;
  friend Value makeString(Heap &, std::string_view);
  friend char *makeStringUninit(Heap &, size_t, Value &);
  explicit String(uint32_t size) : Object(Kind::String), size_(size) { frozen_ = true; }
  uint32_t size_;
  mutable uint32_t hash_ = 0; // hashCode(), once computed (0: not yet)
};
Value makeString(Heap &h, std::string_view s);
// Allocates a String of n >= 2 bytes, stores it in `out` and returns its
// bytes for the caller to fill before the string is used.
char *makeStringUninit(Heap &h, size_t n, Value &out);
// A String of n bytes written by fill(char *) in place: builds a result
// whose length is known without a temporary std::string.
template <class F> Value makeStringWith(Heap &h, size_t n, F &&fill) {
  if (n <= 1) {
    char one[1];
    fill(one);
    return makeString(h, std::string_view(one, n));
  }
  Value out;
  fill(makeStringUninit(h, n, out));
  return out;
}

class Bytes final : public Object {
public:
  static constexpr Kind kKind = Kind::Bytes;
  static constexpr bool kNeedsDestroy = false;
  std::string_view typeName() const override { return "bytes"; }
  void repr(Printer &p) const override;
  bool truth() const override { return size_ != 0; }
  uint32_t hash(Thread &t) const override;
  bool equals(Thread &t, const Object &other, int depth) const override;
  int compare(Thread &t, const Object &other, int depth) const override;
  int64_t length() const override { return size_; }
  Iterator *iterate(Thread &t) override;
  Value index(Thread &t, Value key) override;

  std::string_view view() const { return {data(), size_}; }
  const char *data() const { return reinterpret_cast<const char *>(this + 1); }

private:
  friend class Heap;
  friend Value makeBytes(Heap &, std::string_view);
  explicit Bytes(uint32_t size) : Object(Kind::Bytes), size_(size) { frozen_ = true; }
  uint32_t size_;
};
Value makeBytes(Heap &h, std::string_view s);

class List final : public Object {
public:
  static constexpr Kind kKind = Kind::List;
  static constexpr bool kNeedsDestroy = true;
  List() : Object(Kind::List) {}
  explicit List(std::vector<Value> elems) : Object(Kind::List), elems(std::move(elems)) {}
  std::string_view typeName() const override { return "list"; }
  void repr(Printer &p) const override;
  bool truth() const override { return !elems.empty(); }
  bool equals(Thread &t, const Object &other, int depth) const override;
  int compare(Thread &t, const Object &other, int depth) const override;
  void freeze() override;
  int64_t length() const override { return static_cast<int64_t>(elems.size()); }
  Iterator *iterate(Thread &t) override;
  Value index(Thread &t, Value key) override;
  void setIndex(Thread &t, Value key, Value v) override;

  // Throws "cannot <verb> frozen list" / "cannot <verb> list during
  // iteration" when the list may not change. `verb` is e.g. "append to".
  void checkMutable(Thread &t, std::string_view verb) const;

  std::vector<Value> elems;
};

// Tuples store their elements inline after the object.
class Tuple final : public Object {
public:
  static constexpr Kind kKind = Kind::Tuple;
  static constexpr bool kNeedsDestroy = false;
  std::string_view typeName() const override { return "tuple"; }
  void repr(Printer &p) const override;
  bool truth() const override { return size_ != 0; }
  uint32_t hash(Thread &t) const override;
  bool equals(Thread &t, const Object &other, int depth) const override;
  int compare(Thread &t, const Object &other, int depth) const override;
  void freeze() override;
  int64_t length() const override { return size_; }
  Iterator *iterate(Thread &t) override;
  Value index(Thread &t, Value key) override;

  llvm::ArrayRef<Value> elems() const { return {data(), size_}; }
  Value *data() { return reinterpret_cast<Value *>(this + 1); }
  const Value *data() const { return reinterpret_cast<const Value *>(this + 1); }
  uint32_t size() const { return size_; }

private:
  friend class Heap;
  friend Tuple *makeTuple(Heap &, llvm::ArrayRef<Value>);
  friend Tuple *makeTupleUninit(Heap &, uint32_t);
  explicit Tuple(uint32_t size) : Object(Kind::Tuple), size_(size) {}
  uint32_t size_;
};
Tuple *makeTuple(Heap &h, llvm::ArrayRef<Value> elems);
// Elements are null; the caller fills data()[0..n).
Tuple *makeTupleUninit(Heap &h, uint32_t n);

// An insertion-ordered hash table keyed by Starlark values, shared by Dict
// and Set. Deleted entries leave tombstones that a rehash compacts, so
// iteration order is insertion order and survives growth. Its arrays live
// in the Heap of the Thread that fills it (no malloc, nothing to free).
class HashTable {
public:
  struct Entry {
    Value key;
    Value value; // null for a deleted entry
    uint32_t hash;
  };

  HashTable() = default;
  HashTable(const HashTable &) = delete;
  HashTable &operator=(const HashTable &) = delete;

  // Returns the value for key, or null. Throws if key is unhashable.
  Value get(Thread &t, Value key) const;
  // Inserts or updates; an update keeps the key's position.
  void set(Thread &t, Value key, Value value);
  // Removes key; returns its value or null.
  Value erase(Thread &t, Value key);
  void clear();
  // Makes room for n entries in all (a literal of known size).
  void reserve(Thread &t, size_t n);
  // Replaces the contents with a copy of other's live entries.
  void assign(Thread &t, const HashTable &other);
  size_t size() const { return live_; }
  // Entries in insertion order, including tombstones (value null).
  llvm::ArrayRef<Entry> entries() const { return {entries_, size_}; }
  // Position in entries() of the oldest live entry, or -1 when empty
  // (dict.popitem, set.pop).
  int64_t first() const;

private:
  int64_t find(Thread &t, Value key, uint32_t hash) const;
  void rehash(Thread &t, size_t indexSize);
  void grow(Thread &t, size_t capacity);
  Entry *entries_ = nullptr;
  int32_t *index_ = nullptr; // open addressing into entries_; -1 empty
  uint32_t size_ = 0, capacity_ = 0, indexSize_ = 0;
  uint32_t live_ = 0;
  mutable uint32_t head_ = 0; // entries_[0..head_) are all deleted
};

class Dict final : public Object {
public:
  static constexpr Kind kKind = Kind::Dict;
  static constexpr bool kNeedsDestroy = false;
  Dict() : Object(Kind::Dict) {}
  std::string_view typeName() const override { return "dict"; }
  void repr(Printer &p) const override;
  bool truth() const override { return table.size() != 0; }
  bool equals(Thread &t, const Object &other, int depth) const override;
  void freeze() override;
  int64_t length() const override { return static_cast<int64_t>(table.size()); }
  Iterator *iterate(Thread &t) override; // keys
  Value index(Thread &t, Value key) override;
  void setIndex(Thread &t, Value key, Value v) override;

  // Checked mutation: frozen and iteration locks, then the table.
  void put(Thread &t, Value key, Value v);
  void checkMutable(Thread &t, std::string_view verb) const;

  HashTable table;
};

class Set final : public Object {
public:
  static constexpr Kind kKind = Kind::Set;
  static constexpr bool kNeedsDestroy = false;
  Set() : Object(Kind::Set) {}
  std::string_view typeName() const override { return "set"; }
  void repr(Printer &p) const override;
  bool truth() const override { return table.size() != 0; }
  bool equals(Thread &t, const Object &other, int depth) const override;
  void freeze() override;
  int64_t length() const override { return static_cast<int64_t>(table.size()); }
  Iterator *iterate(Thread &t) override;

  void insert(Thread &t, Value key); // checked like Dict::put
  void checkMutable(Thread &t, std::string_view verb) const;

  HashTable table; // values are None
};

class Range final : public Object {
public:
  static constexpr Kind kKind = Kind::Range;
  static constexpr bool kNeedsDestroy = false;
  Range(int64_t start, int64_t stop, int64_t step, int64_t len)
      : Object(Kind::Range), start(start), stop(stop), step(step), len(len) {
    frozen_ = true;
  }
  std::string_view typeName() const override { return "range"; }
  void repr(Printer &p) const override;
  bool truth() const override { return len != 0; }
  uint32_t hash(Thread &t) const override; // "unhashable: range", as Go
  bool equals(Thread &t, const Object &other, int depth) const override;
  int64_t length() const override { return len; }
  Iterator *iterate(Thread &t) override;
  Value index(Thread &t, Value key) override;
  const int64_t start, stop, step, len;
};

// A builtin function, or a method bound to its receiver.
using BuiltinFn = Value (*)(Thread &t, Value self, const Args &args);

class Builtin final : public Object {
public:
  static constexpr Kind kKind = Kind::Builtin;
  static constexpr bool kNeedsDestroy = false;
  // `self` is null for a plain function, the receiver for a bound method.
  Builtin(const char *name, BuiltinFn fn, Value self = Value())
      : Object(Kind::Builtin), name_(name), fn(fn), self(self) {
    frozen_ = true;
  }
  std::string_view typeName() const override { return "builtin_function_or_method"; }
  void repr(Printer &p) const override;
  uint32_t hash(Thread &t) const override;
  bool equals(Thread &t, const Object &other, int depth) const override;
  bool callable() const override { return true; }
  Value call(Thread &t, const Args &args) override;
  std::string_view name() const override { return name_; }

  const char *const name_;
  const BuiltinFn fn;
  const Value self;
};

// A named bag of values: a load()ed module's exports, or `module(...)`.
class Module final : public Object {
public:
  static constexpr Kind kKind = Kind::Module;
  static constexpr bool kNeedsDestroy = true;
  explicit Module(std::string name) : Object(Kind::Module), moduleName(std::move(name)) {}
  std::string_view typeName() const override { return "module"; }
  void repr(Printer &p) const override;
  uint32_t hash(Thread &t) const override; // "unhashable: module", as Go
  Value attr(Thread &t, std::string_view name) override;
  void setField(Thread &t, std::string_view name, Value v) override;
  void attrNames(std::vector<std::string> &out) const override;
  void freeze() override;

  std::string moduleName;
  std::vector<std::pair<std::string, Value>> members; // sorted by name
};

// struct(**kwargs): immutable fields, sorted by name.
class Struct final : public Object {
public:
  static constexpr Kind kKind = Kind::Struct;
  static constexpr bool kNeedsDestroy = true;
  Struct() : Object(Kind::Struct) {}
  std::string_view typeName() const override { return "struct"; }
  void repr(Printer &p) const override;
  uint32_t hash(Thread &t) const override;
  bool equals(Thread &t, const Object &other, int depth) const override;
  // struct + struct: the union of the fields, the right operand winning.
  Value binary(Thread &t, BinOp op, Value self, Value other, bool selfOnLeft) override;
  Value attr(Thread &t, std::string_view name) override;
  void setField(Thread &t, std::string_view name, Value v) override;
  void attrNames(std::vector<std::string> &out) const override;
  void freeze() override;

  std::vector<std::pair<std::string, Value>> fields; // sorted by name
};

} // namespace fbc::star
