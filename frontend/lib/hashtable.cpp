// The insertion-ordered hash table behind dict and set.
//
// Entries live in an array in insertion order, which is the iteration order.
// Small tables (the common case: keyword dicts, struct-like records) are
// scanned linearly and have no index at all. Larger ones add an open-
// addressing index of entry positions, kept at most half full. Deleting from
// an indexed table leaves a tombstone (value null) so positions stay valid;
// a rehash drops the tombstones, preserving the order of the live entries.
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

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

void place(int32_t *index, size_t indexSize, int32_t entry, uint32_t hash) {
  size_t mask = indexSize - 1;
  size_t slot = firstSlot(hash, indexSize);
  while (index[slot] >= 0)
    slot = (slot + 1) & mask;
  index[slot] = entry;
}

} // namespace

int64_t HashTable::find(Thread &t, Value key, uint32_t hash) const {
  if (indexSize_ == 0) {
    for (size_t i = head_, n = size_; i < n; ++i) {
      const Entry &e = entries_[i];
      if (e.hash == hash && !e.value.isNull() && (e.key == key || sameKey(t, e.key, key)))
        return static_cast<int64_t>(i);
    }
    return -1;
  }
  size_t mask = indexSize_ - 1;
  for (size_t slot = firstSlot(hash, indexSize_);; slot = (slot + 1) & mask) {
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

// Moves the entries to a heap array of `capacity` (>= size_) entries. The
// old array stays in the heap as garbage, as every dropped object does.
void HashTable::grow(Thread &t, size_t capacity) {
  if (capacity > uint32_t(INT32_MAX))
    t.fail("hash table too large");
  auto *mem = static_cast<Entry *>(t.heap.allocate(sizeof(Entry) * capacity, alignof(Entry)));
  if (size_)
    std::memcpy(static_cast<void *>(mem), entries_, sizeof(Entry) * size_);
  entries_ = mem;
  capacity_ = static_cast<uint32_t>(capacity);
}

void HashTable::reserve(Thread &t, size_t n) {
  if (n > capacity_)
    grow(t, n);
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
  if (indexSize_ == 0 ? size_ >= kLinearLimit : (size_t(size_) + 1) * 2 > indexSize_)
    rehash(t, indexSizeFor(live_ + 1));
  if (size_ == capacity_)
    grow(t, capacity_ < 2 ? 2 : size_t(capacity_) * 2);
  entries_[size_++] = Entry{key, value, hash};
  if (indexSize_)
    place(index_, indexSize_, static_cast<int32_t>(size_ - 1), hash);
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
  } else if (indexSize_ == 0) {
    // No index to keep valid: close the gap.
    std::memmove(static_cast<void *>(entries_ + i), entries_ + i + 1,
                 sizeof(Entry) * (size_ - i - 1));
    --size_;
  } else {
    entries_[i].key = Value();
    entries_[i].value = Value();
    // Mostly tombstones: compact, so scans (iteration, popitem) stay linear.
    if (size_t(live_) * 2 < size_)
      rehash(t, live_ <= kLinearLimit ? 0 : indexSizeFor(live_));
  }
  return v;
}

void HashTable::clear() {
  size_ = 0;
  indexSize_ = 0;
  live_ = 0;
  head_ = 0;
}

void HashTable::assign(Thread &t, const HashTable &other) {
  clear();
  reserve(t, other.live_);
  for (const Entry &e : other.entries())
    if (!e.value.isNull())
      entries_[size_++] = e;
  live_ = size_;
  if (size_ > kLinearLimit)
    rehash(t, indexSizeFor(size_));
}

int64_t HashTable::first() const {
  if (live_ == 0)
    return -1;
  while (entries_[head_].value.isNull())
    ++head_;
  return static_cast<int64_t>(head_);
}

// Drops the tombstones and rebuilds the index with `indexSize` slots (0: no
// index, for a small table).
void HashTable::rehash(Thread &t, size_t indexSize) {
  if (live_ != size_) {
    size_t out = 0;
    for (size_t i = 0, n = size_; i < n; ++i)
      if (!entries_[i].value.isNull())
        entries_[out++] = entries_[i];
    size_ = static_cast<uint32_t>(out);
  }
  head_ = 0;
  if (indexSize == 0) {
    indexSize_ = 0;
    return;
  }
  if (indexSize > indexSize_ || !index_)
    index_ = static_cast<int32_t *>(t.heap.allocate(sizeof(int32_t) * indexSize, alignof(int32_t)));
  indexSize_ = static_cast<uint32_t>(indexSize);
  std::fill(index_, index_ + indexSize, -1);
  reserve(t, indexSize / 2); // the most entries before the next rehash
  for (size_t i = 0, n = size_; i < n; ++i)
    place(index_, indexSize_, static_cast<int32_t>(i), entries_[i].hash);
}

} // namespace fbc::star
