#include "tools/fbc/run_command.h"

#include "backend/leaf_lower.h"
#include "backend/plan_emit.h"
#include "bundle/archive.h"
#include "bundle/build_context.h"
#include "bundle/plan_drift.h"
#include "bundle/run_bundle.h"
#include "frontend/eval/big_stack.h"
#include "ir/duration.h"
#include "passes/pass_manager.h"
#include "runtime/containers/container_run.h"
#include "runtime/containers/image_build.h"
#include "runtime/containers/pull_progress.h"
#include "runtime/driver/executor.h"
#include "runtime/os/process_groups.h"
#include "runtime/os/requirements.h"
#include "runtime/report/junit.h"
#include "runtime/report/report.h"
#include "tools/fbc/load_for_command.h"
#include "tools/fbc/progress.h"
#include "tools/fbc/run_network.h"
#include "tools/fbc/shard_options.h"

#include <CLI/CLI.hpp>
#include <fnmatch.h>
#include <llvm/Support/raw_ostream.h>
#include <re2/re2.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <random>
#include <thread>

#include "fbc_commit.h"

namespace fbc::tools {
namespace {

std::atomic<bool> gInterrupted{false};

// --runs N and --show: into `cfg`; false after printing the error.
bool runsOptions(const RunOptions &opts, const char *cmd, bool exploring, rt::RunConfig &cfg) {
  if (!opts.runs.empty()) {
    const std::string &n = opts.runs;
    if (n.size() > 7 || n[0] == '0' || n.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(n) > 1000000) {
      std::fprintf(stderr, "%s: error: bad --runs \"%s\": want a number of runs (1..1000000)\n",
                   cmd, n.c_str());
      return false;
    }
    cfg.runs = uint32_t(std::stoul(n));
    if (exploring && cfg.runs > 1) {
      std::fprintf(stderr,
                   "%s: error: --runs repeats each leaf with the next seeds and --explore runs "
                   "each release order once: use one of them\n",
                   cmd);
      return false;
    }
  }
  if (opts.show != "all" && opts.show != "fail") {
    std::fprintf(stderr, "%s: error: bad --show \"%s\": want all or fail\n", cmd,
                 opts.show.c_str());
    return false;
  }
  cfg.showFailOnly = opts.show == "fail";
  return true;
}

std::atomic<bool> gReporting{false};

// SIGINT/SIGTERM: every service process group dies at once (so whatever
// the run is blocked on returns), the executor sees the flag, and the
// results so far are printed. A second signal (or one before the run has
// started) exits immediately.
//
// One thread takes these signals with sigwait(); every other thread blocks
// them (the mask is set before any other thread exists, and threads inherit
// it; a service gets a clean mask at launch). An asynchronous handler would
// run on whichever thread the kernel picks, and ThreadSanitizer defers a
// handler while that thread is inside a syscall it does not treat as
// blocking: a second SIGINT then waited for fbc's blocked write forever.
void startSignalThread() {
  static sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([] {
    for (;;) {
      int sig = 0;
      if (sigwait(&set, &sig) != 0)
        continue;
      // The flag first: whatever finishes because its services died must
      // already see it.
      bool again = gInterrupted.exchange(true);
      rt::signalAllProcessGroups(SIGKILL);
      // exit_group directly: ThreadSanitizer's _exit() finalizes its
      // runtime first, and that waited forever on a lock while another
      // thread sat in a blocked write().
      if (again || !gReporting.load()) {
        // A bundle (or report) half written is removed, and said so.
        if (std::string path = bundle::abandonAtomicWrite(); !path.empty()) {
          std::string msg = "fbc: interrupted again: " + path + " not written\n";
          ssize_t ignored = ::write(STDERR_FILENO, msg.data(), msg.size());
          (void)ignored;
        }
        syscall(SYS_exit_group, 130);
      }
    }
  }).detach();
}

// From here a first signal lets the run print what it has (see above).
void beginInterruptibleRun() {
  gReporting.store(true);
  signal(SIGPIPE, SIG_IGN);
}

bool isGlob(const std::string &s) {
  return s.find_first_of("*?[") != std::string::npos;
}

// The tests `filter` selects, in execution order; empty filter: all.
bool selectTests(const ir::Spec &spec, const std::string &filter,
                 std::vector<const ir::Test *> &out, std::string &error) {
  if (filter.empty()) {
    for (const ir::Test &t : spec.tests)
      out.push_back(&t);
    return true;
  }
  std::unique_ptr<re2::RE2> re;
  if (filter.front() == '~') {
    re = std::make_unique<re2::RE2>(filter.substr(1), re2::RE2::Quiet);
    if (!re->ok()) {
      error = "bad --test regex " + filter.substr(1) + ": " + re->error();
      return false;
    }
  }
  // A test matches by its name or by the name `fbc plan` shows it under
  // (test_matrix_<scenario>: all of that scenario's cells).
  auto matches = [&](const std::string &name) {
    if (re)
      return re2::RE2::PartialMatch(name, *re);
    if (isGlob(filter))
      return fnmatch(filter.c_str(), name.c_str(), 0) == 0 ||
             fnmatch(("test_" + filter).c_str(), name.c_str(), 0) == 0;
    return name == filter || name == "test_" + filter;
  };
  for (const ir::Test &t : spec.tests)
    if (matches(t.name) || (t.kind == ir::TestKind::FaultMatrix && matches(t.planName())))
      out.push_back(&t);
  if (out.empty()) {
    error = "no test matched filter \"" + filter + "\" (available:";
    for (size_t i = 0; i < spec.tests.size(); ++i)
      error += (i ? ", " : " ") + spec.tests[i].name;
    error += spec.tests.empty() ? " none)" : ")";
    return false;
  }
  return true;
}

} // namespace

void addRunOptions(CLI::App &sub, RunOptions &opts) {
  sub.add_option("spec", opts.spec, "spec file (.star)")->required();
  sub.add_option("--test", opts.test,
                 "run only matching tests: a name, a name without test_, a glob, or ~regex");
  sub.add_option("--seed", opts.seed, "seed of every probabilistic rule (default: random)");
  sub.add_option("--format", opts.format, "text (default) or json");
  sub.add_option("--timeout", opts.timeout, "body timeout per test, e.g. 30s (default 60s)");
  sub.add_flag("-v,--verbose", opts.verbose, "stream service output, prefixed by service name");
  sub.add_option("--leaf", opts.leaf,
                 "run only this leaf (\"0\" .. \"N-1\", see fbc ir --stage=leaves) of each test");
  sub.add_option("--shard", opts.shard,
                 "run only shard K of N (K/N, from 1): the leaves are split by estimated "
                 "duration, the same way on every machine (see fbc plan --shards)");
  sub.add_option("--shard-count", opts.shardCount,
                 "N shards, this one JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)");
  sub.add_option("--durations-from", opts.durationsFrom,
                 "balance the shards by the leaf durations an earlier run's bundle measured");
  sub.add_option("--junit", opts.junit,
                 "also write the results as JUnit XML to FILE (default: $XML_OUTPUT_FILE when "
                 "set, as Bazel does)");
  sub.add_option("--leaf-program", opts.leafProgram,
                 "run the leaf program in FILE (the text fbc ir --stage=leaves prints, edited or "
                 "not) instead of the spec's own lowering");
  addExploreOptions(sub, opts.explore);
  sub.add_option("--runs", opts.runs,
                 "run each leaf up to N times, run k with seed --seed + k, until one fails "
                 "(its row is reported; explored leaves run once)");
  sub.add_option("--show", opts.show,
                 "which rows the text report prints: all (default) or fail (the rows that "
                 "did not pass)");
  sub.add_flag("--require-faults-fire", opts.requireFaultsFire,
               "a test that passes while one of its faults never fired fails (as "
               "require_faults_fire=True does for one scenario), naming the rules");
  sub.add_flag("--record-ops", opts.recordOperations,
               "also trap every faultable syscall family of every service and count each "
               "call by its path or destination (slower), for fbc plan --suggest --from");
  sub.add_flag("--progress-lines", opts.progressLines,
               "after each row, a line 'fbc-progress DONE/TOTAL passed=P failed=F NAME' on "
               "stderr (for programs driving fbc, such as fbc mcp)");
  sub.add_option("-j,--jobs", opts.jobs,
                 "run up to N leaves at once (each leaf is in a network namespace of its own); "
                 "auto = the number of CPUs (default 1)");
  sub.add_flag("--host-network", opts.hostNetwork,
               "run every leaf in this host's network instead of a network namespace of its own "
               "(services reach other hosts; a second run on the same ports collides)");
  addBundleOptions(sub, opts);
}

void addBundleOptions(CLI::App &sub, RunOptions &opts) {
  sub.add_option("--bundle", opts.bundle,
                 "write the run's bundle here (default: run-<UTC start>-<seed>.fb in "
                 "$FBC_BUNDLE_DIR or the current folder)");
  sub.add_flag("--no-bundle", opts.noBundle, "write no bundle");
  sub.add_flag("--no-plan", opts.noPlan, "leave plan.json out of the bundle");
}

int runRun(const RunOptions &opts) {
  const char *cmd = opts.command.c_str();
  if (opts.format != "text" && opts.format != "json") {
    std::fprintf(stderr, "%s: error: unknown format '%s' (formats: text, json)\n", cmd,
                 opts.format.c_str());
    return 1;
  }
  if (opts.noBundle && !opts.bundle.empty()) {
    std::fprintf(stderr, "%s: error: --bundle and --no-bundle contradict each other\n", cmd);
    return 1;
  }
  // The bundle's name and created_at are the run's start.
  int64_t startUnix = static_cast<int64_t>(std::time(nullptr));
  rt::RunConfig cfg;
  if (!opts.timeout.empty()) {
    std::string error;
    std::optional<int64_t> d = ir::parseDuration(opts.timeout, error);
    if (!d || *d <= 0) {
      std::fprintf(stderr, "%s: error: bad --timeout \"%s\": %s\n", cmd, opts.timeout.c_str(),
                   d ? "must be positive" : error.c_str());
      return 1;
    }
    cfg.timeoutNs = *d;
    cfg.timeoutExplicit = true;
  }
  if (opts.seed) {
    const std::string &seed = *opts.seed;
    char *end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(seed.c_str(), &end, 10);
    if (errno || !end || *end || seed.empty() || seed.front() == '-') {
      std::fprintf(stderr, "%s: error: bad --seed \"%s\": want a non-negative integer\n", cmd,
                   seed.c_str());
      return 1;
    }
    cfg.seed = v;
  } else {
    std::random_device rd;
    cfg.seed = (static_cast<uint64_t>(rd()) << 32 | rd()) & ((uint64_t(1) << 53) - 1);
  }
  if (!opts.leaf.empty()) {
    const std::string &l = opts.leaf;
    bool ok = l.size() <= 19 && (l == "0" || l[0] != '0') &&
              l.find_first_not_of("0123456789") == std::string::npos;
    if (!ok) {
      std::fprintf(stderr, "%s: error: bad --leaf \"%s\": want a leaf id \"0\" .. \"N-1\"\n", cmd,
                   l.c_str());
      return 1;
    }
    cfg.leafId = std::stoull(l);
  }
  std::optional<ShardRequest> shard;
  {
    std::string error;
    if (!resolveShard(opts.shard, opts.shardCount, shard, error)) {
      std::fprintf(stderr, "%s: error: %s\n", cmd, error.c_str());
      return 1;
    }
    if (shard && !opts.leaf.empty()) {
      std::fprintf(stderr,
                   "%s: error: --leaf picks one leaf; it cannot be combined with "
                   "sharding (%s)\n",
                   cmd, shard->source.c_str());
      return 1;
    }
    if (!shard && !opts.durationsFrom.empty()) {
      std::fprintf(stderr, "%s: error: --durations-from balances shards: give --shard K/N\n", cmd);
      return 1;
    }
    if (!touchBazelShardStatus(error)) {
      std::fprintf(stderr, "%s: error: %s\n", cmd, error.c_str());
      return 1;
    }
  }
  if (opts.jobs == "auto") {
    cfg.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  } else {
    const std::string &j = opts.jobs;
    bool ok = !j.empty() && j.size() <= 4 && j[0] != '0' &&
              j.find_first_not_of("0123456789") == std::string::npos;
    if (!ok) {
      std::fprintf(stderr, "%s: error: bad -j \"%s\": want a number of leaves (1..9999) or auto\n",
                   cmd, j.c_str());
      return 1;
    }
    cfg.jobs = std::stoi(j);
  }
  ir::ExploreOptions explore;
  {
    std::string error;
    if (!exploreOptions(opts.explore, explore, error)) {
      std::fprintf(stderr, "%s: error: %s\n", cmd, error.c_str());
      return 1;
    }
    if (opts.replayExplore)
      explore = *opts.replayExplore;
  }
  bool exploring = explore.policy != ir::ExploreOptions::Policy::None;
  if (!runsOptions(opts, cmd, exploring, cfg))
    return 1;
  if (exploring && cfg.jobs > 1) {
    std::fprintf(stderr,
                 "%s: warning: --explore runs one leaf at a time (each leaf's order follows from "
                 "the last one's)\n",
                 cmd);
    cfg.jobs = 1;
  }
  if (exploring && shard) {
    std::fprintf(stderr, "%s: error: --explore finds its leaves as it runs: it cannot be sharded\n",
                 cmd);
    return 1;
  }
  cfg.schedules = opts.schedules;
  cfg.streamFd = opts.verbose ? STDERR_FILENO : -1;
  cfg.interrupted = &gInterrupted;
  bool bundling = !opts.noBundle;
  cfg.keepServiceOutput = bundling;
  cfg.requireFaultsFire = opts.requireFaultsFire;
  cfg.recordOperations = opts.recordOperations;
  cfg.serviceDir = opts.serviceDir;

  startSignalThread();
  return star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> loaded = loadSpecForCommand(opts.spec);
    if (!loaded)
      return 1;
    std::vector<const ir::Test *> tests;
    std::string error;
    if (!selectTests(loaded->spec(), opts.test, tests, error)) {
      std::fprintf(stderr, "%s: error: %s\n", cmd, error.c_str());
      return 1;
    }
    // What the kernel and our privileges must allow, checked once (this also
    // sets up the run's cgroups and their watchdog: docs/run.md).
    rt::Requirements req = rt::checkRequirements();
    if (!req.missing.empty()) {
      for (const std::string &m : req.missing)
        std::fprintf(stderr, "fbc run: error: %s\n", m.c_str());
      return 1;
    }
    if (!req.cgroups)
      std::fprintf(stderr,
                   "fbc run: warning: containment: %s: services are stopped by process group; "
                   "a process that leaves its group and outlives a killed fbc is not contained, "
                   "and there is no pids limit\n",
                   req.containment.c_str());
    // A network namespace per leaf, or leaves in fbc's own (one at a time).
    chooseLeafNetwork(loaded->spec(), opts.hostNetwork, opts.jobs, cmd, cfg);
    cfg.hostNetwork = opts.hostNetwork;
    // The leaf program: the plan's axes, lowered; every leaf of every test
    // runs (docs/leaves.md). The bundle's plan.json is this plan as `fbc
    // plan --format=json --coverage` prints it, built before any test runs.
    bool planJson = (bundling && !opts.noPlan) || opts.driftAgainst;
    // The same pipeline `fbc ir --print-after=leaves` runs (backend::
    // leafPipeline: the plan passes, then the lowering stage), so what `fbc
    // ir` prints is what this run does.
    ir::Plan plan;
    ir::LeafProgram leaves;
    backend::leafPipeline(/*coverage=*/planJson, explore).runOrAbort(loaded->spec(), plan, &leaves);
    std::optional<std::string> planText;
    if (planJson) {
      std::string text;
      llvm::raw_string_ostream os(text);
      backend::PlanEmitOptions emit;
      emit.coverage = true;
      backend::emitPlanJson(plan, emit, os);
      os.flush();
      planText = std::move(text);
    }
    if (opts.driftAgainst) {
      llvm::Expected<std::vector<std::string>> drift =
          bundle::planDrift(*opts.driftAgainst, *planText);
      if (!drift)
        std::fprintf(stderr, "%s: warning: plan drift not checked: %s\n", cmd,
                     llvm::toString(drift.takeError()).c_str());
      else
        for (const std::string &line : *drift)
          std::fprintf(stderr, "%s\n", line.c_str());
    }
    if (!opts.leafProgram.empty()) {
      if (!ir::readLeafProgramFile(opts.leafProgram, loaded->spec(), loaded->sources(), leaves,
                                   error)) {
        std::fprintf(stderr, "%s: error: %s\n", cmd, error.c_str());
        return 1;
      }
      std::fprintf(stderr,
                   "%s: running the leaf program in %s, not the spec's own lowering (a replay of "
                   "this run lowers the spec again)\n",
                   cmd, opts.leafProgram.c_str());
    }
    cfg.leaves = &leaves;
    bool dpor = std::any_of(leaves.tests.begin(), leaves.tests.end(),
                            [](const ir::LeafTest &t) { return t.dpor.has_value(); });
    bool tuned = !opts.explore.budget.empty() || !opts.explore.settle.empty() ||
                 !opts.explore.quietBound.empty();
    if (tuned && !exploring && !dpor) {
      std::fprintf(stderr,
                   "%s: error: --explore-budget, --explore-settle and --explore-quiet-bound need "
                   "--explore or an interleavings=\"dpor\" site (parallel(), wait_*())\n",
                   cmd);
      return 1;
    }
    if (dpor && shard) {
      std::fprintf(stderr,
                   "%s: error: a test with an interleavings=\"dpor\" site finds its leaves as it "
                   "runs: it cannot be sharded\n",
                   cmd);
      return 1;
    }
    backend::LeafSelection selection;
    std::vector<bool> include(leaves.tests.size(), false);
    for (size_t i = 0; i < leaves.tests.size(); ++i)
      include[i] = std::find(tests.begin(), tests.end(), leaves.tests[i].test) != tests.end();
    if (shard) {
      // Every shard computes the same split (backend/shard.h) of the tests
      // --test selects, then runs its own part of it.
      std::optional<backend::MeasuredDurations> measured;
      backend::ShardPlan split;
      std::string from;
      const std::string &specRoot = opts.specRoot.empty() ? opts.spec : opts.specRoot;
      if (!measuredForShards(opts.durationsFrom, specRoot, measured, from, error) ||
          !backend::assignShards(leaves, shard->count, measured ? &*measured : nullptr, include,
                                 split, error)) {
        std::fprintf(stderr, "%s: error: %s\n", cmd, error.c_str());
        return 1;
      }
      if (!from.empty())
        std::fprintf(stderr,
                     "%s: shards balanced by what %s measured (the newest bundle of %s in "
                     "$FBC_BUNDLE_DIR)\n",
                     cmd, from.c_str(), specRoot.c_str());
      selection = backend::selectShard(split, leaves.tests.size(), shard->index);
      cfg.selection = &selection;
      std::fprintf(stderr, "%s: shard %u/%u (%s): %s of %s leaves, ~%s estimated\n", cmd,
                   shard->index + 1, shard->count, shard->source.c_str(),
                   backend::shardLeafCount(leaves, split, shard->index).str().c_str(),
                   backend::shardLeafCount(leaves, split, std::nullopt).str().c_str(),
                   backend::estimateText(split.costMs[shard->index]).c_str());
    }
    beginInterruptibleRun();
    // Text goes out as the run goes (a long run is not silent until its
    // end); JSON is one document, written at the end.
    bool streaming = opts.format != "json";
    // Test names, reasons and service output come from the spec and its
    // services: shown as text, never as terminal commands.
    auto write = [streaming](const std::string &raw) {
      std::string s = streaming ? rt::escapeControls(raw) : raw;
      std::fwrite(s.data(), 1, s.size(), stdout);
      std::fflush(stdout);
    };
    if (streaming)
      write(rt::textReportHead(cfg.seed));
    // On a terminal (and not in CI, not with -v's service output on
    // stderr): the progress line, erased around every write to stdout.
    std::optional<Progress> progress;
    std::map<std::string, int64_t> estimates; // per test, one leaf
    // --progress-lines: the same counts, one line per row, for a program.
    struct {
      uint64_t total = 0, done = 0, passed = 0, failed = 0;
    } lines;
    bool drawn = !opts.verbose && Progress::wanted();
    if (drawn || opts.progressLines) {
      uint64_t total = 0;
      int64_t estimate = 0;
      for (size_t i = 0; i < leaves.tests.size(); ++i) {
        const backend::LeafSelection::PerTest *sel =
            cfg.selection ? &cfg.selection->tests[i] : nullptr;
        if (!include[i] || (sel && !sel->any()))
          continue;
        uint64_t n = cfg.leafId         ? 1
                     : sel && !sel->all ? sel->leaves.size()
                                        : leaves.tests[i].count.value;
        int64_t one = backend::estimateLeafMs(*leaves.tests[i].test, loaded->spec());
        estimates[leaves.tests[i].test->name] = one;
        total += n;
        estimate += one * int64_t(n);
      }
      if (drawn) {
        progress.emplace(total, estimate);
        // A container image being pulled: its figures in the line, and a
        // line of its own once pulled.
        rt::containers::setPullListener(
            [&progress](const rt::containers::PullStatus &s, bool finished) {
              std::string text = rt::containers::describePull(s, finished);
              if (!finished) {
                progress->note(rt::escapeControls(text));
                return;
              }
              progress->note("");
              progress->around([&] {
                std::fprintf(stderr, "fbc run: %s\n", rt::escapeControls(text).c_str());
                std::fflush(stderr);
              });
            });
      }
      lines.total = total;
    }
    if (streaming || progress || opts.progressLines)
      cfg.onOutcome = [&](const rt::RunReport &r, const rt::TestOutcome &t) {
        if (opts.progressLines) {
          bool failed = t.result == rt::Result::Fail || t.result == rt::Result::Error;
          lines.passed += t.result == rt::Result::Pass;
          lines.failed += failed;
          ++lines.done;
          std::fprintf(
              stderr, "fbc-progress %llu/%llu passed=%llu failed=%llu %s\n",
              static_cast<unsigned long long>(lines.done),
              static_cast<unsigned long long>(std::max(lines.total, lines.done)),
              static_cast<unsigned long long>(lines.passed),
              static_cast<unsigned long long>(lines.failed),
              rt::escapeControls(t.leaf ? t.name + " [leaf " + t.leaf->id + "]" : t.name).c_str());
          std::fflush(stderr);
        }
        if (!progress && !streaming)
          return;
        if (!progress) {
          write(rt::textReportRow(r, t));
          return;
        }
        if (streaming)
          progress->around([&] { write(rt::textReportRow(r, t)); });
        progress->row(t.result == rt::Result::Pass,
                      t.result == rt::Result::Fail || t.result == rt::Result::Error,
                      estimates[t.name]);
      };
    rt::RunReport report;
    {
      rt::containers::installEngineProbe();
      rt::containers::setContextEncoder(bundle::encodeBuildContext);
      rt::Executor exec(*loaded, cfg);
      report = exec.run(tests);
    }
    // The run's containers and network, and the engine fbc started, if any.
    rt::containers::closeSharedRun();
    rt::containers::setPullListener(nullptr);
    progress.reset();
    if (!report.warnings.empty()) {
      frontend::DiagnosticList warnings;
      for (const rt::RunWarning &w : report.warnings)
        warnings.warning(w.loc.file, w.loc.pos, w.message);
      warnings.print(llvm::errs());
      llvm::errs().flush();
    }
    write(streaming ? rt::textReportTail(report) : rt::formatJsonReport(report));
    std::string junit = opts.junit;
    if (junit.empty() && std::getenv("XML_OUTPUT_FILE"))
      junit = std::getenv("XML_OUTPUT_FILE");
    // The JUnit XML: the --junit file and the bundle's junit.xml alike.
    std::string shardText =
        shard ? std::to_string(shard->index + 1) + "/" + std::to_string(shard->count) : "";
    std::string junitXml;
    if (!junit.empty() || bundling) {
      std::vector<std::pair<std::string, std::string>> props;
      if (shard)
        props.emplace_back("shard", shardText);
      junitXml = rt::formatJUnit(report, props);
    }
    if (!junit.empty())
      if (llvm::Error err = bundle::writeFileAtomic(junit, junitXml))
        std::fprintf(stderr, "%s: warning: no JUnit XML written: %s\n", cmd,
                     llvm::toString(std::move(err)).c_str());
    if (bundling) {
      bundle::RunBundleInfo info;
      std::string shown = bundle::resolveBundlePath(opts.bundle, std::getenv("FBC_BUNDLE_DIR"),
                                                    startUnix, cfg.seed, opts.bundleBaseDir);
      info.path = opts.bundleBaseDir.empty() || shown.front() == '/'
                      ? shown
                      : opts.bundleBaseDir + "/" + shown;
      info.specPath = opts.specRoot.empty() ? opts.spec : opts.specRoot;
      info.explore = explore;
      info.requireFaultsFire = opts.requireFaultsFire;
      info.junitXml = std::move(junitXml);
      info.shard = shardText;
      info.runId = bundle::newRunId();
      info.startUnix = startUnix;
      info.version = FBC_VERSION;
      info.commit = FBC_COMMIT;
      if (!opts.noPlan)
        info.planJson = planText;
      info.sources = loaded->sources().files();
      info.remotes = bundle::envRemotes(loaded->spec());
      for (auto &[image, id] : rt::containers::usedImages())
        info.images.push_back({image, id});
      if (llvm::Error err = bundle::writeRunBundle(info, report))
        std::fprintf(stderr, "%s: warning: no bundle written: %s\n", cmd,
                     llvm::toString(std::move(err)).c_str());
      else
        std::fprintf(stderr, "Bundle: %s\n", shown.c_str());
    }
    if (report.interrupted)
      return 130;
    return rt::exitCodeFor(report);
  });
}

} // namespace fbc::tools
