#include "tools/fbc/merge_command.h"

#include "backend/leaf_lower.h"
#include "bundle/merge.h"
#include "bundle/replay.h"
#include "bundle/run_bundle.h"
#include "passes/pass_manager.h"
#include "tools/fbc/load_for_command.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace fbc::tools {
namespace {

int error(const std::string &msg) {
  std::fprintf(stderr, "fbc merge: error: %s\n", msg.c_str());
  return 1;
}

} // namespace

void addMergeOptions(CLI::App &sub, MergeOptions &opts) {
  sub.add_option("bundles", opts.bundles, "the shard bundles (.fb), any order")->required();
  sub.add_option("-o,--output", opts.output, "the merged bundle to write")->required();
  sub.add_option("--junit", opts.junit,
                 "also write the merged run's rows as one JUnit XML file (the shards' testcases "
                 "in plan order)");
  sub.add_flag("--allow-partial", opts.allowPartial,
               "exit 0 when leaves of the plan were run by no shard (they are listed either "
               "way)");
}

int runMerge(const MergeOptions &opts) {
  std::vector<bundle::OpenedBundle> inputs;
  for (const std::string &path : opts.bundles) {
    llvm::Expected<bundle::OpenedBundle> b = bundle::openBundle(path);
    if (!b)
      return error(llvm::toString(b.takeError()));
    inputs.push_back(std::move(*b));
  }
  // The plan comes from the spec the shards ran (their snapshot), lowered by
  // the pipeline `fbc run` uses: the same tests, leaves and plan order.
  llvm::Expected<bundle::ReplaySetup> setup = bundle::prepareReplay(opts.bundles.front());
  if (!setup)
    return error(llvm::toString(setup.takeError()));
  char here[PATH_MAX];
  if (!getcwd(here, sizeof here)) {
    bundle::removeTree(setup->tempDir);
    return error(std::string("cannot read the current folder: ") + std::strerror(errno));
  }
  std::unique_ptr<ir::LoadedSpec> loaded;
  if (setup->cwd.empty() || chdir(setup->cwd.c_str()) == 0) {
    loaded = loadSpecForCommand(setup->specPath);
    if (!setup->cwd.empty() && chdir(here) != 0) {
      bundle::removeTree(setup->tempDir);
      return error(std::string("cannot return to the current folder: ") + std::strerror(errno));
    }
  }
  bundle::removeTree(setup->tempDir);
  if (!loaded)
    return error("the spec snapshot of \"" + opts.bundles.front() + "\" does not load");
  ir::Plan plan;
  ir::LeafProgram leaves;
  backend::leafPipeline().runOrAbort(loaded->spec(), plan, &leaves);

  bundle::MergeInfo info;
  info.path = opts.output;
  info.runId = bundle::newRunId();
  info.version = FBC_VERSION;
  llvm::Expected<bundle::MergeResult> merged = bundle::mergeBundles(inputs, leaves, info);
  if (!merged)
    return error(llvm::toString(merged.takeError()));
  llvm::Expected<std::string> bytes = bundle::encodeArchive(merged->entries);
  if (!bytes)
    return error(llvm::toString(bytes.takeError()));
  if (llvm::Error e = bundle::writeFileAtomic(opts.output, *bytes))
    return error("cannot write \"" + opts.output + "\": " + llvm::toString(std::move(e)));
  for (const std::string &leaf : merged->notRun)
    std::fprintf(stderr, "not run by any shard: %s\n", leaf.c_str());
  std::fprintf(stderr, "Merged %zu bundles: %zu rows, %zu leaves of the plan not run\n",
               inputs.size(), merged->rows, merged->notRun.size());
  std::fprintf(stderr, "Bundle: %s\n", opts.output.c_str());
  if (!opts.junit.empty()) {
    if (merged->junit.empty())
      return error("no JUnit XML written: " + merged->junitMissing);
    if (llvm::Error e = bundle::writeFileAtomic(opts.junit, merged->junit))
      return error("cannot write \"" + opts.junit + "\": " + llvm::toString(std::move(e)));
  }
  // A partial merge is not the run CI asked for: a missing shard (a job
  // that never uploaded) must not pass as green.
  if (!merged->notRun.empty() && !opts.allowPartial)
    return error("the merged run is partial: " + std::to_string(merged->notRun.size()) +
                 (merged->notRun.size() == 1 ? " leaf" : " leaves") +
                 " of the plan not run by any shard (--allow-partial accepts that)");
  return 0;
}

} // namespace fbc::tools
