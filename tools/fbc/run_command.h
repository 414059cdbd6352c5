// `fbc run`: its options and entry point. The command's logic lives in the
// pipeline libraries (backend/test_filter.h selects the tests, backend's leaf
// pipeline lowers them, runtime/driver/executor.h runs them,
// runtime/report/report.h and bundle/ say what happened); the command binds
// flags (run_settings.h), prepares the leaf program (run_prepare.h), handles
// SIGINT/SIGTERM and prints (run_output.h).
#pragma once

#include "runtime/driver/executor.h"
#include "tools/fbc/explore_options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace fbc::tools {

struct RunOptions {
  std::string spec;
  std::string test;                // --test: exact, without test_, glob, or ~regex
  std::optional<std::string> seed; // --seed N (none: a fresh random seed; "": an error)
  std::string format = "text";     // --format text|json
  std::string timeout;             // --timeout D (Go duration; default 60s)
  bool verbose = false;            // -v: stream service output to stderr
  std::string leaf;                // --leaf ID: only this leaf of each selected test
  std::string jobs = "1";          // -j N|auto: leaves at once
  bool hostNetwork = false;        // --host-network: no network namespace per leaf
  std::string bundle;              // --bundle PATH ("" = the default name, see docs/bundle.md)
  bool noBundle = false;           // --no-bundle
  bool noPlan = false;             // --no-plan: no plan.json in the bundle
  std::string shard;               // --shard K/N (1-based)
  uint32_t shardCount = 0;         // --shard-count N (with JOB_COMPLETION_INDEX)
  std::string durationsFrom;       // --durations-from BUNDLE
  std::string junit;               // --junit FILE ("" = $XML_OUTPUT_FILE, Bazel's, if set)
  std::string leafProgram;         // --leaf-program FILE: run this leaf program's text form
  ExploreFlags explore;            // --explore=all|sample and its settings
  bool requireFaultsFire = false;  // --require-faults-fire: a fault that never fired fails its row
  bool recordOperations = false; // --record-ops: count every call by target (plan --suggest --from)
  bool progressLines = false;    // --progress-lines: "fbc-progress N/M ..." on stderr per row
  std::string runs;              // --runs N: each leaf up to N times, seeds S..S+N-1
  std::string show = "all";      // --show all|fail

  // Set by `fbc replay`, not by flags:
  std::string command = "fbc run"; // error prefix
  std::string serviceDir;          // rt::RunConfig::serviceDir
  std::string specRoot;            // the manifest's spec_root ("" = spec)
  std::string bundleBaseDir;       // a relative bundle path is relative to this ("" = cwd)
  // The replayed bundle's plan.json: the new plan is compared with it and
  // each difference printed as a "plan drift:" warning.
  std::optional<std::string> driftAgainst;
  // An explored run's settings and the schedules its rows released: the
  // replay explores nothing, it runs those leaves in those orders.
  std::optional<ir::ExploreOptions> replayExplore;
  std::vector<rt::RunConfig::Schedule> schedules;
  // The replayed bundle's rows, each a test's name and its leaf (none for
  // a test without fan-out): the replay runs these and nothing else, so a
  // bundle of `--test X`, `--leaf N` or one shard replays what it ran.
  struct Row {
    std::string test;
    std::optional<uint64_t> leaf;
  };
  std::optional<std::vector<Row>> replayRows;
};

// Declares the subcommand's positional arguments and flags on `sub`.
void addRunOptions(CLI::App &sub, RunOptions &opts);
// --bundle, --no-bundle, --no-plan (also `fbc replay`'s).
void addBundleOptions(CLI::App &sub, RunOptions &opts);

// Returns the process exit code: 0 all passed, 1 load or usage error, 2 any
// failure or error, 3 only inconclusive, 130 interrupted. Unless --no-bundle,
// a spec that loads leaves a bundle (its path on stderr, "Bundle: <path>");
// a bundle that cannot be written is a warning and changes no exit code.
int runRun(const RunOptions &opts);

} // namespace fbc::tools
