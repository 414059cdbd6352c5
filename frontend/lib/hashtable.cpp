// The insertion-ordered hash table behind dict and set.
//
// Entries live in a vector in insertion order, which is the iteration order.
// Small tables (the common case: keyword dicts, struct-like records) are
// scanned linearly and have no index at all. Larger ones add an open-
// addressing index of entry positions, kept at most half full. Deleting from
// an indexed table leaves a tombstone (value null) so positions stay valid;
// a rehash drops the tombstones, preserving the order of the live entries.
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"

#include <bit>
#include <cstdint>

namespace fbc::star {

namespace {

// Tables with at most this many entries are scanned instead of indexed.
constexpr size_t kLinearLimit = 8;

// Dict keys are mostly small ints and strings: compare those without the
// generic equality (equal ints and floats hash alike and fall through).
// (The caller has checked identity, the common case of a key object reused.)
bool sameKey(Thread &t, Value a, Value b) {
  if (a.isSmallInt() && b.isSmallInt())
    return false;
  String *sa = a.as<String>();
  String *sb = b.as<String>();
  if (sa && sb)
    return sa->view() == sb->view();
  return equals(t, a, b);
}

// An index size (a power of two) keeping n entries at most half full.
size_t indexSizeFor(size_t n) {
  size_t size = 2 * kLinearLimit;
  while (size < 2 * n)
    size <<= 1;
  return size;
}

// Multiplicative hashing spreads weak hashes (consecutive ints, Java string
// hashes) over the index. The constant is not the golden ratio on purpose:
// the int hash already multiplies by it, and the two together cluster.
size_t firstSlot(uint32_t hash, size_t indexSize) {
  unsigned bits = std::countr_zero(indexSize);
  return (hash * 0x85EBCA6Bu) >> (32 - bits);
}

void place(std::vector<int32_t> &index, int32_t entry, uint32_t hash) {
  size_t mask = index.size() - 1;
  size_t slot = firstSlot(hash, index.size());
  while (index[slot] >= 0)
    slot = (slot + 1) & mask;
  index[slot] = entry;
}

} // namespace

int64_t HashTable::find(Thread &t, Value key, uint32_t hash) const {
  if (index_.empty()) {
    for (size_t i = head_, n = entries_.size(); i < n; ++i) {
      const Entry &e = entries_[i];
      if (e.hash == hash && !e.value.isNull() && (e.key == key || sameKey(t, e.key, key)))
        return static_cast<int64_t>(i);
    }
    return -1;
  }
  size_t mask = index_.size() - 1;
  for (size_t slot = firstSlot(hash, index_.size());; slot = (slot + 1) & mask) {
    int32_t i = index_[slot];
    if (i < 0)
      return -1;
    const Entry &e = entries_[i];
    if (e.hash == hash && !e.value.isNull() && (e.key == key || sameKey(t, e.key, key)))
      return i;
  }
}

Value HashTable::get(Thread &t, Value key) const {
  uint32_t hash = hashValue(t, key); // even when empty: unhashable keys fail
  if (live_ == 0)
    return Value();
  int64_t i = find(t, key, hash);
  return i < 0 ? Value() : entries_[i].value;
}

void HashTable::set(Thread &t, Value key, Value value) {
  uint32_t hash = hashValue(t, key);
  if (live_ != 0) {
    int64_t i = find(t, key, hash);
    if (i >= 0) {
      entries_[i].value = value;
      return;
    }
  }
  if (index_.empty() ? entries_.size() >= kLinearLimit : (entries_.size() + 1) * 2 > index_.size())
    rehash(indexSizeFor(live_ + 1));
  entries_.push_back(Entry{key, value, hash});
  if (!index_.empty())
    place(index_, static_cast<int32_t>(entries_.size() - 1), hash);
  ++live_;
}

Value HashTable::erase(Thread &t, Value key) {
  uint32_t hash = hashValue(t, key);
  if (live_ == 0)
    return Value();
  int64_t i = find(t, key, hash);
  if (i < 0)
    return Value();
  Value v = entries_[i].value;
  if (--live_ == 0) {
    clear();
  } else if (index_.empty()) {
    entries_.erase(entries_.begin() + i); // no index to keep valid
  } else {
    entries_[i].key = Value();
    entries_[i].value = Value();
    // Mostly tombstones: compact, so scans (iteration, popitem) stay linear.
    if (live_ * 2 < entries_.size())
      rehash(live_ <= kLinearLimit ? 0 : indexSizeFor(live_));
  }
  return v;
}

void HashTable::clear() {
  entries_.clear();
  index_.clear();
  live_ = 0;
  head_ = 0;
}

int64_t HashTable::first() const {
  if (live_ == 0)
    return -1;
  while (entries_[head_].value.isNull())
    ++head_;
  return static_cast<int64_t>(head_);
}

// Drops the tombstones and rebuilds the index with `capacity` slots (0: no
// index, for a small table).
void HashTable::rehash(size_t capacity) {
  if (live_ != entries_.size()) {
    size_t out = 0;
    for (size_t i = 0, n = entries_.size(); i < n; ++i)
      if (!entries_[i].value.isNull())
        entries_[out++] = entries_[i];
    entries_.resize(out);
  }
  head_ = 0;
  if (capacity == 0) {
    index_.clear();
    return;
  }
  index_.assign(capacity, -1);
  entries_.reserve(capacity / 2); // the most entries before the next rehash
  for (size_t i = 0, n = entries_.size(); i < n; ++i)
    place(index_, static_cast<int32_t>(i), entries_[i].hash);
}

} // namespace fbc::star
