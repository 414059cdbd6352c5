// Helpers shared by the container types (list, tuple, dict, set, range),
// their method tables and the universe builtins: Go's index conversions and
// their error texts, mutation checks, and recycled iterators.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/value.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::star {

// Freezes v unless it is already frozen (immutable objects always are).
inline void freezeValue(Value v) {
  if (v.isObject() && !v.obj()->frozen())
    v.obj()->freeze();
}

inline Value newList(Thread &t, std::vector<Value> elems = {}) {
  return Value::object(t.heap.make<List>(std::move(elems)));
}

// Go's AsInt32: an int that fits in 32 bits. On failure returns false and
// sets `err` to Go's text ("got float, want int", "4294967296 out of range").
bool asInt32(Value v, int64_t &out, std::string &err);

// Go's outOfRange(): "index 3 out of range: empty list" or
// "list index 3 out of range [-3:2]".
std::string outOfRange(int64_t i, int64_t n, std::string_view type);

// Resolves x[key] for a sequence of length n (negative keys count from the
// end) with Go's errors: "list index: got float, want int", outOfRange().
int64_t sequenceIndex(Thread &t, std::string_view type, Value key, int64_t n);

// Go's indices(): optional start/end (null or None = absent) clamped to
// [0, len]. On a bad type returns false with err "invalid start index: ...".
bool clampedIndices(Value start, Value end, int64_t len, int64_t &from, int64_t &to,
                    std::string &err);

// The text Go reports when a list or hash table may not change, or "" when
// it may: "cannot append to frozen list", "cannot insert into hash table
// during iteration".
std::string mutationError(const Object &o, std::string_view verb, std::string_view what);

// `fn: <message of e>`, keeping Go's nameErr() convention for errors raised
// by an operation a builtin delegates to.
[[noreturn]] void failPrefixed(Thread &t, std::string_view fn, const std::exception &e);

// Three-way comparison of two sequences (lists or tuples) for the ordered
// operators: the first unequal elements decide, else the lengths.
int compareSequences(Thread &t, llvm::ArrayRef<Value> x, llvm::ArrayRef<Value> y, int depth);
// Element-wise equality of two sequences.
bool equalSequences(Thread &t, llvm::ArrayRef<Value> x, llvm::ArrayRef<Value> y, int depth);

// dict(...) and dict.update(...): at most one positional argument (a dict
// or an iterable of pairs), then the keywords. Errors read "fn: ...".
void updateDict(Thread &t, Dict &d, const Args &args, std::string_view fn);

// An iterator over the live keys of `table`, locking `owner` (the dict or
// set holding it) until done().
Iterator *makeKeyIterator(Object *owner, const HashTable &table);

// Storage for the immutable builtin values shared by every thread (the
// universe, the struct builtin): never destroyed.
Heap &staticHeap();

// Iterators are created for every loop that is not fast-pathed by the
// evaluator; recycling their memory keeps long-running loops from growing
// the arena. An iterator deletes itself in done(), which the protocol calls
// exactly once.
template <class Derived> class PooledIterator : public Iterator {
public:
  static void *operator new(size_t size) {
    std::vector<void *> &free = freeList().blocks;
    if (size == sizeof(Derived) && !free.empty()) {
      void *p = free.back();
      free.pop_back();
      return p;
    }
    return ::operator new(size);
  }
  static void operator delete(void *p, size_t size) {
    std::vector<void *> &free = freeList().blocks;
    if (size == sizeof(Derived) && free.size() < kMaxFree)
      free.push_back(p);
    else
      ::operator delete(p);
  }
  void done() override { delete static_cast<Derived *>(this); }

private:
  static constexpr size_t kMaxFree = 64;
  struct FreeList {
    std::vector<void *> blocks;
    ~FreeList() {
      for (void *p : blocks)
        ::operator delete(p);
    }
  };
  static FreeList &freeList() {
    thread_local FreeList list;
    return list;
  }
};

} // namespace fbc::star
