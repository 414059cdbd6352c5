// End-to-end tests of `fbc run`: the fixture services (tests/fixtures/)
// driven by the specs in tests/e2e/run_specs/ through the real fbc binary.
//
// Each test copies a spec into a fresh directory, fills in the fixture
// binaries and free ports (@KV_BIN@, @API_BIN@, @CRASH_BIN@, @KV_PORT@,
// @API_PORT@), runs `fbc run` there and checks the exit code, exact
// outcomes and reasons, and, where the output is deterministic, the whole
// text report against tests/e2e/golden/<name>.txt (fbc_run.h says what is
// normalised and why).
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
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

// ---- leaf fan-out (issue #7): run_specs/leaves.star

FbcRun runLeaves(Spec &spec, std::vector<std::string> extra) {
  std::vector<std::string> args = {"run", spec.path, "--seed", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return runFbc(args, spec.dir.path());
}

TEST(FbcRunLeaves, ChooseGivesOneRowPerOption) {
  Spec spec("leaves");
  FbcRun r = runLeaves(spec, {"--test", "test_choose"});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(allMatches(r.out, R"(--- PASS: (test_choose \[leaf \d+ — retries=\d\]))"),
            (std::vector<std::string>{"test_choose [leaf 0 — retries=0]",
                                      "test_choose [leaf 1 — retries=1]",
                                      "test_choose [leaf 2 — retries=3]"}))
      << r.out;
  // Each leaf's body saw its option.
  EXPECT_EQ(allMatches(r.err, R"(retries=(\d))"), (std::vector<std::string>{"0", "1", "3"}));
  FbcRun j = runLeaves(spec, {"--test", "test_choose", "--format=json"});
  for (const char *s :
       {"\"leaf_id\": \"0\"", "\"leaf_id\": \"2\"", "\"leaf_choices\": {", "\"retries\": 2"})
    EXPECT_TRUE(contains(j.out, s)) << s << "\n" << j.out;
  EXPECT_FALSE(contains(j.out, "leaf_probability_outcomes")) << j.out;
  EXPECT_FALSE(contains(j.out, "leaf_interleavings")) << j.out;
}

TEST(FbcRunLeaves, MaxFiresVectorsPinEachOccurrence) {
  Spec spec("leaves");
  FbcRun r = runLeaves(spec, {"--test", "test_wal"});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(allMatches(r.out, R"(test_wal \[leaf \d — wal\[(\d\d)\]\])"),
            (std::vector<std::string>{"00", "10", "01", "11"}))
      << r.out;
  // Occurrence k of the WAL write failed iff bit k: the SET replies differ
  // exactly as the vectors say.
  EXPECT_EQ(allMatches(r.err, R"(wal: ([x.]{2}))"),
            (std::vector<std::string>{"..", "x.", ".x", "xx"}))
      << r.err;
  FbcRun j = runLeaves(spec, {"--test", "test_wal", "--format=json"});
  std::string compact;
  for (char c : j.out)
    if (c != ' ' && c != '\n')
      compact += c;
  for (const char *s : {R"("leaf_probability_outcomes":{"wal":[false,false]})",
                        R"("leaf_probability_outcomes":{"wal":[true,false]})",
                        R"("leaf_probability_outcomes":{"wal":[false,true]})",
                        R"("leaf_probability_outcomes":{"wal":[true,true]})"})
    EXPECT_TRUE(contains(compact, s)) << s << "\n" << j.out;
}

TEST(FbcRunLeaves, AllInterleavingsGiveDistinctLaunchOrders) {
  Spec spec("leaves");
  FbcRun r = runLeaves(spec, {"--test", "test_interleavings"});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(allMatches(r.out, R"(--- PASS: test_interleavings \[leaf \d — spec\.star:\d+#(\d)\])"),
            (std::vector<std::string>{"0", "1", "2", "3", "4", "5"}))
      << r.out;
  std::vector<std::string> branches = allMatches(r.err, R"(branch ([abc]))");
  ASSERT_EQ(branches.size(), 18u) << r.err;
  std::vector<std::string> orders;
  for (size_t i = 0; i < 18; i += 3)
    orders.push_back(branches[i] + branches[i + 1] + branches[i + 2]);
  // The lexicographic permutations of the three branches, leaf by leaf.
  EXPECT_EQ(orders, (std::vector<std::string>{"abc", "acb", "bac", "bca", "cab", "cba"}));
}

TEST(FbcRunLeaves, AxesMultiplyAndComputedListsAreSizedDuringLeafZero) {
  Spec spec("leaves");
  FbcRun r = runLeaves(spec, {"--test", "~test_(product|computed)"});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  // choose(3) x wal(4) x parallel(2) = 24.
  EXPECT_EQ(allMatches(r.out, R"(--- PASS: test_product \[leaf (\d+) )").size(), 24u) << r.out;
  EXPECT_TRUE(contains(r.out, "test_product [leaf 23 — n=3, wal[11], spec.star:")) << r.out;
  // A computed option list: exactly its 5 options, leaf 0 run once.
  EXPECT_EQ(allMatches(r.err, R"(k=(\d+))"),
            (std::vector<std::string>{"0", "10", "20", "30", "40"}))
      << r.err;
  EXPECT_EQ(allMatches(r.out, R"(--- PASS: (test_computed) )").size(), 5u) << r.out;
}

TEST(FbcRunLeaves, SingleLeafShapeAndOneLeafRuns) {
  Spec spec("leaves");
  FbcRun plain = runLeaves(spec, {"--test", "test_plain", "--format=json"});
  EXPECT_EQ(plain.exit, 0) << plain.out << plain.err;
  EXPECT_FALSE(contains(plain.out, "leaf_")) << plain.out;
  FbcRun text = runLeaves(spec, {"--test", "test_plain"});
  EXPECT_TRUE(contains(text.out, "--- PASS: test_plain (")) << text.out;

  FbcRun one = runLeaves(spec, {"--test", "test_wal", "--leaf", "2"});
  EXPECT_EQ(one.exit, 0) << one.out << one.err;
  EXPECT_EQ(allMatches(one.out, R"(--- PASS: (test_wal \[leaf \d — wal\[\d\d\]\]))"),
            (std::vector<std::string>{"test_wal [leaf 2 — wal[01]]"}))
      << one.out;
  EXPECT_EQ(allMatches(one.err, R"(wal: ([x.]{2}))"), (std::vector<std::string>{".x"}));
  // Leaf 3 of the computed list: leaf 0 sizes it (not reported).
  FbcRun computed = runLeaves(spec, {"--test", "test_computed", "--leaf", "3"});
  EXPECT_TRUE(contains(computed.out, "--- PASS: test_computed [leaf 3 — k=3] (")) << computed.out;
  EXPECT_TRUE(contains(computed.err, "k=30")) << computed.err;
  FbcRun bad = runLeaves(spec, {"--test", "test_choose", "--leaf", "3"});
  EXPECT_EQ(bad.exit, 2) << bad.out;
  EXPECT_TRUE(contains(bad.out, "no leaf \"3\": the test has 3 leaves")) << bad.out;
  // A test without fan-out has leaf 0 only; another leaf does not run it.
  FbcRun other = runLeaves(spec, {"--test", "test_plain", "--leaf", "1", "--format=json"});
  EXPECT_EQ(other.exit, 2) << other.out;
  EXPECT_TRUE(contains(other.out, "\"reason\": \"no leaf \\\"1\\\": the test has 1 leaf\""))
      << other.out;
  EXPECT_FALSE(contains(other.err, "plain ran")) << other.err;
  EXPECT_TRUE(contains(runLeaves(spec, {"--test", "test_plain", "--leaf", "0"}).err, "plain ran"));
}

TEST(FbcRunLeaves, ChooseThroughAHelperIsFirstOptionAndWarnedOnce) {
  Spec spec("leaves");
  FbcRun r = runLeaves(spec, {"--test", "test_helper"});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_helper (")) << r.out;
  EXPECT_EQ(allMatches(r.err, R"(mode=(\w+))"), (std::vector<std::string>{"fast", "fast"}));
  EXPECT_EQ(
      allMatches(r.err, R"((spec\.star:\d+:\d+: warning: choose\("mode"\) is not a planned axis))")
          .size(),
      1u)
      << r.err;
}

// plan = run: the number of rows `fbc run` prints is the total `fbc plan`
// prints (at least it, where the plan says "at least"), with real runs.
// One test per spec (each its own CTest entry, with its own timeout: a
// sanitizer build runs each spec several times slower).
class PlanTotalEqualsRunRows : public testing::TestWithParam<const char *> {};

INSTANTIATE_TEST_SUITE_P(FbcRunLeaves, PlanTotalEqualsRunRows,
                         testing::Values("leaves", "faults", "matrix", "prob", "parallel", "ops",
                                         "queries", "fault_all", "trace", "halt", "panic",
                                         "body_heap", "streaming", "bypass"),
                         [](const testing::TestParamInfo<const char *> &i) {
                           return std::string(i.param);
                         });

TEST_P(PlanTotalEqualsRunRows, ForSpec) {
  expectPlanTotalEqualsRunRows(Spec(GetParam()));
}

// Run-time argument errors are located at the call, with the reference's
// messages; `fbc plan` reports the same statically and exits 1.
TEST(FbcRunLeaves, ArgumentErrorsAreLocated) {
  Spec spec("leaves_errors");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  for (const char *s :
       {"  reason: spec.star:14:13: parallel(): interleavings= must be a positive integer, got 0\n",
        "  reason: spec.star:17:13: parallel(): unrecognized keyword argument \"order\"\n",
        "  reason: spec.star:20:66: deny(): max_fires must be > 0, got 0\n"})
    EXPECT_TRUE(contains(r.out, s)) << s << "\n" << r.out;
  FbcRun plan = runFbc({"plan", spec.path}, spec.dir.path());
  EXPECT_EQ(plan.exit, 1) << plan.err;
  for (const char *s :
       {"spec.star:14:13: error: parallel(): interleavings= must be a positive integer, got 0",
        "spec.star:17:13: error: parallel(): unrecognized keyword argument \"order\"",
        "spec.star:20:66: error: deny(): max_fires must be > 0, got 0"})
    EXPECT_TRUE(contains(plan.err, s)) << s << "\n" << plan.err;
}

// ---- parallel() without an interleaving axis: one concurrent execution
// (run_specs/parallel.star)

TEST(FbcRunParallel, BranchesOverlapInTheirRequests) {
  Spec spec("parallel");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "~test_(overlap|spin_yields)"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  checkGolden("parallel_overlap", normalize(r.out, spec));
  EXPECT_TRUE(contains(r.out, "--- PASS: test_overlap (")) << r.out;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_spin_yields (")) << r.out;
  // Event 9 exactly: a delayed call is recorded when it is answered (after
  // 1 s), and test_overlap's own log check (it passed) proves the quick branch's
  // send and reply (events 7 and 8) came before that.
  EXPECT_TRUE(contains(r.out, "    #9  kv           fsync            delay(1s)")) << r.out;
}

TEST(FbcRunParallel, FirstFailingBranchFailsTheCallAfterAllRan) {
  Spec spec("parallel");
  FbcRun r =
      runFbc({"run", spec.path, "--seed", "1", "--test", "test_branch_fails"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- FAIL: test_branch_fails (")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "  reason: parallel() callable 1 failed: key \"missing\" not in dict\n"
                       "  code: BODY_ERROR (Read the traceback's innermost frame: a mistake in "
                       "the body, or a step the service did not answer as the body expected.)\n"
                       "  traceback (most recent call last):\n"
                       "    spec.star:74:13: in test_branch_fails\n"
                       "    <builtin>: in parallel\n"
                       "    spec.star:71:14: in worse\n"))
      << r.out;
  EXPECT_TRUE(contains(r.err, "branch ok ran")) << r.err;
}

// Both branches tick on stderr while they run; the test after them prints
// "then started", sleeps 300 ms (a sleeper branch ticks every ~50 ms, the
// spinner faster) and prints "then ended": a branch still running would
// tick in between.
TEST(FbcRunParallel, TimeoutStopsEveryBranch) {
  Spec spec("parallel");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "~test_branches_time_out",
                     "--timeout", "1s", "--no-bundle"}, // stderr is compared to its end
                    spec.dir.path(), {}, 60000);
  EXPECT_EQ(r.exit, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- INCONCLUSIVE: test_branches_time_out (")) << r.out;
  EXPECT_TRUE(contains(r.out, "  reason: test timeout: body did not complete within 1s\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_branches_time_out_then (")) << r.out;
  size_t then = r.err.find("then started\n");
  ASSERT_NE(then, std::string::npos) << r.err;
  std::string before = r.err.substr(0, then), after = r.err.substr(then);
  // Both branches ran until the timeout...
  EXPECT_TRUE(contains(before, "tick sleeper\n")) << r.err;
  EXPECT_TRUE(contains(before, "tick spinner\n")) << r.err;
  // ...and neither after it.
  EXPECT_EQ(after, "then started\nthen ended\n");
}

// ---- faults on a named op (run_specs/ops.star): the op's path, unless the
// fault gives its own path= (in fault() and in a fault_assumption alike).

TEST(FbcRunOps, OpPathUnlessTheFaultGivesItsOwn) {
  Spec spec("ops");
  FbcRun r = runWithGolden(spec, 0);
  for (const char *s :
       {"--- PASS: test_op_path (", "--- PASS: test_fault_path_wins (",
        "--- PASS: test_assumption_path_wins (",
        "  fault rule on kv: write=deny(EIO) path=\"**/kv.wal\" label=\"persist\"",
        "  fault rule on kv: write=deny(EIO) path=\"**/snap.txt\" label=\"persist\""})
    EXPECT_TRUE(contains(r.out, s)) << s << "\n" << r.out;
  EXPECT_EQ(allMatches(r.out, R"(deny\(input/output error\)  \[persist\]  \S+/(\w+\.\w+))"),
            (std::vector<std::string>{"snap.txt", "snap.txt", "kv.wal"}))
      << r.out;
}

TEST(FbcRunOps, PortHeldByAnotherProcessIsAnErrorNotAFalseHealthcheck) {
  Spec spec("ops");
  // Another process listens on kv's port: kv could not bind it, and its
  // tcp() healthcheck would pass against the stranger. That happens in the
  // host's network (--host-network; fbc without root; a spec with a remote
  // or container service), not in a leaf's namespace of its own.
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(spec.kvPort);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 8), 0);
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--host-network"}, spec.dir.path());
  FbcRun isolated = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  close(fd);
  EXPECT_EQ(isolated.exit, 0) << isolated.out << isolated.err;
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  checkGolden("port_in_use", normalize(r.out, spec));
  std::string reason =
      "  reason: service \"kv\": port in use (127.0.0.1:" + std::to_string(spec.kvPort) +
      " accepts connections before kv started: another process holds the port)\n";
  EXPECT_EQ(allMatches(r.out, R"(--- (\w+): test_)"),
            (std::vector<std::string>{"ERROR", "ERROR", "ERROR"}))
      << r.out;
  size_t n = 0;
  for (size_t p = 0; (p = r.out.find(reason, p)) != std::string::npos; p += reason.size())
    ++n;
  EXPECT_EQ(n, 3u) << r.out;
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

// ---- the text report streams (run_specs/streaming.star)

TEST(FbcRun, TextReportRowsGoOutAsTheRunGoes) {
  Spec spec("streaming");
  // fbc writes (and flushes) a row's block before the next test starts, so
  // by the time the second body's print() reaches stderr the first block
  // has reached stdout.
  std::optional<std::string> outAtSecond;
  FbcRun r =
      runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path(), [&](const FbcRun &soFar, pid_t) {
        if (!outAtSecond && contains(soFar.err, "second started"))
          outAtSecond = soFar.out;
      });
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  ASSERT_TRUE(outAtSecond) << r.err;
  EXPECT_TRUE(RE2::FullMatch(*outAtSecond, R"(Seed: 1\n\n--- PASS: test_a_first \(\d+ms\) ---\n)"))
      << *outAtSecond;
  EXPECT_TRUE(RE2::FullMatch(r.out,
                             R"(Seed: 1\n\n--- PASS: test_a_first \(\d+ms\) ---\n)"
                             R"(\n--- PASS: test_b_second \(\d+ms\) ---\n\n2 passed, 0 failed\n)"))
      << r.out;
}

// ---- a service that dies mid-test (run_specs/panic.star)

TEST(FbcRunPanic, ServiceDyingMidTestIsNamedInTheReport) {
  Spec spec("panic");
  FbcRun r = runWithGolden(spec, 2);
  EXPECT_TRUE(contains(r.out, "--- FAIL: test_fsync_failure_kills_the_store (")) << r.out;
  EXPECT_TRUE(contains(r.out, "  service kv exited during the test: killed by SIGABRT\n"
                              "  kv stderr (last 2 lines):\n"
                              "    | kv_store: listening on 127.0.0.1:" +
                                  std::to_string(spec.kvPort) +
                                  ", wal kv.wal\n"
                                  "    | kv_store: PANIC: could not fsync the WAL: "
                                  "Input/output error\n"))
      << r.out;
  // Services fbc stops at the end of a test are not reported as exits.
  EXPECT_EQ(allMatches(r.out, R"((exited during the test))").size(), 1u) << r.out;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_no_fault (")) << r.out;
}

// ---- the body's heap (run_specs/body_heap.star)

TEST(FbcRunBodyHeap, FreedAfterEachLeaf) {
  Spec spec("body_heap");
  // Not runFbc(): this one needs the child's peak memory (wait4).
  std::string bin = FBC_BINARY;
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(spec.dir.path().c_str()) != 0)
      _exit(126);
    // Under AddressSanitizer freed memory waits in a 256 MB quarantine;
    // keep it small so the peak measures fbc, not the sanitizer.
    setenv("ASAN_OPTIONS", "quarantine_size_mb=8", 1);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(bin.c_str(), bin.c_str(), "run", "spec.star", "--seed", "1", "--test", "test_alloc",
          static_cast<char *>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  ASSERT_EQ(wait4(pid, &status, 0, &usage), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  // 40 leaves × 16 MB would be 640 MB if nothing were freed; one leaf's
  // worth plus the runtime is about 50 MB.
  EXPECT_LT(usage.ru_maxrss, 200 * 1024) << "peak RSS (KiB)";
}

// ---- the JSON report, whole, against tests/e2e/golden/<name>.json

// panic.star is not here: its service's exit and the step's reply race, so
// their events' order varies.
TEST(FbcRunJson, ReportsMatchTheirGoldens) {
  struct Case {
    const char *spec, *seed;
    std::vector<std::string> extra;
    int exit;
  };
  const Case cases[] = {
      {"faults", "7", {}, 2},
      {"matrix", "3", {}, 2},
      {"crash", "1", {}, 2},
      {"hang", "1", {"--timeout", "2s"}, 3},
      {"leaves", "1", {"--test", "~^test_(choose|wal)$"}, 0},
      {"bypass", "1", {}, 2},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.spec);
    Spec spec(c.spec);
    std::vector<std::string> args = {"run", spec.path, "--seed", c.seed, "--format=json"};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    FbcRun r = runFbc(args, spec.dir.path());
    EXPECT_EQ(r.exit, c.exit) << r.out << r.err;
    checkGolden(c.spec, normalizeJson(r.out, spec), ".json");
  }
  // Every mask rule hides something these reports have (a rule that
  // matches nothing names a path the report does not have).
  EXPECT_EQ(unusedJsonMasks(), std::vector<std::string>{});
}

// ---- faults that never fired (run_specs/bypass.star, issue #17)

// A pass whose deny/delay rule saw no syscall is fault_bypassed (text, JSON,
// the matrix); require_faults_fire=True makes it a failure; every such rule
// gets a fault_zero_traffic event naming what it watched and saw instead.
TEST(FbcRunBypass, FaultsThatNeverFired) {
  Spec spec("bypass");
  FbcRun r = runWithGolden(spec, 2); // the required ones and test_fails_anyway fail
  for (const char *s :
       {"--- PASS (fault_bypassed): test_fault_never_fires (",
        "--- PASS (fault_bypassed): test_read_under_disk_full (", "--- PASS: test_fault_fires (",
        "--- PASS: test_store_under_disk_full_required (",
        "--- FAIL: test_read_under_disk_full_required (",
        "  reason: require_faults_fire: 1 fault rule never fired: kv write=deny(ENOSPC) (no "
        "write/writev/pwrite64/pwritev/pwritev2 call of kv reached the rule while it was in "
        "force)\n",
        "    fault_zero_traffic: its path glob did not match the one openat call it saw\n",
        "  read_missing × disk_full: require_faults_fire: 1 fault rule never fired",
        "\n6 passed (3 fault_bypassed), 3 failed\n"})
    EXPECT_TRUE(contains(r.out, s)) << s << "\n" << r.out;
  EXPECT_TRUE(contains(r.out, "    paths seen instead: " + spec.dir.path() + "/snap-a.txt\n"))
      << r.out;
  // A failing body stays a plain failure.
  EXPECT_FALSE(contains(r.out, "FAIL (fault_bypassed)")) << r.out;

  // fault_bypassed alone is a pass: exit code 0.
  FbcRun ok = runFbc({"run", spec.path, "--seed", "1", "--format=json", "--test",
                      "~^test_(fault_never_fires|glob_sees_other_paths)$"},
                     spec.dir.path());
  EXPECT_EQ(ok.exit, 0) << ok.out << ok.err;
  for (const char *s : {"  \"pass\": 2,\n  \"fail\": 0,\n  \"fault_bypassed\": 2,\n",
                        "\"type\": \"fault_zero_traffic\"", "\"watched\": \"fsync,fdatasync\"",
                        "\"passed_over\": \"0\"", "\"fault_bypassed\": true",
                        "\"bypassed_rules\": [\n        {\n          \"service\": \"kv\",\n"
                        "          \"syscall\": \"fsync\",\n          \"action\": \"deny\"\n"})
    EXPECT_TRUE(contains(ok.out, s)) << s << "\n" << ok.out;
}

// fbc run --require-faults-fire: every test is judged as require_faults_fire=
// True judges one (issue #32): the bypassed passes above fail naming their
// rules, matrix cells too (each listed with its rules and hits); a test whose
// fault fired stays a pass. The whole text report:
// tests/e2e/golden/bypass_required.txt. A failure's replay line repeats the
// flag and the bundle records it: pasted, or `fbc replay` of the bundle, the
// row fails again (without the flag it would pass).
TEST(FbcRunBypass, RequireFaultsFireFlagFailsEveryBypassedPass) {
  Spec spec("bypass");
  FbcRun r =
      runFbc({"run", spec.path, "--seed", "1", "--require-faults-fire", "--bundle", "rff.fb"},
             spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  checkGolden("bypass_required", normalize(r.out, spec));
  EXPECT_FALSE(contains(r.out, "fault_bypassed")) << r.out;

  std::string prefix = "  replay: fbc run " + spec.path + " --test test_fault_never_fires ";
  size_t at = r.out.find(prefix);
  ASSERT_NE(at, std::string::npos) << r.out;
  std::vector<std::string> args = {"run", spec.path, "--test", "test_fault_never_fires"};
  std::string rest = r.out.substr(at + prefix.size(), r.out.find('\n', at) - at - prefix.size());
  for (size_t from = 0; from < rest.size();) {
    size_t space = std::min(rest.find(' ', from), rest.size());
    args.push_back(rest.substr(from, space - from));
    from = space + 1;
  }
  EXPECT_EQ(rest, "--seed 1 --require-faults-fire");
  args.push_back("--no-bundle");
  FbcRun again = runFbc(args, spec.dir.path());
  EXPECT_EQ(again.exit, 2) << again.out << again.err;
  EXPECT_TRUE(contains(again.out, "\n--- FAIL: test_fault_never_fires (")) << again.out;

  FbcRun replay = runFbc({"replay", "rff.fb", "--test", "test_fault_never_fires", "--no-bundle"},
                         spec.dir.path());
  EXPECT_EQ(replay.exit, 2) << replay.out << replay.err;
  EXPECT_TRUE(contains(replay.out, "\n--- FAIL: test_fault_never_fires (")) << replay.out;
}

} // namespace
} // namespace fbc::rt::e2e
