// One end-to-end test per behaviour docs/run.md promises that no other test
// checked (issue #18). Each runs the real fbc binary on a spec from
// run_specs/documented_*.star and asserts what the docs say happens, with
// the whole report against a golden where the output is deterministic.
// `fbc plan --suggest` with nothing to suggest and byte-identical `fbc plan`
// output are checked by tests/golden (plan/suggest_nothing*) and the CTest
// test plan.determinism.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

// ---- FAULTBOX_<SERVICE>_<INTERFACE>_HOST|PORT|ADDR reach every service

TEST(Documented, DiscoveryVariablesReachTheService) {
  Spec spec("documented_env");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "-v"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  checkGolden(spec.name, normalize(r.out, spec));
  std::string kv = std::to_string(spec.kvPort), api = std::to_string(spec.apiPort);
  // Every service sees every interface's variables, its own included.
  EXPECT_TRUE(contains(r.err, "api | env: localhost " + kv + " localhost:" + kv + " localhost " +
                                  api + " localhost:" + api + "\n"))
      << r.err;
  // http_api got the store's address from $FAULTBOX_KV_MAIN_ADDR only.
  EXPECT_TRUE(contains(r.err, "api | http_api: listening on 127.0.0.1:" + api +
                                  ", kv at localhost:" + kv + "\n"))
      << r.err;
}

// ---- a second SIGINT exits at once

// fbc's stdout is a pipe nobody reads, filled up while the test body waits
// on a delayed fsync. The first SIGINT stops the services and fbc starts
// printing the results: it blocks writing to the full pipe (checked: its
// thread is in write()). Only the second signal can end it now, and it
// does: exit 130 without the pipe being read.
TEST(Documented, SecondSigintExitsAtOnce) {
  Spec spec("sigint");
  int outPipe[2], errPipe[2];
  ASSERT_EQ(pipe2(outPipe, O_CLOEXEC), 0);
  ASSERT_EQ(pipe2(errPipe, O_CLOEXEC), 0);
  pid_t pid = spawnFbc({"run", spec.path, "--seed", "1"}, spec.dir.path(), outPipe[1], errPipe[1]);
  close(errPipe[1]);
  std::string err;
  char buf[4096];
  while (!contains(err, "test_a_long: sleeping")) {
    ssize_t n = read(errPipe[0], buf, sizeof buf);
    if (n <= 0)
      break;
    err.append(buf, static_cast<size_t>(n));
  }
  ASSERT_TRUE(contains(err, "test_a_long: sleeping")) << err;
  ASSERT_TRUE(waitUntilInSyscall(spec.dir.path(), SYS_fsync, 30000));
  // Fill the pipe through a file description of our own (O_NONBLOCK on a
  // dup would make fbc's writes non-blocking too).
  int filler = open(("/proc/self/fd/" + std::to_string(outPipe[1])).c_str(),
                    O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(filler, 0);
  close(outPipe[1]);
  std::string block(4096, '.');
  while (write(filler, block.data(), block.size()) > 0) {
  }
  ASSERT_EQ(errno, EAGAIN);

  kill(pid, SIGINT);
  auto inWrite = [&] {
    for (int i = 0; i < 3000; ++i) {
      if (threadInSyscall(pid, SYS_write))
        return true;
      usleep(10 * 1000);
    }
    return false;
  };
  EXPECT_TRUE(inWrite()) << "fbc did not go on to print the results after the first SIGINT";
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, WNOHANG), 0) << "the first SIGINT ended fbc";

  kill(pid, SIGINT);
  auto t0 = std::chrono::steady_clock::now();
  pid_t done = 0;
  while ((done = waitpid(pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30))
    usleep(1000);
  if (done == 0) {
    ADD_FAILURE() << "fbc still running 30 s after the second SIGINT";
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status;
  close(filler);
  close(outPipe[0]);
  close(errPipe[0]);
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

// ---- the JSON report of an interrupted run: interrupted / not_run

TEST(Documented, JsonReportOfAnInterruptedRun) {
  Spec spec("sigint");
  FbcRun r = runInterrupted(spec, SIGINT, {"--format=json"});
  EXPECT_EQ(r.exit, 130) << r.out << r.err;
  // test_0_quick only; "interrupted": true and "not_run": 4 (test_a_long
  // and test_b_never's three leaves) at the top.
  checkGolden("documented_interrupted", normalizeJson(r.out, spec), ".json");
  EXPECT_TRUE(contains(r.out, "  \"interrupted\": true,\n  \"not_run\": 4,\n")) << r.out;
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

// ---- a rule fbc could not see in advance: "is not intercepting"

TEST(Documented, UnforeseenRuleIsNotInterceptingError) {
  Spec spec("documented_not_intercepting");
  FbcRun r = runWithGolden(spec, 2);
  for (const char *s :
       {"  reason: fault(): service \"kv\" is not intercepting fsync, so this fault could not "
        "fire (intercepting: nothing). fbc decides what to intercept from the spec before the "
        "test starts, and it could not see this rule: name the service and the syscall in the "
        "fault() call itself, e.g. fault(kv, fsync=deny(...), run=...)\n",
        "  reason: trace(): service \"kv\" is not intercepting fsync, so this trace could not "
        "see it (intercepting: nothing)."})
    EXPECT_TRUE(contains(r.out, s)) << s << "\n" << r.out;
}

// ---- body timeouts: test(timeout=), fault_scenario(timeout=), the matrix
// cells' 30 s default, and --timeout over all of them

// The result and reason of every test in a JSON report, by name.
std::map<std::string, std::string> outcomes(const std::string &json) {
  std::map<std::string, std::string> out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc)) {
    ADD_FAILURE() << "not JSON: " << json;
    return out;
  }
  for (simdjson::dom::element t : doc["tests"].get_array()) {
    std::string_view name = t["name"].get_string().value_unsafe();
    std::string_view result = t["result"].get_string().value_unsafe();
    std::string_view reason = "";
    if (t["reason"].get_string().get(reason))
      reason = ""; // no reason: a pass
    out[std::string(name)] = std::string(result) + ": " + std::string(reason);
  }
  return out;
}

const std::string kTimedOut = "inconclusive: test timeout: body did not complete within ";

// Runs documented_timeouts.star with `extra`: exit 3, and `want` as the
// result and reason of every test.
void expectTimeouts(std::vector<std::string> extra, std::map<std::string, std::string> want) {
  Spec spec("documented_timeouts");
  std::vector<std::string> args = {"run", spec.path, "--seed", "1", "--format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  FbcRun r = runFbc(args, spec.dir.path());
  EXPECT_EQ(r.exit, 3) << r.out << r.err;
  EXPECT_EQ(outcomes(r.out), want);
}

TEST(Documented, TestAndScenarioTimeoutsApply) {
  expectTimeouts({"--test", "~_own$"},
                 {{"test_own", kTimedOut + "1s"}, {"test_scenario_own", kTimedOut + "2s"}});
}

// 30 s of a sleeping body: the one slow test here, so CTest runs it beside
// the others.
TEST(Documented, MatrixCellTimeoutIs30sByDefault) {
  auto t0 = std::chrono::steady_clock::now();
  expectTimeouts({"--test", "test_matrix_sleepy_slow_disk"},
                 {{"test_matrix_sleepy_slow_disk", kTimedOut + "30s"}});
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
}

TEST(Documented, TimeoutFlagOverridesEveryTest) {
  expectTimeouts({"--timeout", "1s"}, {{"test_matrix_sleepy_slow_disk", kTimedOut + "1s"},
                                       {"test_own", kTimedOut + "1s"},
                                       {"test_scenario_own", kTimedOut + "1s"}});
}

// ---- fault_start / fault_stop under fbc run

TEST(Documented, FaultStartHoldsUntilFaultStopOrTheEnd) {
  Spec spec("documented_fault_start");
  FbcRun r = runWithGolden(spec, 0);
  EXPECT_TRUE(contains(r.out, "fault rule on kv: write=deny(EIO) → "
                              "filter:[write,writev,pwrite64,pwritev,pwritev2] (2 hits)\n"))
      << r.out;
  // The event order: applied, the two denied writes, removed at
  // fault_stop (before the last SET), or at the end of the test.
  FbcRun j = runFbc({"run", spec.path, "--seed", "1", "--format=json"}, spec.dir.path());
  EXPECT_EQ(j.exit, 0) << j.out << j.err;
  checkGolden(spec.name, normalizeJson(j.out, spec), ".json");
}

// ---- the default 2 s stop grace period

// Seconds since midnight of an RFC 3339 timestamp ("...T18:10:55.47Z").
double secondsOfDay(std::string_view ts) {
  int h = 0, m = 0;
  double s = 0;
  std::string t(ts.substr(ts.find('T') + 1));
  EXPECT_EQ(std::sscanf(t.c_str(), "%d:%d:%lf", &h, &m, &s), 3) << ts;
  return h * 3600 + m * 60 + s;
}

TEST(Documented, StopGivesTwoSecondsBeforeSigkill) {
  Spec spec("documented_grace");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--format=json"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  // stubborn ignores SIGTERM: killed by SIGKILL; polite exits on SIGTERM.
  checkGolden(spec.name, normalizeJson(r.out, spec), ".json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_FALSE(parser.parse(r.out).get(doc)) << r.out;
  std::map<std::string, double> at; // "<type> <service>" -> time
  for (simdjson::dom::element e : doc["tests"].at(0)["events"].get_array()) {
    std::string key = std::string(e["type"].get_string().value_unsafe()) + " " +
                      std::string(e["service"].get_string().value_unsafe());
    at[key] = secondsOfDay(e["timestamp"].get_string().value_unsafe());
  }
  ASSERT_TRUE(at.count("service_ready stubborn") && at.count("service_stopped stubborn"));
  double held = at["service_stopped stubborn"] - at["service_ready stubborn"];
  EXPECT_GE(held, 2.0) << "SIGKILL came before the 2 s grace period ended";
  EXPECT_LT(held, 30.0); // a guard against a hang
}

// ---- fbc run --leaf-program FILE runs the program in FILE (docs/leaves.md)

TEST(Documented, RunFollowsALeafProgramFile) {
  Spec spec("leaves");
  FbcRun ir = runFbc({"ir", spec.path, "--stage=leaves"}, spec.dir.path());
  ASSERT_EQ(ir.exit, 0) << ir.err;
  // test_choose's retries axis cut from 3 leaves to 2, with its count and
  // the total: the run must run 2 leaves, which the spec alone would not.
  std::string text = ir.out;
  ASSERT_TRUE(RE2::Replace(&text, R"((test "test_choose" kind=def leaves=)3)", "\\12"));
  ASSERT_TRUE(RE2::Replace(&text, R"((axis 0 choose "retries" size=)3)", "\\12"));
  uint64_t total = 0;
  std::string prefix;
  ASSERT_TRUE(RE2::PartialMatch(text, R"(\ntotal (at least )?(\d+)\n)", &prefix, &total)) << text;
  ASSERT_TRUE(RE2::Replace(&text, R"(\ntotal (at least )?\d+\n)",
                           "\ntotal " + prefix + std::to_string(total - 1) + "\n"));
  std::string file = spec.dir.file("edited.leaves");
  std::ofstream(file) << text;
  FbcRun r = runFbc({"run", spec.path, "--test", "test_choose", "--seed", "1", "--leaf-program",
                     "edited.leaves", "--no-bundle"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(
      allMatches(r.out, R"((--- PASS: test_choose \[leaf \d))"),
      (std::vector<std::string>{"--- PASS: test_choose [leaf 0", "--- PASS: test_choose [leaf 1"}))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\n2 passed, 0 failed\n")) << r.out;
  EXPECT_TRUE(contains(r.err, "fbc run: running the leaf program in edited.leaves, not the spec's "
                              "own lowering (a replay of this run lowers the spec again)\n"))
      << r.err;

  // A program whose count disagrees with its axes is refused, with its line.
  std::ofstream(file) << ir.out.substr(0, ir.out.find("\ntotal ")) + "\ntotal 1\n";
  FbcRun bad =
      runFbc({"run", spec.path, "--leaf-program", "edited.leaves", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(bad.exit, 1) << bad.out << bad.err;
  EXPECT_TRUE(RE2::FullMatch(bad.err, R"(fbc run: error: edited.leaves: line \d+: total 1 is not )"
                                      R"(the sum of the tests' \(at least \d+\)\n)"))
      << bad.err;
}

} // namespace
} // namespace fbc::rt::e2e
