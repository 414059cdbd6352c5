// The list type: a mutable sequence, locked while iterated.
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/universe/universe_helpers.h"

namespace fbc::star {

namespace {

class ListIterator final : public PooledIterator<ListIterator> {
public:
  explicit ListIterator(List *l) : list_(l), guard_(l) {}
  bool next(Value &out) override {
    if (i_ >= list_->elems.size())
      return false;
    out = list_->elems[i_++];
    return true;
  }

private:
  List *list_;
  size_t i_ = 0;
  IterationGuard guard_; // released when done() deletes the iterator
};

} // namespace

void List::repr(Printer &p) const {
  p.write('[');
  if (!p.enter(this)) {
    p.write("...]"); // the list contains itself
    return;
  }
  for (size_t i = 0; i < elems.size(); ++i) {
    if (i)
      p.write(", ");
    p.repr(elems[i]);
  }
  p.leave();
  p.write(']');
}

bool List::equals(Thread &t, const Object &other, int depth) const {
  return equalSequences(t, elems, static_cast<const List &>(other).elems, depth);
}

int List::compare(Thread &t, const Object &other, int depth) const {
  return compareSequences(t, elems, static_cast<const List &>(other).elems, depth);
}

void List::freeze() {
  if (frozen_)
    return;
  frozen_ = true;
  for (Value v : elems)
    freezeValue(v);
}

Iterator *List::iterate(Thread &) {
  return new ListIterator(this);
}

Value List::index(Thread &t, Value key) {
  return elems[sequenceIndex(t, "list", key, static_cast<int64_t>(elems.size()))];
}

void List::setIndex(Thread &t, Value key, Value v) {
  // Go reports a bad index before a frozen list, and without the
  // "list index:" prefix that x[i] uses.
  const int64_t n = static_cast<int64_t>(elems.size());
  int64_t i;
  std::string err;
  if (!asInt32(key, i, err))
    t.fail(err);
  int64_t orig = i;
  if (i < 0)
    i += n;
  if (i < 0 || i >= n)
    t.fail(outOfRange(orig, n, "list"));
  checkMutable(t, "assign to element of");
  elems[i] = v;
}

void List::checkMutable(Thread &t, std::string_view verb) const {
  if (frozen_ || IterationGuard::locked(*this))
    t.fail(mutationError(*this, verb, "list"));
}

} // namespace fbc::star
