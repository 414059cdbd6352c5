// What `fbc run` executes, made before any test runs: the plan and the leaf
// program (the same pipeline `fbc ir --stage=leaves` runs, or a leaf program
// file), the plan.json the bundle carries and a replay compares against,
// and the leaves --test and --shard select. Its errors are printed
// ("<command>: error: ...") and the run stops before starting anything.
#pragma once

#include "backend/shard.h"
#include "ir/leaf_program.h"
#include "ir/load/load_spec.h"
#include "ir/plan.h"
#include "tools/fbc/run_settings.h"

#include <optional>
#include <string>
#include <vector>

namespace fbc::tools {

struct PreparedRun {
  ir::Plan plan;
  ir::LeafProgram leaves;
  std::optional<std::string> planJson; // `fbc plan --format=json --coverage`, when wanted
  std::vector<bool> include;           // per leaf-program test: selected by --test
  backend::LeafSelection selection;    // --shard's part of the selected leaves

  PreparedRun() = default;
  // RunConfig points into it (leaves, selection).
  PreparedRun(const PreparedRun &) = delete;
  PreparedRun &operator=(const PreparedRun &) = delete;
};

// Fills `out` and points `s.cfg` at it; false after printing the error.
bool prepareRun(const RunOptions &opts, ir::LoadedSpec &loaded,
                const std::vector<const ir::Test *> &tests, RunSettings &s, PreparedRun &out);

} // namespace fbc::tools
