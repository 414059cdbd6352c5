// What loading a spec may take (docs/run.md "Limits"): a spec is a program,
// and one that loops or allocates without end fails at the statement that
// passed the budget (a located error) instead of hanging fbc or exhausting
// the machine's memory. One setting per process: the commands that load a
// spec set it from their flags (--max-load-steps, --max-load-memory).
#pragma once

#include <cstdint>

namespace fbc::ir {

struct LoadLimits {
  static constexpr uint64_t kDefaultSteps = 100'000'000;
  static constexpr uint64_t kDefaultMemoryMiB = 2048;
  // Execution steps: one per Starlark function call and per loop or
  // comprehension iteration.
  uint64_t maxSteps = kDefaultSteps;
  // Growth of fbc's memory in use (malloc and the Starlark heap) while the
  // spec runs, in MiB.
  uint64_t maxMemoryMiB = kDefaultMemoryMiB;
};

// The limits loadSpec() applies.
LoadLimits &loadLimits();

} // namespace fbc::ir
