#include "tools/fbc/replay_command.h"

#include "bundle/env.h"
#include "bundle/replay.h"
#include "runtime/containers/container_run.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace fbc::tools {

void addReplayOptions(CLI::App &sub, ReplayOptions &opts) {
  RunOptions &r = opts.run;
  sub.add_option("bundle", opts.bundle, "the bundle to replay (.fb)")->required();
  sub.add_option("--test", r.test, "replay only matching tests (as fbc run --test)");
  sub.add_option("--leaf", r.leaf, "replay only this leaf of each test");
  sub.add_option("--seed", r.seed, "override the bundle's seed");
  sub.add_option("--spec", opts.spec,
                 "run this spec (an edited copy) instead of the bundle's snapshot, with the "
                 "bundle's seed and leaves; plan drift against the bundle's plan.json");
  sub.add_option("--format", r.format, "text (default) or json");
  sub.add_option("--timeout", r.timeout, "body timeout per test, e.g. 30s (default 60s)");
  sub.add_flag("-v,--verbose", r.verbose, "stream service output, prefixed by service name");
  addBundleOptions(sub, r);
}

namespace {

// What a replay takes from the bundle whatever spec it runs: the seed, the
// explored leaves' release orders, --require-faults-fire, the plan to check
// drift against.
void fromBundle(const bundle::OpenedBundle &b, RunOptions &run) {
  const bundle::Manifest &m = b.manifest;
  run.command = "fbc replay";
  if (!run.seed)
    run.seed = std::to_string(m.seed);
  // The leaves the run explored (--explore, or a dpor site), each in the
  // order it released its calls: replayed exactly, nothing explored anew.
  for (const bundle::TestRow &row : m.tests)
    if (row.leafId && !row.leaf.schedule.empty())
      run.schedules.push_back({row.name, *row.leafIndex(), row.released});
  if (m.explore.policy != ir::ExploreOptions::Policy::None || !run.schedules.empty())
    run.replayExplore = m.explore;
  run.requireFaultsFire = m.requireFaultsFire;
  if (const bundle::Entry *plan = b.contents.find("plan.json"))
    run.driftAgainst = plan->data;
}

// --spec PATH: the bundle's seed and leaves against a spec on disk (an
// edited one), from here; drift is what the edit changed in the plan.
int replayAgainst(const ReplayOptions &opts) {
  llvm::Expected<bundle::OpenedBundle> b = bundle::openBundle(opts.bundle);
  if (!b) {
    std::fprintf(stderr, "fbc replay: error: %s\n", llvm::toString(b.takeError()).c_str());
    return 1;
  }
  RunOptions run = opts.run;
  fromBundle(*b, run);
  run.spec = opts.spec;
  std::fprintf(stderr,
               "Replaying %s from %s with seed %s (the spec given with --spec, not the "
               "bundle's snapshot of %s)\n",
               opts.spec.c_str(), opts.bundle.c_str(), run.seed->c_str(),
               b->manifest.specRoot.c_str());
  if (!run.driftAgainst)
    std::fprintf(stderr, "fbc replay: the bundle has no plan.json (no plan data): plan drift "
                         "not checked\n");
  return runRun(run);
}

} // namespace

int runReplay(const ReplayOptions &opts) {
  if (!opts.spec.empty())
    return replayAgainst(opts);
  llvm::Expected<bundle::ReplaySetup> setup = bundle::prepareReplay(opts.bundle);
  if (!setup) {
    std::fprintf(stderr, "fbc replay: error: %s\n", llvm::toString(setup.takeError()).c_str());
    return 1;
  }
  const bundle::Manifest &m = setup->bundle.manifest;
  RunOptions run = opts.run;
  fromBundle(setup->bundle, run);
  // The snapshot runs the rows the bundle ran, and no others (a bundle of
  // --test X, --leaf N or one shard); parseManifest checked each leaf id.
  // (With --spec, an edited spec, the tests are the spec's.)
  run.replayRows.emplace();
  for (const bundle::TestRow &row : m.tests)
    run.replayRows->push_back({row.name, row.leafIndex()});
  run.spec = setup->specPath;
  run.serviceDir = setup->serviceDir;
  run.specRoot = m.specRoot;
  std::fprintf(stderr, "Replaying %s from %s with seed %s (%zu spec files in %s)\n",
               m.specRoot.c_str(), opts.bundle.c_str(), run.seed->c_str(), setup->extracted,
               setup->tempDir.c_str());
  if (const bundle::Entry *env = setup->bundle.contents.find("env.json")) {
    // A bundle's env.json that does not parse says nothing about remotes;
    // inspect reports it.
    llvm::Expected<bundle::Env> e = bundle::parseEnv(env->data);
    if (!e)
      llvm::consumeError(e.takeError());
    else if (!e->remotes.empty())
      std::fprintf(stderr, "fbc replay: %s", bundle::replayRemotesWarning(e->remotes).c_str());
    // An image whose name now gives other bytes: the replay is of another
    // system under test (an engine that cannot be had says so in the run).
    for (const bundle::EnvImage &image : e ? e->images : std::vector<bundle::EnvImage>{}) {
      std::string why;
      std::optional<std::string> now = rt::containers::resolveImageNow(image.image, why);
      if (now && *now != image.id)
        std::fprintf(stderr, "fbc replay: %s", bundle::replayImageWarning(image, *now).c_str());
    }
  }
  if (!run.driftAgainst)
    std::fprintf(stderr, "fbc replay: the bundle has no plan.json (no plan data): plan drift "
                         "not checked\n");
  // The run happens in the snapshot's folder (replay.h says why); the new
  // bundle still goes where `fbc run` would put it from here.
  char here[PATH_MAX];
  if (!getcwd(here, sizeof here)) {
    std::fprintf(stderr, "fbc replay: error: cannot read the current folder: %s\n",
                 std::strerror(errno));
    bundle::removeTree(setup->tempDir);
    return 1;
  }
  run.bundleBaseDir = here;
  if (!setup->cwd.empty() && chdir(setup->cwd.c_str()) != 0) {
    std::fprintf(stderr, "fbc replay: error: cannot enter \"%s\": %s\n", setup->cwd.c_str(),
                 std::strerror(errno));
    bundle::removeTree(setup->tempDir);
    return 1;
  }
  int rc = runRun(run);
  if (chdir(here) != 0)
    std::fprintf(stderr, "fbc replay: warning: cannot return to \"%s\"\n", here);
  bundle::removeTree(setup->tempDir);
  return rc;
}

} // namespace fbc::tools
