// `fbc merge`: shard bundles (`fbc run --shard K/N`, docs/run.md "Sharding")
// combined into one bundle that covers the whole plan (docs/bundle.md,
// "Merging shards"): the rows of every shard in plan order in manifest.json
// and trace.json (the counts, matrix and summary recomputed from them), each
// service's output in the same order, and the leaves of the plan that no
// shard ran, named in the manifest.
#pragma once

#include "bundle/archive.h"
#include "bundle/inspect.h"
#include "ir/leaf_program.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace fbc::bundle {

struct MergeInfo {
  std::string path;    // the merged bundle's path (replay.sh names it)
  std::string runId;   // newRunId()
  std::string version; // fbc's (env.json stays the first shard's)
  // The most trace.json may hold (the reader's entry limit; smaller in tests).
  uint64_t traceLimit = ReadLimits{}.maxEntryBytes;
};

struct MergeResult {
  std::vector<Entry> entries; // the merged bundle, in the bundle's order
  size_t rows = 0;
  // The plan's leaves no input ran, in plan order, named as `fbc plan
  // --shards` names them ("test_x [leaf 3 — n=3]", "test_y", "test_z [every
  // leaf: at least 2]" for a test sized at run time).
  std::vector<std::string> notRun;
  // The merged run's JUnit XML (also its junit.xml entry): the inputs'
  // testcases in plan order, counted again; empty, with `junitMissing`
  // saying why, when an input has none (a bundle of an older fbc).
  std::string junit;
  std::string junitMissing;
};

// Merges `inputs` (opened with openBundle) against `plan`, the leaf program
// of their spec: every input must come from the same spec snapshot and
// seed, and no row may appear twice. Errors name the bundles concerned.
llvm::Expected<MergeResult> mergeBundles(const std::vector<OpenedBundle> &inputs,
                                         const ir::LeafProgram &plan, const MergeInfo &info);

} // namespace fbc::bundle
