// `fbc run` end to end, the leaves of a test (issue #7, run_specs/leaves.star):
// choose(), max_fires vectors, interleavings, axes multiplied and sized at
// run time, --leaf, the plan's total against the run's rows, located
// argument errors; parallel() without an interleaving axis
// (run_specs/parallel.star); the body's heap freed after each leaf. Part of
// run_e2e_tests (run_e2e_test.cpp says how a test runs a spec).
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

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

} // namespace
} // namespace fbc::rt::e2e
