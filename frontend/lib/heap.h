// The allocation arena for Starlark objects. Objects are bump-allocated and
// never freed individually; the Heap destroys them all at once. Types whose
// members own memory (std::vector, APInt, ...) declare
// `static constexpr bool kNeedsDestroy = true` and get their destructor run
// by ~Heap(); the rest are simply dropped with their slab.
#pragma once

#include "frontend/lib/value.h"

#include <llvm/Support/Allocator.h>

#include <new>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::star {

// Where a Heap gets its slabs. Slabs start small (a Heap holding a few
// constants costs little) and double; from 2 MiB up they are mapped
// 2 MiB-aligned and marked for transparent huge pages, so a heap that grows
// to tens of megabytes takes a page fault per 2 MiB instead of per 4 KiB
// (those faults were about a third of the run time of allocation-heavy
// programs).
class SlabAllocator : public llvm::AllocatorBase<SlabAllocator> {
public:
  static constexpr size_t kHugeSize = size_t(2) << 20;
  void *Allocate(size_t size, size_t alignment);
  void Deallocate(const void *ptr, size_t size, size_t alignment);
  using AllocatorBase<SlabAllocator>::Allocate;
  using AllocatorBase<SlabAllocator>::Deallocate;
};

class Heap {
public:
  Heap() = default;
  Heap(const Heap &) = delete;
  Heap &operator=(const Heap &) = delete;
  ~Heap();

  // Allocates and constructs a T (a subclass of Object).
  template <class T, class... A> T *make(A &&...args) {
    void *mem = alloc_.Allocate(sizeof(T), alignof(T));
    T *obj = new (mem) T(std::forward<A>(args)...);
    if constexpr (T::kNeedsDestroy)
      destroy_.push_back(obj);
    return obj;
  }

  // Allocates and constructs a T followed by `extra` bytes of trailing
  // storage (strings, tuples). T must not need destruction.
  template <class T, class... A> T *makeWithTrailing(size_t extra, A &&...args) {
    static_assert(!T::kNeedsDestroy, "trailing-storage objects are dropped, not destroyed");
    void *mem = alloc_.Allocate(sizeof(T) + extra, alignof(T));
    return new (mem) T(std::forward<A>(args)...);
  }

  // Allocates a helper that owns no memory (iterators, for example): it is
  // dropped with its slab and its destructor never runs.
  template <class T, class... A> T *makeUnmanaged(A &&...args) {
    void *mem = alloc_.Allocate(sizeof(T), alignof(T));
    return new (mem) T(std::forward<A>(args)...);
  }

  // Raw arena memory (for arrays owned by heap objects).
  void *allocate(size_t bytes, size_t align) { return alloc_.Allocate(bytes, align); }

  size_t bytesAllocated() const { return alloc_.getBytesAllocated(); }

private:
  // 64 KiB first slab, doubling with every slab after it.
  llvm::BumpPtrAllocatorImpl<SlabAllocator, 65536, 65536, 1> alloc_;
  std::vector<Object *> destroy_;
};

} // namespace fbc::star
