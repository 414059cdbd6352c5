// struct(**kwargs): an immutable record with named fields (Go's
// starlarkstruct.Struct, without constructor branding).
#include "frontend/lib/struct.h"

#include "frontend/lib/args.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <algorithm>
#include <string>

namespace fbc::star {

namespace {

using Field = std::pair<std::string, Value>;

void sortFields(std::vector<Field> &fields) {
  std::stable_sort(fields.begin(), fields.end(),
                   [](const Field &a, const Field &b) { return a.first < b.first; });
}

const Field *findField(const std::vector<Field> &fields, std::string_view name) {
  auto it = std::lower_bound(fields.begin(), fields.end(), name,
                             [](const Field &f, std::string_view n) { return f.first < n; });
  return it != fields.end() && it->first == name ? &*it : nullptr;
}

uint32_t hashName(std::string_view s) {
  uint32_t h = 2166136261u; // FNV-1a
  for (char c : s)
    h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

Value structBuiltin(Thread &t, Value, const Args &args) {
  if (!args.positional.empty())
    t.fail("struct: unexpected positional arguments");
  std::vector<Field> fields;
  fields.reserve(args.kwargs.size());
  for (const Kwarg &kw : args.kwargs)
    fields.emplace_back(std::string(kw.name->view()), kw.value);
  return Value::object(makeStruct(t.heap, std::move(fields)));
}

} // namespace

Struct *makeStruct(Heap &h, std::vector<std::pair<std::string, Value>> fields) {
  Struct *s = h.make<Struct>();
  sortFields(fields);
  s->fields = std::move(fields);
  return s;
}

Value makeStructBuiltin() {
  static Builtin *b = staticHeap().make<Builtin>("struct", structBuiltin);
  return Value::object(b);
}

void Struct::repr(Printer &p) const {
  p.write("struct(");
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i)
      p.write(", ");
    p.write(fields[i].first);
    p.write(" = ");
    p.repr(fields[i].second);
  }
  p.write(')');
}

// Go's algorithm: like the tuple hash, with different primes.
uint32_t Struct::hash(Thread &t) const {
  uint32_t x = 8731, m = 9839;
  for (const Field &f : fields) {
    x ^= 3 * hashName(f.first);
    x ^= hashValue(t, f.second) * m;
    m += 7349;
  }
  return x;
}

bool Struct::equals(Thread &t, const Object &other, int depth) const {
  const Struct &y = static_cast<const Struct &>(other);
  if (fields.size() != y.fields.size())
    return false;
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].first != y.fields[i].first ||
        !star::equals(t, fields[i].second, y.fields[i].second, depth + 1))
      return false;
  return true;
}

Value Struct::binary(Thread &t, BinOp op, Value self, Value other, bool selfOnLeft) {
  Struct *y = other.as<Struct>();
  if (op != BinOp::Add || !y)
    return Value();
  const Struct &left = selfOnLeft ? *this : *y;
  const Struct &right = selfOnLeft ? *y : *this;
  (void)self;
  std::vector<Field> merged = right.fields;
  for (const Field &f : left.fields)
    if (!findField(right.fields, f.first))
      merged.push_back(f);
  return Value::object(makeStruct(t.heap, std::move(merged)));
}

// Null when absent: getAttr() words the error as starlarkstruct does
// ("struct has no .x attribute") and adds a spelling suggestion.
Value Struct::attr(Thread &, std::string_view name) {
  if (const Field *f = findField(fields, name))
    return f->second;
  return Value();
}

void Struct::setField(Thread &t, std::string_view name, Value) {
  t.fail("can't assign to ." + std::string(name) + " field of struct");
}

void Struct::attrNames(std::vector<std::string> &out) const {
  for (const Field &f : fields)
    out.push_back(f.first);
}

void Struct::freeze() {
  if (frozen_)
    return;
  frozen_ = true;
  for (const Field &f : fields)
    freezeValue(f.second);
}

} // namespace fbc::star
