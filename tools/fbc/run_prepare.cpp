// The plan, leaf program and leaf selection of a run: see run_prepare.h.
#include "tools/fbc/run_prepare.h"

#include "backend/leaf_lower.h"
#include "backend/plan_emit.h"
#include "bundle/plan_drift.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdio>

namespace fbc::tools {
namespace {

// The leaf program file given with --leaf-program replaces the lowering.
bool readLeafProgram(const RunOptions &opts, ir::LoadedSpec &loaded, PreparedRun &out) {
  const char *cmd = opts.command.c_str();
  std::string error;
  if (!ir::readLeafProgramFile(opts.leafProgram, loaded.spec(), loaded.sources(), out.leaves,
                               error))
    return commandError(cmd, error);
  std::fprintf(stderr,
               "%s: running the leaf program in %s, not the spec's own lowering (a replay of "
               "this run lowers the spec again)\n",
               cmd, opts.leafProgram.c_str());
  return true;
}

// A replay's "plan drift:" warnings (the replayed bundle's plan.json
// against this one).
void printDrift(const RunOptions &opts, const std::string &planJson) {
  llvm::Expected<std::vector<std::string>> drift = bundle::planDrift(*opts.driftAgainst, planJson);
  if (!drift)
    std::fprintf(stderr, "%s: warning: plan drift not checked: %s\n", opts.command.c_str(),
                 llvm::toString(drift.takeError()).c_str());
  else
    for (const std::string &line : *drift)
      std::fprintf(stderr, "%s\n", line.c_str());
}

// The explore settings need something to explore; a dpor test finds its
// leaves as it runs, so it cannot be split into shards.
bool checkExploring(const RunOptions &opts, const RunSettings &s, const ir::LeafProgram &leaves) {
  const char *cmd = opts.command.c_str();
  bool dpor = std::any_of(leaves.tests.begin(), leaves.tests.end(),
                          [](const ir::LeafTest &t) { return t.dpor.has_value(); });
  bool tuned = !opts.explore.budget.empty() || !opts.explore.settle.empty() ||
               !opts.explore.quietBound.empty();
  if (tuned && !s.exploring() && !dpor)
    return commandError(cmd, "--explore-budget, --explore-settle and --explore-quiet-bound need "
                             "--explore or an interleavings=\"dpor\" site (parallel(), wait_*())");
  if (dpor && s.shard)
    return commandError(cmd, "a test with an interleavings=\"dpor\" site finds its leaves as it "
                             "runs: it cannot be sharded");
  return true;
}

// Every shard computes the same split (backend/shard.h) of the tests
// --test selects, then runs its own part of it.
bool selectShard(const RunOptions &opts, RunSettings &s, PreparedRun &out) {
  const char *cmd = opts.command.c_str();
  std::optional<backend::MeasuredDurations> measured;
  backend::ShardPlan split;
  std::string from, error;
  const std::string &specRoot = opts.specRoot.empty() ? opts.spec : opts.specRoot;
  if (!measuredForShards(opts.durationsFrom, specRoot, measured, from, error) ||
      !backend::assignShards(out.leaves, s.shard->count, measured ? &*measured : nullptr,
                             out.include, split, error))
    return commandError(cmd, error);
  if (!from.empty())
    std::fprintf(stderr,
                 "%s: shards balanced by what %s measured (the newest bundle of %s in "
                 "$FBC_BUNDLE_DIR)\n",
                 cmd, from.c_str(), specRoot.c_str());
  out.selection = backend::selectShard(split, out.leaves.tests.size(), s.shard->index);
  s.cfg.selection = &out.selection;
  std::fprintf(stderr, "%s: shard %u/%u (%s): %s of %s leaves, ~%s estimated\n", cmd,
               s.shard->index + 1, s.shard->count, s.shard->source.c_str(),
               backend::shardLeafCount(out.leaves, split, s.shard->index).str().c_str(),
               backend::shardLeafCount(out.leaves, split, std::nullopt).str().c_str(),
               backend::estimateText(split.costMs[s.shard->index]).c_str());
  return true;
}

// fbc replay: the leaves of the bundle's rows. A test whose leaves the run
// finds as it goes (explored, or sized by its leaf 0) runs whole; its rows'
// schedules (RunConfig::schedules) say which orders.
void selectReplayRows(const std::vector<RunOptions::Row> &rows, RunSettings &s, PreparedRun &out) {
  out.selection.tests.assign(out.leaves.tests.size(), {});
  for (size_t i = 0; i < out.leaves.tests.size(); ++i) {
    const ir::LeafTest &lt = out.leaves.tests[i];
    backend::LeafSelection::PerTest &sel = out.selection.tests[i];
    if (!out.include[i])
      continue;
    bool whole = lt.explored() || !lt.count.exact;
    bool any = false;
    for (const RunOptions::Row &r : rows) {
      if (r.test != lt.test->name)
        continue;
      any = true;
      if (!r.leaf)
        whole = true;
      else
        sel.leaves.push_back(*r.leaf);
    }
    std::sort(sel.leaves.begin(), sel.leaves.end());
    sel.leaves.erase(std::unique(sel.leaves.begin(), sel.leaves.end()), sel.leaves.end());
    if (whole || sel.leaves.size() == lt.count.value) {
      sel.leaves.clear();
      sel.all = any;
    }
    out.include[i] = any;
  }
  s.cfg.selection = &out.selection;
}

} // namespace

bool prepareRun(const RunOptions &opts, ir::LoadedSpec &loaded,
                const std::vector<const ir::Test *> &tests, RunSettings &s, PreparedRun &out) {
  // The leaf program: the plan's axes, lowered; every leaf of every test
  // runs (docs/leaves.md). The bundle's plan.json is this plan as `fbc
  // plan --format=json --coverage` prints it, built before any test runs.
  bool planJson = (s.bundling && !opts.noPlan) || opts.driftAgainst;
  // The same pipeline `fbc ir --print-after=leaves` runs (backend::
  // leafPipeline: the plan passes, then the lowering stage), so what `fbc
  // ir` prints is what this run does.
  backend::leafPipeline(/*coverage=*/planJson, s.explore)
      .runOrAbort(loaded.spec(), out.plan, &out.leaves);
  if (planJson) {
    std::string text;
    llvm::raw_string_ostream os(text);
    backend::PlanEmitOptions emit;
    emit.coverage = true;
    backend::emitPlanJson(out.plan, emit, os);
    os.flush();
    out.planJson = std::move(text);
  }
  if (opts.driftAgainst)
    printDrift(opts, *out.planJson);
  if (!opts.leafProgram.empty() && !readLeafProgram(opts, loaded, out))
    return false;
  s.cfg.leaves = &out.leaves;
  if (!checkExploring(opts, s, out.leaves))
    return false;
  out.include.assign(out.leaves.tests.size(), false);
  for (size_t i = 0; i < out.leaves.tests.size(); ++i)
    out.include[i] = std::find(tests.begin(), tests.end(), out.leaves.tests[i].test) != tests.end();
  if (s.shard)
    return selectShard(opts, s, out);
  if (opts.replayRows)
    selectReplayRows(*opts.replayRows, s, out);
  return true;
}

} // namespace fbc::tools
