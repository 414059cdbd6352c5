// `fbc run`: its options and entry point. The command's logic lives in the
// pipeline libraries (runtime/executor.h, runtime/report.h); this file only
// binds flags, selects tests, handles SIGINT/SIGTERM and prints.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct RunOptions {
  std::string spec;
  std::string test;            // --test: exact, without test_, glob, or ~regex
  std::string seed;            // --seed N ("" = a fresh random seed)
  std::string format = "text"; // --format text|json
  std::string timeout;         // --timeout D (Go duration; default 60s)
  bool verbose = false;        // -v: stream service output to stderr
  std::string leaf;            // --leaf ID: only this leaf of each selected test
};

// Declares the subcommand's positional arguments and flags on `sub`.
void addRunOptions(CLI::App &sub, RunOptions &opts);

// Returns the process exit code: 0 all passed, 1 load or usage error, 2 any
// failure or error, 3 only inconclusive, 130 interrupted.
int runRun(const RunOptions &opts);

} // namespace fbc::tools
