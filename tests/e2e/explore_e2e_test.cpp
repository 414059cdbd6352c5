// fbc run --explore end to end (issue #30, docs/run.md "Exploring
// orderings"): run_specs/explore.star's counter fixture, whose two
// concurrent INCRs make four held calls each. --explore=all runs each of
// the C(8,4) = 70 release orders once; the 36 where both reads come before
// either write lose an update; a failing leaf's schedule replays from the
// bundle 10 times out of 10; every release is a trace event.
#include "bundle/archive.h"
#include "bundle/manifest.h"
#include "tests/e2e/explore_rows.h"
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

// The lost update: each thread reads (pread64) before the other writes.
bool losesAnUpdate(const std::vector<std::string> &released) {
  return bothReadFirst(released, {"counter/t0#1 pread64", "counter/t0#2 pwrite64"},
                       {"counter/t1#1 pread64", "counter/t1#2 pwrite64"});
}

FbcRun explore(const Spec &spec, std::vector<std::string> extra) {
  std::vector<std::string> args{"run", spec.path, "--seed", "1", "--test", "test_two_increments"};
  args.insert(args.end(), extra.begin(), extra.end());
  return runFbc(args, spec.dir.path());
}

TEST(Explore, AllRunsEveryReleaseOrderOnceAndFindsTheLostUpdate) {
  Spec spec("explore");
  FbcRun r = explore(spec, {"--explore=all", "--format=json", "--no-bundle"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_EQ(r.err, "") << r.err;
  std::vector<Row> rows = rowsOf(r.out);
  ASSERT_EQ(rows.size(), 70u);
  std::set<std::vector<std::string>> orders;
  size_t failed = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &row = rows[i];
    EXPECT_EQ(row.id, std::to_string(i));
    ASSERT_EQ(row.released.size(), 8u) << i;
    orders.insert(row.released);
    // A row fails exactly when its order loses an update.
    EXPECT_EQ(row.result, losesAnUpdate(row.released) ? "fail" : "pass") << i;
    failed += row.result == "fail";
  }
  EXPECT_EQ(orders.size(), 70u);
  EXPECT_EQ(failed, 36u);
  // Leaf 0 releases the first waiting call by name at every step.
  EXPECT_EQ(rows[0].released,
            (std::vector<std::string>{"counter/t0#0 recvfrom", "counter/t0#1 pread64",
                                      "counter/t0#2 pwrite64", "counter/t0#3 sendto",
                                      "counter/t1#0 recvfrom", "counter/t1#1 pread64",
                                      "counter/t1#2 pwrite64", "counter/t1#3 sendto"}));
  EXPECT_EQ(rows[0].schedule, "0.0.0.0");
}

// The text report: one row per release order, the replay line repeating
// --explore (tests/e2e/golden/explore.txt).
TEST(Explore, TextReport) {
  Spec spec("explore");
  FbcRun r =
      runFbc({"run", spec.path, "--seed", "1", "--explore=all", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.err;
  checkGolden("explore", normalize(r.out, spec));
}

TEST(Explore, AFailingLeafReplaysTenTimesOutOfTen) {
  Spec spec("explore");
  FbcRun r = explore(spec, {"--explore=all", "--format=json", "--bundle", "run.fb"});
  EXPECT_EQ(r.exit, 2) << r.err;
  std::vector<Row> rows = rowsOf(r.out);
  auto failing =
      std::find_if(rows.begin(), rows.end(), [](const Row &x) { return x.result == "fail"; });
  ASSERT_NE(failing, rows.end());
  EXPECT_EQ(failing->id, "9");
  // The bundle carries the settings and every leaf's schedule.
  llvm::Expected<bundle::Contents> c = bundle::readBundle(spec.dir.file("run.fb"));
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  llvm::Expected<bundle::Manifest> m = bundle::parseManifest(c->find("manifest.json")->data);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_EQ(m->explore.policy, ir::ExploreOptions::Policy::All);
  ASSERT_EQ(m->tests.size(), 70u);
  EXPECT_EQ(m->tests[9].released, failing->released);
  EXPECT_EQ(m->tests[9].displayName(), "test_two_increments [leaf 9 — schedule=0.0.1.1.0.0]");
  replaysTenTimesOutOfTen(spec.dir.path(), "test_two_increments", *failing);
}

// Every release is a trace event, in the leaf's order, on its service.
TEST(Explore, ReleasesAreTraceEvents) {
  Spec spec("explore");
  FbcRun r = explore(spec, {"--explore=all", "--explore-budget=3", "--bundle", "run.fb"});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "spec.star:16:1: warning: explore: test_two_increments: stopped at the budget "
                   "of 3 leaves; release orders remain unexplored (--explore-budget)\n"
                   "def test_two_increments():\n^\nBundle: run.fb\n");
  llvm::Expected<bundle::Contents> c = bundle::readBundle(spec.dir.file("run.fb"));
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  simdjson::dom::parser p;
  simdjson::dom::element trace = p.parse(c->find("trace.json")->data);
  size_t leaves = 0;
  for (simdjson::dom::element t : trace["tests"].get_array()) {
    std::vector<std::string> released, calls;
    for (simdjson::dom::element c2 : t["leaf_released"].get_array())
      released.emplace_back(std::string_view(c2));
    size_t step = 0;
    for (simdjson::dom::element e : t["events"].get_array()) {
      if (std::string_view(e["type"]) != "release")
        continue;
      EXPECT_EQ(std::string_view(e["service"]), "counter");
      EXPECT_EQ(std::string_view(e["fields"]["step"]), std::to_string(step++));
      EXPECT_EQ(std::string_view(e["fields"]["quiet"]), "true");
      calls.emplace_back(std::string_view(e["fields"]["call"]));
    }
    EXPECT_EQ(calls, released);
    ++leaves;
  }
  EXPECT_EQ(leaves, 3u);
}

// --explore=sample: budget leaves, each order drawn from the run seed.
TEST(Explore, SampleIsSeeded) {
  Spec spec("explore");
  FbcRun a =
      explore(spec, {"--explore=sample", "--explore-budget=4", "--format=json", "--no-bundle"});
  FbcRun b =
      explore(spec, {"--explore=sample", "--explore-budget=4", "--format=json", "--no-bundle"});
  std::vector<Row> ra = rowsOf(a.out), rb = rowsOf(b.out);
  ASSERT_EQ(ra.size(), 4u) << a.out << a.err;
  ASSERT_EQ(rb.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ra[i].released, rb[i].released) << i;
    EXPECT_EQ(ra[i].result, losesAnUpdate(ra[i].released) ? "fail" : "pass") << i;
  }
}

// What the run holds is the leaf program's (fbc ir --stage=leaves --explore=all).
TEST(Explore, TheLeafProgramSaysWhatIsHeld) {
  Spec spec("explore");
  FbcRun r = runFbc({"ir", spec.path, "--stage=leaves", "--explore=all"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.err;
  checkGolden("explore_leaves", substituteRunValues(r.out, spec));
}

// nondet(svc, ...): the services it names are not held (the leaf program
// says so), and a test with nothing held is not explored.
TEST(Explore, NondetServicesAreNotHeld) {
  Spec spec("explore_nondet");
  FbcRun ir = runFbc({"ir", spec.path, "--stage=leaves", "--explore=all"}, spec.dir.path());
  EXPECT_EQ(ir.exit, 0) << ir.err;
  checkGolden("explore_nondet_leaves", substituteRunValues(ir.out, spec));
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--explore=all", "--explore-budget=3",
                     "--format=json", "--no-bundle"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.err;
  std::string all;
  for (const Row &row : rowsOf(r.out)) {
    all.append(row.name);
    if (!row.id.empty())
      all.append(" [leaf ").append(row.id).append("]");
    all.append(" ").append(row.result);
    if (!row.reason.empty())
      all.append(": ").append(row.reason);
    for (const std::string &c : row.released)
      all.append("\n  ").append(c);
    all.append("\n");
  }
  checkGolden("explore_nondet_rows", all);
}

TEST(Explore, BadFlags) {
  Spec spec("explore");
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"--explore=dpor"}, "fbc run: error: bad --explore \"dpor\": want all or sample\n"},
      {{"--explore-budget=3"},
       "fbc run: error: --explore-budget, --explore-settle and --explore-quiet-bound need "
       "--explore or an interleavings=\"dpor\" site (parallel(), wait_*())\n"},
      {{"--explore=all", "--explore-budget=0"},
       "fbc run: error: bad --explore-budget \"0\": want a number of leaves (1..999999999)\n"},
      {{"--explore=all", "--explore-quiet-bound=0s"},
       "fbc run: error: bad --explore-quiet-bound \"0s\": must be positive\n"},
  };
  for (const Case &c : cases) {
    FbcRun r = explore(spec, c.args);
    EXPECT_EQ(r.exit, 1) << c.args[0];
    EXPECT_EQ(r.err, c.err);
    EXPECT_EQ(r.out, "");
  }
}

// parallel(interleavings="dpor"), without --explore: the order of the four
// file calls decides the outcome (the receive and the reply of one request
// touch only its own connection), so DPOR runs each of the C(4,2) = 6
// orders of pread/pwrite of the two requests once: 6 leaves instead of the
// 70 release orders, the 4 that lose an update fail.
std::string fileOrder(const std::vector<std::string> &released) {
  std::string out;
  for (const std::string &c : released)
    if (contains(c, "pread64") || contains(c, "pwrite64"))
      out.append(out.empty() ? "" : " ")
          .append(c.substr(c.find('/') + 1, 2) + (contains(c, "pread") ? "r" : "w"));
  return out;
}

FbcRun dpor(const Spec &spec, const std::string &test, std::vector<std::string> extra) {
  std::vector<std::string> args{"run", spec.path, "--seed", "1", "--test", test};
  args.insert(args.end(), extra.begin(), extra.end());
  return runFbc(args, spec.dir.path());
}

// A dpor exploration of the two increments: 6 leaves, ids 0 to 5, each
// releasing the 8 calls, one per order of the file calls; a leaf fails
// exactly when its order loses an update, and 4 do.
void runsTheSixClassesOnce(const std::vector<Row> &rows) {
  std::set<std::string> orders;
  size_t failed = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &row = rows[i];
    EXPECT_EQ(row.id, std::to_string(i));
    ASSERT_EQ(row.released.size(), 8u) << i;
    EXPECT_EQ(row.result, losesAnUpdate(row.released) ? "fail" : "pass") << i;
    failed += row.result == "fail";
    orders.insert(fileOrder(row.released));
  }
  EXPECT_EQ(orders,
            (std::set<std::string>{"t0r t0w t1r t1w", "t0r t1r t0w t1w", "t0r t1r t1w t0w",
                                   "t1r t0r t0w t1w", "t1r t0r t1w t0w", "t1r t1w t0r t0w"}));
  EXPECT_EQ(failed, 4u);
  EXPECT_EQ(rows.size(), 6u); // one per class, against 70 orders with --explore=all
}

TEST(ExploreDpor, RunsEveryClassOfTheLostUpdateInFewerLeaves) {
  Spec spec("explore_dpor");
  FbcRun r = dpor(spec, "test_two_increments", {"--format=json", "--no-bundle"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_EQ(r.err, "") << r.err;
  std::vector<Row> rows = rowsOf(r.out);
  ASSERT_NO_FATAL_FAILURE(runsTheSixClassesOnce(rows));
  // The last leaf carries the test's coverage statement (JSON explore_coverage).
  for (size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(rows[i].coverage, i + 1 < rows.size()
                                    ? ""
                                    : "explored 6 classes of the orderings of 8 mediated events; "
                                      "complete at the mediated boundary under conservative "
                                      "independence")
        << i;
  checkGolden("explore_dpor_rows", rowLines(rows));
}

const std::string kNotCovered =
    "orderings inside a process between two mediated events; dependence through what no held "
    "call touches (shared memory, a mapped file, a call outside the explore set) or what a "
    "server does beyond the keys and tables a request names (a trigger, a view, a foreign key, a "
    "default from a shared sequence); a request a proxy delay() holds back longer than "
    "--explore-quiet-bound";

TEST(ExploreDpor, AFailingLeafReplaysTenTimesOutOfTen) {
  Spec spec("explore_dpor");
  FbcRun r = dpor(spec, "test_two_increments", {"--format=json", "--bundle", "run.fb"});
  EXPECT_EQ(r.exit, 2) << r.err;
  std::vector<Row> rows = rowsOf(r.out);
  auto failing =
      std::find_if(rows.begin(), rows.end(), [](const Row &x) { return x.result == "fail"; });
  ASSERT_NE(failing, rows.end());
  // The bundle's last row carries the coverage statement, as the report's.
  llvm::Expected<bundle::Contents> c = bundle::readBundle(spec.dir.file("run.fb"));
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  llvm::Expected<bundle::Manifest> m = bundle::parseManifest(c->find("manifest.json")->data);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  ASSERT_EQ(m->tests.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(m->tests[i].coverage, rows[i].coverage) << i;
    EXPECT_EQ(m->tests[i].notCovered, i + 1 < rows.size() ? "" : kNotCovered) << i;
  }
  replaysTenTimesOutOfTen(spec.dir.path(), "test_two_increments", *failing);
}

// wait_first(..., interleavings="dpor"): the same 6 classes as parallel()'s,
// the same 4 lose an update; the branch that did not finish first is
// cancelled, and its request is answered all the same.
TEST(ExploreDpor, WaitFirstIsExploredAsParallelIs) {
  Spec spec("explore_dpor");
  FbcRun r = dpor(spec, "test_wait_first", {"--format=json", "--no-bundle"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_EQ(r.err, "") << r.err;
  runsTheSixClassesOnce(rowsOf(r.out));
}

// preemptions=0: only the orders where each request runs to its end once
// released; the choices it leaves out are counted in a warning. -j 2 runs
// the same leaves, one at a time (each follows from the last). Disjoint
// resources: one class, one leaf. Launch orders never overlap the two
// requests: no lost update.
TEST(ExploreDpor, BoundDisjointAndLaunchOrders) {
  Spec spec("explore_dpor");
  for (const char *jobs : {"1", "2"}) {
    FbcRun bounded = dpor(spec, "test_no_preemption", {"--format=json", "--no-bundle", "-j", jobs});
    EXPECT_EQ(bounded.exit, 0) << bounded.err;
    std::vector<Row> rows = rowsOf(bounded.out);
    ASSERT_EQ(rows.size(), 2u) << "-j " << jobs << ": " << bounded.out;
    EXPECT_EQ(fileOrder(rows[0].released), "t0r t0w t1r t1w");
    EXPECT_EQ(fileOrder(rows[1].released), "t1r t1w t0r t0w");
    EXPECT_EQ(bounded.err, "spec.star:29:1: warning: explore: test_no_preemption: "
                           "preemptions=0 left out 1 backtrack choice (orders with more "
                           "preemptions)\ndef test_no_preemption():\n^\n");
  }
  FbcRun disjoint = dpor(spec, "test_disjoint", {"--format=json", "--no-bundle"});
  EXPECT_EQ(disjoint.exit, 0) << disjoint.err;
  std::vector<Row> rows = rowsOf(disjoint.out);
  ASSERT_EQ(rows.size(), 1u) << disjoint.out;
  EXPECT_EQ(rows[0].released.size(), 8u);
  FbcRun launch = dpor(spec, "test_launch_orders", {"--format=json", "--no-bundle"});
  EXPECT_EQ(launch.exit, 0) << launch.err;
  EXPECT_EQ(rowsOf(launch.out).size(), 2u);
}

// The coverage statement in the text report, under the last leaf of each
// dpor test: complete, cut by preemptions=0, one class, stopped at the
// budget (golden explore_dpor_coverage.txt); a replay explores nothing and
// says nothing of coverage.
TEST(ExploreDpor, CoverageStatement) {
  Spec spec("explore_dpor");
  std::string all;
  auto coverage = [&](const std::string &test, std::vector<std::string> extra) {
    FbcRun r = dpor(spec, test, extra);
    std::string out = normalize(r.out, spec), header;
    all.append("$ fbc run --test ").append(test);
    for (const std::string &a : extra)
      all.append(" ").append(a);
    all.append("\n");
    for (size_t p = 0, e; p < out.size(); p = e + 1) {
      e = out.find('\n', p);
      std::string line = out.substr(p, e - p);
      if (line.starts_with("--- "))
        header = line;
      else if (line.starts_with("  coverage: "))
        all.append(header).append("\n").append(line).append("\n");
      else if (line.starts_with("  not covered: "))
        all.append(line).append("\n");
      if (e == std::string::npos)
        break;
    }
    return r;
  };
  coverage("test_two_increments", {"--no-bundle"});
  coverage("test_no_preemption", {"--no-bundle"});
  coverage("test_disjoint", {"--no-bundle"});
  FbcRun budget = coverage("test_two_increments", {"--explore-budget=2", "--bundle", "run.fb"});
  EXPECT_EQ(budget.exit, 2) << budget.err;
  FbcRun replay =
      runFbc({"replay", "run.fb", "--test", "test_two_increments", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(replay.exit, 2) << replay.err;
  EXPECT_FALSE(contains(replay.out, "coverage:")) << replay.out;
  checkGolden("explore_dpor_coverage", all);
}

TEST(ExploreDpor, TheLeafProgramSaysWhatIsHeld) {
  Spec spec("explore_dpor");
  FbcRun r = runFbc({"ir", spec.path, "--stage=leaves"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.err;
  checkGolden("explore_dpor_leaves", substituteRunValues(r.out, spec));
}
} // namespace
} // namespace fbc::rt::e2e
