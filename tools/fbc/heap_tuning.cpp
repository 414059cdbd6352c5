#include "tools/fbc/heap_tuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace fbc::tools {

void tuneHeapForBatchRun() {
  constexpr size_t kStep = size_t(1) << 30; // virtual; pages are touched on use
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  // Large blocks stay on the heap (and get huge pages too), the heap grows
  // by kStep at a time and is never trimmed back.
  // One arena: the loader runs on a big-stack thread, which would otherwise
  // get its own (mmap'd, 4 KiB-faulted) arena.
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TOP_PAD, int(kStep));
  mallopt(M_TRIM_THRESHOLD, int(kStep));
  void *before = sbrk(0);
  static void *volatile probe;  // volatile: the malloc/free pair must not be elided
  probe = std::malloc(1 << 20); // forces one growth of kStep
  void *after = sbrk(0);
  std::free(probe);
  if (before == reinterpret_cast<void *>(-1) || after == reinterpret_cast<void *>(-1))
    return;
  uintptr_t lo = (reinterpret_cast<uintptr_t>(before) + kHuge - 1) & ~(kHuge - 1);
  uintptr_t hi = reinterpret_cast<uintptr_t>(after) & ~(kHuge - 1);
  if (hi > lo)
    madvise(reinterpret_cast<void *>(lo), hi - lo, MADV_HUGEPAGE);
}

} // namespace fbc::tools
