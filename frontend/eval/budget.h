// A memory budget for the Starlark that runs on this OS thread: an embedder
// (fbc loading a spec) installs one; the operations that build one large
// value in a step (repetition, concatenation) check it before they
// allocate, and the embedder checks it every few thousand steps for what
// loops build. Without one installed nothing is checked.
#pragma once

#include "frontend/eval/thread.h"

#include <cstdint>
#include <string>

namespace fbc::star {

struct MemoryBudget {
  uint64_t maxBytes = 0; // growth allowed past `base`
  uint64_t base = 0;     // memoryInUse() when the budget was installed
  std::string message;   // what a thread past it fails with
};

// malloc's bytes in use (mallinfo2) plus `heap`'s.
uint64_t memoryInUse(const Heap &heap);

// Installs `budget` on this OS thread for the scope's life.
class ScopedMemoryBudget {
public:
  explicit ScopedMemoryBudget(MemoryBudget &budget);
  ~ScopedMemoryBudget();
  ScopedMemoryBudget(const ScopedMemoryBudget &) = delete;
  ScopedMemoryBudget &operator=(const ScopedMemoryBudget &) = delete;

private:
  MemoryBudget *previous_;
};

// Fails `t` with the budget's message when `more` bytes on top of what is
// in use would pass this OS thread's budget (if any).
void checkMemory(Thread &t, uint64_t more = 0);

} // namespace fbc::star
