// The range type: an immutable arithmetic sequence of ints, O(1) in size.
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <string>

namespace fbc::star {

namespace {

class RangeIterator final : public PooledIterator<RangeIterator> {
public:
  RangeIterator(Heap &heap, const Range *r)
      : heap_(heap), next_(r->start), step_(r->step), left_(r->len) {}
  bool next(Value &out) override {
    if (left_ == 0)
      return false;
    out = Value::fitsSmall(next_) ? Value::small(next_) : makeInt(heap_, next_);
    --left_;
    if (left_ != 0) // the step past the last element may overflow
      next_ += step_;
    return true;
  }

private:
  Heap &heap_;
  int64_t next_, step_, left_;
};

} // namespace

void Range::repr(Printer &p) const {
  if (step != 1)
    p.write("range(" + std::to_string(start) + ", " + std::to_string(stop) + ", " +
            std::to_string(step) + ")");
  else if (start != 0)
    p.write("range(" + std::to_string(start) + ", " + std::to_string(stop) + ")");
  else
    p.write("range(" + std::to_string(stop) + ")");
}

uint32_t Range::hash(Thread &t) const {
  t.fail("unhashable: range");
}

// Two ranges are equal if they denote the same sequence.
bool Range::equals(Thread &, const Object &other, int) const {
  const Range &y = static_cast<const Range &>(other);
  if (len != y.len)
    return false;
  if (len == 0)
    return true;
  if (start != y.start)
    return false;
  return len == 1 || step == y.step;
}

Iterator *Range::iterate(Thread &t) {
  return new RangeIterator(t.heap, this);
}

Value Range::index(Thread &t, Value key) {
  int64_t i = sequenceIndex(t, "range", key, len);
  return makeInt(t.heap, start + i * step);
}

} // namespace fbc::star
