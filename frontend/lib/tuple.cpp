// The tuple type: an immutable sequence stored inline after the object.
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <memory>

namespace fbc::star {

namespace {

class TupleIterator final : public PooledIterator<TupleIterator> {
public:
  explicit TupleIterator(const Tuple *t) : tuple_(t) {}
  bool next(Value &out) override {
    if (i_ >= tuple_->size())
      return false;
    out = tuple_->data()[i_++];
    return true;
  }

private:
  const Tuple *tuple_;
  uint32_t i_ = 0;
};

} // namespace

Tuple *makeTupleUninit(Heap &h, uint32_t n) {
  Tuple *tuple = h.makeWithTrailing<Tuple>(n * sizeof(Value), n);
  std::uninitialized_fill_n(tuple->data(), n, Value());
  return tuple;
}

Tuple *makeTuple(Heap &h, llvm::ArrayRef<Value> elems) {
  Tuple *tuple =
      h.makeWithTrailing<Tuple>(elems.size() * sizeof(Value), static_cast<uint32_t>(elems.size()));
  std::uninitialized_copy(elems.begin(), elems.end(), tuple->data());
  return tuple;
}

void Tuple::repr(Printer &p) const {
  p.write('(');
  for (uint32_t i = 0; i < size_; ++i) {
    if (i)
      p.write(", ");
    p.repr(data()[i]);
  }
  if (size_ == 1)
    p.write(',');
  p.write(')');
}

// Go's (and Python's) tuple hash.
uint32_t Tuple::hash(Thread &t) const {
  uint32_t x = 0x345678, mult = 1000003;
  for (Value v : elems()) {
    x ^= hashValue(t, v) * mult;
    mult += 82520 + size_ + size_;
  }
  return x;
}

bool Tuple::equals(Thread &t, const Object &other, int depth) const {
  return equalSequences(t, elems(), static_cast<const Tuple &>(other).elems(), depth);
}

int Tuple::compare(Thread &t, const Object &other, int depth) const {
  return compareSequences(t, elems(), static_cast<const Tuple &>(other).elems(), depth);
}

// A tuple has no frozen state of its own; the flag only records that its
// elements have been frozen, so shared subtrees are visited once.
void Tuple::freeze() {
  if (frozen_)
    return;
  frozen_ = true;
  for (Value v : elems())
    freezeValue(v);
}

Iterator *Tuple::iterate(Thread &) {
  return new TupleIterator(this);
}

Value Tuple::index(Thread &t, Value key) {
  return data()[sequenceIndex(t, "tuple", key, size_)];
}

} // namespace fbc::star
