#include "frontend/lib/heap.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

namespace fbc::star {

void *SlabAllocator::Allocate(size_t size, size_t alignment) {
  if (size < kHugeSize) {
    void *p = std::aligned_alloc(alignment < 16 ? 16 : alignment, (size + 15) & ~size_t(15));
    if (!p)
      throw std::bad_alloc();
    return p;
  }
  // Over-map by one huge page and trim, so the slab is 2 MiB-aligned.
  size_t mapped = size + kHugeSize;
  void *raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    throw std::bad_alloc();
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + kHugeSize - 1) & ~(kHugeSize - 1);
  if (aligned > start)
    munmap(raw, aligned - start);
  uintptr_t end = start + mapped, used = aligned + size;
  if (end > used)
    munmap(reinterpret_cast<void *>(used), end - used);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void *>(aligned), size, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void *>(aligned);
}

void SlabAllocator::Deallocate(const void *ptr, size_t size, size_t) {
  if (size < kHugeSize)
    std::free(const_cast<void *>(ptr));
  else
    munmap(const_cast<void *>(ptr), size);
}

Heap::~Heap() {
  for (Object *o : destroy_)
    o->~Object();
}

} // namespace fbc::star
