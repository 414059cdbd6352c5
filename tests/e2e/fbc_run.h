// `fbc run` end to end, the shared part: a spec from run_specs/ in a
// scratch directory with its fixtures and free ports filled in, the fbc
// binary run on it, and the golden comparison with its normalisation.
// Used by run_e2e_test.cpp and documented_e2e_test.cpp (both targets define
// FBC_BINARY, FBC_RUN_SPECS, FBC_RUN_GOLDEN and the FBC_FIXTURE_* paths).
//
// Golden normalisation: only what varies from run to run.
//   - substituteRunValues(): the scratch directory -> $DIR, the ports ->
//     $KV_PORT / $API_PORT, the fixture binaries' paths -> $KV_BIN etc.;
//   - normalize(), the text report: durations "(123ms)" -> "(Nms)", a
//     delayed call's measured latency "(+501ms" -> "(+Nms", and the matrix
//     table's padding after a normalised duration;
//   - normalizeJson(), the JSON report: the values at the paths in
//     kJsonMasks (fbc_run.cpp: times, pids, measured latencies), found by
//     parsing the report.
// Event numbers, syscall counts, seeds, leaf options and fault hits are
// compared exactly: a test's filter traps only what its rules could touch,
// and the fixtures make those calls the same way every run.
// FBC_UPDATE_GOLDEN=1 rewrites the golden files (read them before
// committing); a missing golden is a failure.
#pragma once

#include "tests/e2e/e2e_util.h"

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fbc::rt::e2e {

// run_specs/<name>.star copied to a fresh directory as spec.star, with
// @KV_BIN@ @API_BIN@ @CRASH_BIN@ @KV_PORT@ @API_PORT@ filled in, @NONDET_DIR@
// (the folder of the fixture_nondet_* binaries) and @RUN_CASES@ (the folder
// of run_cases/, for its fixture files).
struct Spec {
  TempDir dir;
  uint16_t kvPort = freePort();
  uint16_t apiPort = freePort();
  std::string path; // "spec.star" inside dir
  std::string name; // the run_specs/ file, and its golden's name

  explicit Spec(const std::string &name);
  // The same from any spec file (run_cases/'s), `name` naming it.
  Spec(const std::string &name, const std::string &file);
};

struct FbcRun {
  int exit = -1;
  std::string out, err;
  pid_t pid = -1; // fbc's
};

// Starts fbc with `args` in `cwd`, its stdout and stderr on the given fds.
pid_t spawnFbc(const std::vector<std::string> &args, const std::string &cwd, int outFd, int errFd);

// Runs fbc with `args` in `cwd`. `onStderr` sees the output so far each
// time stderr grows (stdout is read first when both have data, so what fbc
// wrote to stdout before that stderr write is in `soFar.out`) and may act on
// the child (its pid is given); the run is killed after `timeoutMs` (a test
// failure).
FbcRun runFbc(const std::vector<std::string> &args, const std::string &cwd,
              const std::function<void(const FbcRun &soFar, pid_t)> &onStderr = {},
              int timeoutMs = 120000);

std::string substituteRunValues(std::string s, const Spec &spec);
std::string normalize(std::string s, const Spec &spec);
std::string normalizeJson(std::string s, const Spec &spec);
// The JSON mask rules that have not masked anything in this process.
std::vector<std::string> unusedJsonMasks();

// Compares `actual` with tests/e2e/golden/<name><ext> (FBC_UPDATE_GOLDEN=1
// writes it instead).
void checkGolden(const std::string &name, const std::string &actual,
                 const std::string &ext = ".txt");

// Runs the spec with --seed 1, expects exit code `exit` and the whole text
// report to match tests/e2e/golden/<spec name>.txt.
FbcRun runWithGolden(const Spec &spec, int exit);

// plan = run (run_e2e_test.cpp over run_specs/, proxy_e2e_test.cpp and
// protocol_e2e_test.cpp over theirs): `fbc plan`'s total is the number of
// rows `fbc run --seed 1 --format=json` prints (at least it, where the plan
// says "at least"). Returns the run: its JSON report, and on stderr the
// "Bundle: " line.
FbcRun expectPlanTotalEqualsRunRows(const Spec &spec);

// The bundle `run` (an `fbc run` of `spec`) wrote agrees with
// `fbc plan --format=json`: each planned test has as many manifest rows as
// the plan's instances, and each row's leaf_probability_outcomes names
// exactly the test's planned probability axes, each with max_fires
// outcomes, no two rows of a test alike; with one axis, leaf k's outcomes
// are the bits of k (first occurrence first).
void expectManifestLeavesMatchPlan(const Spec &spec, const FbcRun &run);

// A spec whose rules fire by mode (max_fires=, mode="exhaustive"), each
// of its rows one leaf, checked whole (the *RuleModes* test of each
// protocol): `fbc plan` counts exactly want.size() instances and the run
// has as many rows (expectPlanTotalEqualsRunRows), exits `exit`, its bundle
// manifest's leaves are the plan's (expectManifestLeavesMatchPlan), and
// the captures of `returnValue` over its JSON report are `want` (each
// leaf's return value, in leaf order). Returns the run: its JSON report is
// the one `--no-bundle` prints.
FbcRun expectRuleModeLeaves(const Spec &spec, int exit, const char *returnValue,
                            const std::vector<std::string> &want);
// expectRuleModeLeaves's `returnValue` for tests that return a list: the
// list as the JSON report quotes it (R"([\"ok\", \"err\"])", "[0, 14]").
inline constexpr const char *kReturnedList = R"re("return_value": "(\[(?:[^"\\]|\\.)*\])")re";

// Whether a thread of process `pid` is inside syscall `nr` right now.
bool threadInSyscall(int pid, long nr);

// Waits (polling, up to `timeoutMs`) until a thread of a process whose
// working directory is `dir` is inside syscall `nr`: a call fbc holds
// (a delay, pending) shows there for as long as it is held.
bool waitUntilInSyscall(const std::string &dir, long nr, int timeoutMs);

// Runs run_specs/sigint.star (`spec`) with --seed 1 and `extra`, and sends
// `sig` once test_a_long's request is held in kv's fsync.
FbcRun runInterrupted(const Spec &spec, int sig, std::vector<std::string> extra = {});

bool contains(const std::string &haystack, const std::string &needle);

// All matches of `re` (one capture group) in `text`, in order.
std::vector<std::string> allMatches(const std::string &text, const char *re);

} // namespace fbc::rt::e2e
