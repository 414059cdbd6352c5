// `fbc run` end to end, what the report says: faults on a named op and a
// port another process holds (run_specs/ops.star), rows streamed as the run
// goes, a service dying mid-test, the JSON reports whole against their
// goldens, and faults that never fired (run_specs/bypass.star, issue #17;
// --require-faults-fire, issue #32). Part of run_e2e_tests (run_e2e_test.cpp
// says how a test runs a spec).
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

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
