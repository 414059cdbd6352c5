// Set algebra shared by the set operators (| & ^ - and the subset
// comparisons < <= > >=) and the set methods, with the semantics of the
// recent go.starlark.net (the one the reference tool embeds): results keep
// the left operand's iteration order, then append new elements in the
// order the right operand yields them.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/value.h"

namespace fbc::star {

// A new set with x's elements.
Set *copySet(Thread &t, const Set &x);
// Whether x contains key (throws "unhashable type: ..." for a bad key).
bool setHas(Thread &t, const Set &x, Value key);
// A new set with the distinct elements of an iterable value.
Set *setOf(Thread &t, Value iterable);

// In place on r (which the caller has checked is mutable): add the
// elements of y; keep only those in y; drop those in y; toggle y's.
void addAll(Thread &t, Set &r, const Set &y);
void keepOnly(Thread &t, Set &r, const Set &y);
void removeAll(Thread &t, Set &r, const Set &y);
void toggleAll(Thread &t, Set &r, const Set &y);

// x | y, x & y, x ^ y, x - y as new sets; null for another operator.
Value setBinary(Thread &t, BinOp op, const Set &x, const Set &y);
// x < y (proper subset), x <= y, x > y, x >= y (false for == and !=,
// which Set::equals answers).
bool setCompare(Thread &t, CmpOp op, const Set &x, const Set &y);

} // namespace fbc::star
