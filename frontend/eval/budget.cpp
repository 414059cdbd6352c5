#include "frontend/eval/budget.h"

#include <malloc.h>

namespace fbc::star {
namespace {

thread_local MemoryBudget *gBudget = nullptr;

} // namespace

uint64_t memoryInUse(const Heap &heap) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd + heap.bytesAllocated();
}

ScopedMemoryBudget::ScopedMemoryBudget(MemoryBudget &budget) : previous_(gBudget) {
  gBudget = &budget;
}

ScopedMemoryBudget::~ScopedMemoryBudget() {
  gBudget = previous_;
}

void checkMemory(Thread &t, uint64_t more) {
  if (!gBudget)
    return;
  uint64_t used = memoryInUse(t.heap);
  uint64_t grown = used > gBudget->base ? used - gBudget->base : 0;
  if (more > gBudget->maxBytes || grown > gBudget->maxBytes - more)
    t.fail(gBudget->message);
}

} // namespace fbc::star
