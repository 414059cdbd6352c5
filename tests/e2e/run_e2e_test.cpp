// End-to-end tests of `fbc run`: the fixture services (tests/fixtures/)
// driven by the specs in tests/e2e/run_specs/ through the real fbc binary.
//
// Each test copies a spec into a fresh directory, fills in the fixture
// binaries and free ports (@KV_BIN@, @API_BIN@, @CRASH_BIN@, @KV_PORT@,
// @API_PORT@), runs `fbc run` there and checks the exit code, exact
// outcomes and reasons, and, where the output is deterministic, the whole
// text report against tests/e2e/golden/<name>.txt (fbc_run.h says what is
// normalised and why).
//
// This file: one run's verdicts and errors (syscall faults, the JSON shape,
// the filter, -v, delays, probability, the matrix, crashes, a missing
// binary, healthcheck timeouts, hangs, SIGINT/SIGTERM, --test, usage
// errors). Same binary (run_e2e_tests): run_leaves_e2e_test.cpp, leaf
// fan-out, parallel() and the body's heap; run_report_e2e_test.cpp, what the
// report says of named ops, a held port, a service dying mid-test, faults
// that never fired, its streaming and its JSON goldens.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <signal.h>

#include <chrono>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

TEST(FbcRun, SyscallFaultsEndToEnd) {
  Spec spec("faults");
  FbcRun r = runFbc({"run", spec.path, "--seed", "7"}, spec.dir.path());
  // Nine tests pass, test_expected_failure fails: exit 2.
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "9 passed, 1 failed\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_wal_write_eio (")) << r.out;
  EXPECT_TRUE(contains(r.out, "kv           write            deny(input/output error)  " +
                                  spec.dir.path() + "/kv.wal"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "deny(no space left on device)")) << r.out;
  EXPECT_TRUE(contains(r.out, "kv           fsync            deny(input/output error)")) << r.out;
  // The store's connect fault is seen by the API's connect to the store.
  EXPECT_TRUE(contains(r.out, "api          connect          deny(connection refused)  127.0.0.1:" +
                                  std::to_string(spec.kvPort)))
      << r.out;
  EXPECT_TRUE(contains(r.out, "kv           fsync            delay(500ms)")) << r.out;
  EXPECT_TRUE(contains(r.out, "openat           deny(permission denied)  " + spec.dir.path() +
                                  "/snap-denied.txt"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "--- FAIL: test_expected_failure (")) << r.out;
  EXPECT_TRUE(contains(r.out, "  reason: assert_eq failed: 500 != 200\n")) << r.out;
  checkGolden("faults", normalize(r.out, spec));
}

TEST(FbcRun, JsonReportShape) {
  Spec spec("faults");
  FbcRun r = runFbc({"run", spec.path, "--seed", "7", "--format=json", "--test", "~wal_write"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  for (const char *s :
       {"\"version\": 2", "\"star_file\": \"spec.star\"", "\"pass\": 2", "\"fail\": 0",
        "\"name\": \"test_wal_write_enospc\"", "\"name\": \"test_wal_write_eio\"",
        "\"result\": \"pass\"", "\"seed\": 7", "\"errno\": \"ENOSPC\"", "\"errno\": \"EIO\"",
        "\"syscall_summary\": {", "\"event_type\": \"lifecycle.started\"",
        "\"event_type\": \"syscall.write\"", "\"decision\": \"deny(input/output error)\"",
        "\"type\": \"step_send\"", "\"type\": \"step_recv\"", "\"type\": \"fault_applied\"",
        "\"type\": \"fault_removed\"", "\"type\": \"service_stopped\""})
    EXPECT_TRUE(contains(r.out, s)) << s << "\n" << r.out;
  // Only the two selected tests ran, in name order.
  EXPECT_LT(r.out.find("test_wal_write_eio"), r.out.find("test_wal_write_enospc"));
  EXPECT_FALSE(contains(r.out, "test_happy_path"));
}

// The filter traps exactly what the test's rules could touch: nothing for a
// test without faults (no syscall events at all), only kv's write family
// for a write fault on kv.
TEST(FbcRun, FilterTrapsOnlyWhatTheTestCanFault) {
  Spec spec("faults");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--format=json", "--test",
                     "~^test_(happy_path|wal_write_eio)$"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  size_t happy = r.out.find("\"name\": \"test_happy_path\"");
  size_t eio = r.out.find("\"name\": \"test_wal_write_eio\"");
  ASSERT_NE(happy, std::string::npos);
  ASSERT_NE(eio, std::string::npos);
  ASSERT_LT(happy, eio);
  std::string happyText = r.out.substr(happy, eio - happy);
  std::string eioText = r.out.substr(eio);
  EXPECT_TRUE(contains(happyText, "\"syscall_summary\": {}")) << happyText;
  EXPECT_FALSE(contains(happyText, "\"type\": \"syscall\"")) << happyText;
  std::string summary = eioText.substr(eioText.find("\"syscall_summary\""));
  summary = summary.substr(0, summary.find("\"events\""));
  EXPECT_TRUE(contains(summary, "\"kv\": {")) << summary;
  EXPECT_FALSE(contains(summary, "\"api\"")) << summary;
  for (const char *sc : {"\"read\"", "\"fsync\"", "\"connect\"", "\"openat\""})
    EXPECT_FALSE(contains(summary, sc)) << sc << summary;
}

// -v streams each service's output, prefixed with its name.
TEST(FbcRun, VerboseStreamsServiceOutput) {
  Spec spec("faults");
  FbcRun r =
      runFbc({"run", spec.path, "--seed", "1", "-v", "--test", "happy_path"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "kv | kv_store: listening on 127.0.0.1:" +
                                  std::to_string(spec.kvPort) + ", wal kv.wal\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "api | http_api: listening on 127.0.0.1:")) << r.err;
  EXPECT_FALSE(contains(r.out, "kv | ")) << r.out;
}

TEST(FbcRun, DelayShowsInDurationMs) {
  Spec spec("faults");
  FbcRun r =
      runFbc({"run", spec.path, "--seed", "1", "--test", "fsync_delay_visible", "--format=json"},
             spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  // The delayed syscall's latency is recorded too (>= 500000 us).
  std::string latency;
  ASSERT_TRUE(RE2::PartialMatch(
      r.out, R"re("decision": "delay\(500ms\)",\s*"path": "[^"]*",\s*"latency_us": "(\d+)")re",
      &latency))
      << r.out;
  EXPECT_GE(std::stoll(latency), 500000);
}

TEST(FbcRun, ProbabilityIsReproducibleFromTheSeed) {
  Spec spec("prob");
  auto pattern = [&](const char *seed) {
    FbcRun r = runFbc({"run", spec.path, "--seed", seed}, spec.dir.path());
    EXPECT_EQ(r.exit, 0) << r.out << r.err;
    std::string p;
    EXPECT_TRUE(RE2::PartialMatch(r.err, R"(pattern: ([x.]{32}))", &p)) << r.err;
    return p;
  };
  std::string a = pattern("5"), b = pattern("5"), c = pattern("6");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c); // equal with probability 2^-32
  EXPECT_NE(a.find('x'), std::string::npos) << a;
  EXPECT_NE(a.find('.'), std::string::npos) << a;
}

TEST(FbcRun, MatrixWithOverrides) {
  Spec spec("matrix");
  FbcRun r = runFbc({"run", spec.path, "--seed", "3"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  // store_item x disk_full / store_down pass only because of their overrides
  // (the default expect_success would fail them); store_item x slow_disk
  // fails because its override is wrong; read_missing uses the default.
  EXPECT_TRUE(contains(r.out, "Result: 5/6 passed (2 fault_bypassed), 1 failed\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  store_item × slow_disk: expect_error_within(ms=5000): scenario "
                              "returned success (status=200) — expected an error\n"))
      << r.out;
  checkGolden("matrix", normalize(r.out, spec));

  FbcRun j = runFbc({"run", spec.path, "--seed", "3", "--format=json"}, spec.dir.path());
  EXPECT_EQ(j.exit, 2);
  for (const char *s :
       {"\"outcome\": \"expectation_violated\"", "\"expectation\": \"expect_unavailable\"",
        "\"expectation\": \"expect_error_within\"", "\"expectation\": \"expect_success\"",
        "\"total\": 6", "\"passed\": 5", "\"failed\": 1",
        "\"name\": \"test_matrix_store_item_store_down\""})
    EXPECT_TRUE(contains(j.out, s)) << s << "\n" << j.out;
}

TEST(FbcRun, ServiceCrashingAtStartIsAnErrorAndTheRunGoesOn) {
  Spec spec("crash");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  // The reason and its code, then the last 20 of its 25 stdout lines and
  // its 3 stderr lines (the golden has them whole).
  std::string reason = "  reason: service \"broken\": crashed at start (exited with status 3)\n"
                       "  code: SERVICE_CRASHED (Read the service's output in the bundle "
                       "(services/NAME.log) for why it died.)\n"
                       "  broken stdout (last 20 lines):\n"
                       "    | crash_at_start: loading part 6 of 25\n";
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_first (")) << r.out;
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_second (")) << r.out;
  size_t first = r.out.find(reason);
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_NE(r.out.find(reason, first + 1), std::string::npos) << r.out;
  EXPECT_TRUE(contains(r.out, "0 passed, 0 failed, 2 errored\n")) << r.out;
  checkGolden("crash", normalize(r.out, spec));
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

// service(reuse=True, seed=, reset=) on a binary (run_specs/reuse.star):
// one process for the tests, seeded once and reset between them; the test
// that makes it panic reports it, and the next one starts and seeds it
// afresh (service_recreated). Nothing is left running after the run.
TEST(FbcRun, ReusedBinaryIsSeededOnceResetAndRecreatedAfterItDies) {
  Spec spec("reuse");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err; // test_3_crashes_it fails: the KV panics
  checkGolden("reuse", normalize(r.out, spec));
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

TEST(FbcRun, MissingBinaryIsAnError) {
  Spec spec("missing");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_ghost (")) << r.out;
  EXPECT_TRUE(contains(r.out, "  reason: service \"ghost\": missing binary (binary not found or "
                              "not executable: " +
                                  spec.dir.file("no-such-service") + ")\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\n0 passed, 0 failed, 1 errored\n")) << r.out;
}

TEST(FbcRun, HealthcheckTimeoutIsAnError) {
  Spec spec("unready");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_never_ready (")) << r.out;
  EXPECT_TRUE(contains(r.out, "  reason: service \"kv\": healthcheck timed out (tcp 127.0.0.1:" +
                                  std::to_string(spec.apiPort) +
                                  " not ready after 1000ms: Connection refused)\n"
                                  "  code: HEALTHCHECK_TIMEOUT (Check the service starts on its "
                                  "own and listens where the healthcheck looks; raise the "
                                  "healthcheck's timeout= if it is slow.)\n"
                                  "  kv stderr (last 2 lines):\n"
                                  "    | kv_store: listening on 127.0.0.1:" +
                                  std::to_string(spec.kvPort) +
                                  ", wal kv.wal\n"
                                  "    | kv_store: stopping\n"))
      << r.out;
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

TEST(FbcRun, BodyHangingPastTimeoutIsInconclusive) {
  Spec spec("hang");
  auto t0 = std::chrono::steady_clock::now();
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--timeout", "2s"}, spec.dir.path());
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(r.exit, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- INCONCLUSIVE: test_hangs (")) << r.out;
  EXPECT_TRUE(contains(r.out, "  reason: test timeout: body did not complete within 2s\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_then_works (")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 passed, 0 failed, 1 inconclusive\n")) << r.out;
  // The fsync still held when the test ended is in the trace, not lost.
  EXPECT_TRUE(RE2::PartialMatch(
      r.out,
      R"(kv +fsync +delay\(1h0m0s\) .*kv\.wal  \(\+\d+ms, unanswered: its service stopped first\))"))
      << r.out;
  // Cancelled promptly: nowhere near the hour-long delay or a 60 s default.
  EXPECT_LT(took, std::chrono::seconds(30));
  checkGolden("hang", normalize(r.out, spec));
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

void interruptMidRun(int sig) {
  Spec spec("sigint");
  FbcRun r = runInterrupted(spec, sig);
  EXPECT_EQ(r.exit, 130) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_0_quick (")) << r.out;
  EXPECT_FALSE(contains(r.out, "test_a_long (")) << r.out;
  EXPECT_FALSE(contains(r.out, "test_b_never")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 passed, 0 failed, 4 not run (interrupted)\n")) << r.out;
  // No service process outlives fbc.
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

TEST(FbcRun, SigintKillsEveryServiceAndPrintsResultsSoFar) {
  interruptMidRun(SIGINT);
}

TEST(FbcRun, SigtermKillsEveryServiceAndPrintsResultsSoFar) {
  interruptMidRun(SIGTERM);
}

TEST(FbcRun, TestFilterForms) {
  Spec spec("faults");
  auto names = [&](const std::string &filter) {
    FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", filter, "--timeout", "30s"},
                      spec.dir.path());
    std::string out;
    re2::StringPiece in(r.out);
    std::string name;
    while (RE2::FindAndConsume(&in, R"(--- \w+: (test_\w+) )", &name))
      out += name + " ";
    return out;
  };
  EXPECT_EQ(names("test_happy_path"), "test_happy_path ");
  EXPECT_EQ(names("happy_path"), "test_happy_path ");
  EXPECT_EQ(names("wal_*"), "test_wal_fsync_deny test_wal_write_eio test_wal_write_enospc ");
  EXPECT_EQ(names("~(snapshot|happy)"), "test_happy_path test_snapshot_path_glob ");
  FbcRun none = runFbc({"run", spec.path, "--test", "nothing"}, spec.dir.path());
  EXPECT_EQ(none.exit, 1);
  EXPECT_TRUE(contains(none.err, "fbc run: error: no test matched filter \"nothing\" (available: "
                                 "test_events_queries, test_expected_failure,"))
      << none.err;
}

// --test takes the names `fbc plan` prints for a matrix's rows:
// test_matrix_<scenario> (or matrix_<scenario>) selects that scenario's
// cells, and nothing else.
TEST(FbcRun, TestFilterTakesThePlanNamesOfMatrixRows) {
  Spec spec("matrix");
  FbcRun plan = runFbc({"plan", spec.path}, spec.dir.path());
  ASSERT_EQ(plan.exit, 0) << plan.out << plan.err;
  std::vector<std::string> rows = allMatches(plan.out, R"re(test "(test_matrix_\w+)")re");
  EXPECT_EQ(rows, (std::vector<std::string>{"test_matrix_read_missing", "test_matrix_store_item"}));
  for (const std::string &row : rows) {
    SCOPED_TRACE(row);
    FbcRun r = runFbc({"run", spec.path, "--seed", "3", "--test", row}, spec.dir.path());
    EXPECT_EQ(r.exit, row == "test_matrix_store_item" ? 2 : 0) << r.out << r.err;
    std::string scenario = row.substr(std::string("test_matrix_").size());
    EXPECT_TRUE(contains(r.out, "Fault Matrix: 1 scenarios × 3 faults = 3 cells\n")) << r.out;
    EXPECT_EQ(allMatches(r.out, R"(\n([a-z_]+) +│)"), std::vector<std::string>{scenario}) << r.out;
    if (row == "test_matrix_store_item")
      checkGolden("matrix_store_item", normalize(r.out, spec));
  }
  FbcRun bare =
      runFbc({"run", spec.path, "--seed", "3", "--test", "matrix_read_missing"}, spec.dir.path());
  EXPECT_EQ(bare.exit, 0) << bare.out << bare.err;
  EXPECT_TRUE(contains(bare.out, "Result: 3/3 passed (2 fault_bypassed)")) << bare.out;
}

// Each usage error: exit 1, the message alone on stderr, nothing run.
TEST(FbcRun, UsageErrorsExitOne) {
  Spec spec("faults");
  auto expectUsage = [&](std::vector<std::string> args, const std::string &err) {
    FbcRun r = runFbc(args, spec.dir.path());
    EXPECT_EQ(r.exit, 1) << args.back();
    EXPECT_EQ(r.err, err) << args.back();
    EXPECT_EQ(r.out, "") << args.back();
  };
  expectUsage({"run", spec.path, "--format=yaml"},
              "fbc run: error: unknown format 'yaml' (formats: text, json)\n");
  expectUsage({"run", spec.path, "--timeout", "soon"},
              "fbc run: error: bad --timeout \"soon\": time: invalid duration \"soon\"\n");
  expectUsage({"run", spec.path, "--seed", "-4"},
              "fbc run: error: bad --seed \"-4\": want a non-negative integer\n");
  expectUsage({"run", spec.path, "--leaf", "x"},
              "fbc run: error: bad --leaf \"x\": want a leaf id \"0\" .. \"N-1\"\n");
  expectUsage({"run", spec.path, "--leaf", "01"},
              "fbc run: error: bad --leaf \"01\": want a leaf id \"0\" .. \"N-1\"\n");
  expectUsage({"run", spec.path, "--leaf", "99999999999999999999"},
              "fbc run: error: bad --leaf \"99999999999999999999\": want a leaf id \"0\" .. "
              "\"N-1\"\n");
  expectUsage({"run", "no-such-spec.star"},
              "fbc: error: no-such-spec.star: No such file or directory\n");
}

} // namespace
} // namespace fbc::rt::e2e
