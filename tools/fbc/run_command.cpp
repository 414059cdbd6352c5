#include "tools/fbc/run_command.h"

#include "backend/test_filter.h"
#include "bundle/archive.h"
#include "bundle/build_context.h"
#include "frontend/eval/big_stack.h"
#include "runtime/containers/container_run.h"
#include "runtime/containers/image_build.h"
#include "runtime/os/process_groups.h"
#include "runtime/os/requirements.h"
#include "tools/fbc/load_for_command.h"
#include "tools/fbc/run_network.h"
#include "tools/fbc/run_output.h"
#include "tools/fbc/run_prepare.h"
#include "tools/fbc/run_settings.h"

#include <CLI/CLI.hpp>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <thread>

namespace fbc::tools {
namespace {

std::atomic<bool> gInterrupted{false};

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

namespace {

// What the kernel and our privileges must allow, checked once (this also
// sets up the run's cgroups and their watchdog: docs/run.md); false after
// printing what is missing, under the command's name (fbc run, fbc replay).
bool checkMachine(const char *cmd) {
  rt::Requirements req = rt::checkRequirements();
  for (const std::string &m : req.missing)
    commandError(cmd, m);
  if (!req.missing.empty())
    return false;
  if (!req.cgroups)
    std::fprintf(stderr,
                 "%s: warning: containment: %s: services are stopped by process group; "
                 "a process that leaves its group and outlives a killed fbc is not contained, "
                 "and there is no pids limit\n",
                 cmd, req.containment.c_str());
  return true;
}

} // namespace

int runRun(const RunOptions &opts) {
  const char *cmd = opts.command.c_str();
  RunSettings s;
  if (!runSettings(opts, &gInterrupted, s))
    return 1;
  startSignalThread();
  return star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> loaded = loadSpecForCommand(opts.spec);
    if (!loaded)
      return 1;
    std::vector<const ir::Test *> tests;
    std::string error;
    if (!backend::selectTests(loaded->spec(), opts.test, tests, error))
      return commandError(cmd, error), 1;
    if (!checkMachine(cmd))
      return 1;
    // A network namespace per leaf, or leaves in fbc's own (one at a time).
    chooseLeafNetwork(loaded->spec(), opts.hostNetwork, opts.jobs, cmd, s.cfg);
    s.cfg.hostNetwork = opts.hostNetwork;
    PreparedRun prepared;
    if (!prepareRun(opts, *loaded, tests, s, prepared))
      return 1;
    beginInterruptibleRun();
    RunOutput output(opts, s, prepared, loaded->spec());
    output.begin(s.cfg);
    rt::RunReport report;
    {
      rt::containers::installEngineProbe();
      rt::containers::setContextEncoder(bundle::encodeBuildContext);
      rt::Executor exec(*loaded, s.cfg);
      report = exec.run(tests);
    }
    // The run's containers and network, and the engine fbc started, if any.
    rt::containers::closeSharedRun();
    return output.finish(report, *loaded);
  });
}

} // namespace fbc::tools
