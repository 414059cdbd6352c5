// One job of the leaf driver (executor.cpp, leaf_scheduler.cpp): a leaf to
// run and, once run, its row; or a row known without running anything; or
// the rest of a test whose axes its leaf 0 sizes. Private to those files.
#pragma once

#include "ir/leaf_program.h"
#include "runtime/driver/executor.h"
#include "runtime/explore/dpor.h"
#include "runtime/explore/schedule.h"
#include "runtime/trace/outcome.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

struct Executor::LeafJob {
  size_t testPos = 0;               // the test's index in run()'s list (not_run)
  const ir::LeafTest *lt = nullptr; // the leaf's test (null for a known row)
  uint64_t index = 0;               // the leaf (0 for a test without fan-out)
  // Leaf 0 of a test with an axis of unknown size: the copy of the test
  // that its run sizes (finishJob()).
  ir::LeafTest *sizing = nullptr;
  bool report = true; // false: run to size the axes for a --leaf, no row
  bool rest = false;  // stands for the leaves after the sizing one (expandRest())

  // A leaf of an explored test (ir::LeafTest::explored()): the release
  // order it follows, and what it released.
  struct Explore {
    bool on = false;
    std::vector<std::string> prefix; // released first, in order (then the first waiting)
    std::optional<uint64_t> sample;  // --explore=sample: the seed of its random order
    bool pinned = false;             // a replayed schedule: nothing follows from it
    // parallel(interleavings="dpor"): the test's exploration, shared by its
    // leaves (each next leaf is the one it asks for).
    std::shared_ptr<explore::Dpor> dpor;
    std::vector<explore::Step> steps;
    std::optional<size_t> diverged;
  } explore;

  // The result: the row (set up front for an error row), or interrupted.
  std::optional<TestOutcome> row;
  bool interrupted = false;
  bool finished = false;            // ran (or needed no run) and finishJob() is done
  std::vector<uint64_t> sized;      // per axis, what the sizing run saw
  std::vector<RunWarning> warnings; // in the order the leaf gave them

  static LeafJob leaf(const ir::LeafTest *lt, uint64_t index) {
    LeafJob j;
    j.lt = lt;
    j.index = index;
    return j;
  }
};

} // namespace fbc::rt
