// fbc on CI engines, end to end (docs/run.md "Sharding", "JUnit XML").
// Sharding: `fbc run --shard K/N` on
// run_specs/leaves.star (44 leaves of 7 tests, one with an axis sized at run
// time) covers every row of the unsharded run exactly once for N = 1..5, and
// the engine examples in examples/ci/ run with the variables their engine
// sets: the example's own `fbc run` line, through /bin/sh. JUnit: the XML
// `--junit` (or Bazel's XML_OUTPUT_FILE) gets is validated with xmllint
// against tests/e2e/junit/junit.xsd and compared with a golden. Progress:
// fbc with stderr on a pseudo-terminal redraws its line in place; stdout is
// the same report as through a pipe.
#include "tests/e2e/fbc_run.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <re2/re2.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fbc::rt::e2e {
namespace {

const char *const kEngineVars[] = {
    "TEST_TOTAL_SHARDS",    "TEST_SHARD_INDEX", "TEST_SHARD_STATUS_FILE", "XML_OUTPUT_FILE",
    "JOB_COMPLETION_INDEX", "CI_NODE_INDEX",    "CI_NODE_TOTAL"};

// This process's environment must not shard the runs it starts.
void clearEngineVars() {
  for (const char *v : kEngineVars)
    unsetenv(v);
}

// "test_x#leaf" per row of a --format=json report, in report order ("#-"
// for a row without a leaf).
std::vector<std::string> rows(const std::string &json) {
  simdjson::dom::parser p;
  simdjson::dom::element doc = p.parse(json);
  std::vector<std::string> out;
  for (simdjson::dom::element t : doc["tests"].get_array()) {
    std::string name{std::string_view(t["name"])};
    std::string_view leaf = "-";
    if (t["leaf_id"].error() == simdjson::SUCCESS)
      leaf = t["leaf_id"];
    out.push_back(name + "#" + std::string(leaf));
  }
  return out;
}

FbcRun runJson(const Spec &spec, std::vector<std::string> extra) {
  std::vector<std::string> args = {"run", spec.path, "--seed", "1", "--format=json", "--no-bundle"};
  args.insert(args.end(), extra.begin(), extra.end());
  return runFbc(args, spec.dir.path());
}

TEST(FbcShard, OneToFiveShardsCoverEveryLeafExactlyOnce) {
  clearEngineVars();
  Spec spec("leaves");
  FbcRun all = runJson(spec, {});
  ASSERT_EQ(all.exit, 0) << all.err;
  std::vector<std::string> want = rows(all.out);
  ASSERT_EQ(want.size(), 44u) << all.out;
  for (int n = 1; n <= 5; ++n) {
    std::vector<std::string> got;
    for (int k = 1; k <= n; ++k) {
      FbcRun r = runJson(spec, {"--shard", std::to_string(k) + "/" + std::to_string(n)});
      ASSERT_EQ(r.exit, 0) << r.err;
      std::vector<std::string> part = rows(r.out);
      // A shard's rows come in plan order: a subsequence of the whole run.
      auto it = want.begin();
      for (const std::string &row : part) {
        it = std::find(it, want.end(), row);
        EXPECT_NE(it, want.end()) << row << " out of plan order in shard " << k << "/" << n;
      }
      EXPECT_TRUE(contains(r.err, "fbc run: shard " + std::to_string(k) + "/" + std::to_string(n) +
                                      " (--shard "))
          << r.err;
      got.insert(got.end(), part.begin(), part.end());
    }
    std::vector<std::string> a = want, b = got;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << "N=" << n;
  }
}

// Measured start cost balances the leaves an earlier run did not have: a
// run of test_old alone measured slow's ~1 s start; test_new's three leaves
// are then estimated at ~1 s each (50 ms + the services' measured start +
// their delays), so they spread over both shards instead of all landing
// next to test_old's measured ~1.6 s. The assignment is a golden (times
// masked: they are measured); `fbc run --shard` finds the same bundle as
// the newest of the spec in $FBC_BUNDLE_DIR and runs that shard's leaves.
TEST(FbcShard, UnseenLeavesAreEstimatedFromTheServicesMeasuredStart) {
  clearEngineVars();
  Spec spec("slow_start");
  std::string dir = spec.dir.file("bundles");
  setenv("FBC_BUNDLE_DIR", dir.c_str(), 1);
  FbcRun old = runFbc({"run", spec.path, "--seed", "1", "--test", "test_old"}, spec.dir.path());
  ASSERT_EQ(old.exit, 0) << old.out << old.err;
  std::string bundle = allMatches(old.err, R"(Bundle: (\S+))").at(0);
  auto masked = [](std::string s) {
    RE2::GlobalReplace(&s, R"(~\d+(\.\d+)?(ms|s))", "~T");
    return s;
  };
  // --durations-from: the plan's split.
  FbcRun plan =
      runFbc({"plan", spec.path, "--shards", "2", "--durations-from", bundle}, spec.dir.path());
  ASSERT_EQ(plan.exit, 0) << plan.err;
  std::string shards = plan.out.substr(plan.out.find("\nShards: ") + 1);
  checkGolden("shard_start_cost", masked(shards));
  // The newest bundle of the spec in $FBC_BUNDLE_DIR: the same split, said.
  FbcRun again = runFbc({"plan", spec.path, "--shards", "2"}, spec.dir.path());
  EXPECT_EQ(again.out, plan.out);
  EXPECT_EQ(again.err, "fbc plan: shards balanced by what " + bundle +
                           " measured (the newest bundle of spec.star in $FBC_BUNDLE_DIR)\n");
  FbcRun one = runJson(spec, {"--shard", "1/2"});
  unsetenv("FBC_BUNDLE_DIR");
  EXPECT_EQ(one.exit, 0) << one.err;
  EXPECT_EQ(rows(one.out), (std::vector<std::string>{"test_new#2", "test_old#-"}));
  EXPECT_TRUE(contains(one.err, "fbc run: shards balanced by what " + bundle +
                                    " measured (the newest bundle of spec.star in "
                                    "$FBC_BUNDLE_DIR)\nfbc run: shard 1/2 (--shard 1/2): 2 of 4 "
                                    "leaves, ~"))
      << one.err;
}

TEST(FbcShard, BadShardsAreUsageErrors) {
  clearEngineVars();
  Spec spec("leaves");
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  for (const Case &c : std::vector<Case>{
           {{"--shard", "0/3"},
            "fbc run: error: --shard 0/3: bad shard index \"0\" (want 1 .. 3)\n"},
           {{"--shard", "4/3"},
            "fbc run: error: --shard 4/3: bad shard index \"4\" (want 1 .. 3)\n"},
           {{"--shard", "3"},
            "fbc run: error: bad --shard \"3\": want K/N, e.g. 2/5 (shards are "
            "numbered from 1)\n"},
           {{"--shard", "1/0"},
            "fbc run: error: --shard 1/0: bad shard count \"0\" (want 1 .. "
            "100000)\n"},
           {{"--shard-count", "3"},
            "fbc run: error: --shard-count needs JOB_COMPLETION_INDEX (set "
            "by a Kubernetes Indexed Job); elsewhere use --shard K/N\n"},
           {{"--shard", "1/2", "--leaf", "0"},
            "fbc run: error: --leaf picks one leaf; it cannot be combined with sharding (--shard "
            "1/2)\n"},
           {{"--durations-from", "x.fb"},
            "fbc run: error: --durations-from balances shards: give --shard K/N\n"},
       }) {
    FbcRun r = runJson(spec, c.args);
    EXPECT_EQ(r.exit, 1) << c.err;
    EXPECT_EQ(r.err, c.err);
    EXPECT_EQ(r.out, "");
  }
}

// ---- JUnit XML

// xmllint's verdict on `file` against the XSD: "" when valid, else its
// messages.
std::string validateJUnit(const std::string &file) {
  std::string log = file + ".xmllint";
  std::string cmd = "xmllint --noout --schema '" + std::string(FBC_JUNIT_XSD) + "' '" + file +
                    "' >'" + log + "' 2>&1";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "xmllint: " + readFile(log);
}

std::string normalizeJUnit(std::string s, const Spec &spec) {
  s = normalize(std::move(s), spec);
  RE2::GlobalReplace(&s, R"( time="\d+\.\d+")", R"( time="N")");
  return s;
}

// Runs the spec with --seed 1 and --junit (after `extra`), expects exit
// code `exit`, validates the XML against the XSD and compares it with the
// golden junit_<spec>.xml. Returns the XML file's path.
std::string runJUnitGolden(const Spec &spec, int exit, std::vector<std::string> extra = {}) {
  std::string file = spec.dir.file("junit.xml");
  std::vector<std::string> args = {"run", spec.path, "--seed", "1", "--no-bundle"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--junit", file});
  FbcRun r = runFbc(args, spec.dir.path());
  EXPECT_EQ(r.exit, exit) << spec.name << r.err;
  EXPECT_EQ(validateJUnit(file), "") << spec.name;
  checkGolden("junit_" + spec.name, normalizeJUnit(readFile(file), spec), ".xml");
  return file;
}

TEST(FbcJUnit, FailuresAndDecisionsValidateAgainstTheXsd) {
  clearEngineVars();
  Spec spec("faults");
  std::string file = runJUnitGolden(spec, 2);
  // The validator can fail: a testcase without its classname is refused.
  std::string broken = readFile(file);
  broken.replace(broken.find(" classname="), std::string(" classname=\"spec.star\"").size(), "");
  std::string bad = spec.dir.file("broken.xml");
  std::ofstream(bad) << broken;
  EXPECT_TRUE(contains(validateJUnit(bad), "classname")) << validateJUnit(bad);
}

TEST(FbcJUnit, HaltedIsSkippedInconclusiveIsAnError) {
  clearEngineVars();
  Spec halt("halt"), hang("hang");
  EXPECT_TRUE(contains(readFile(runJUnitGolden(halt, 2, {"--timeout", "2s"})),
                       "<skipped message=\"halt()\"/>"));
  EXPECT_TRUE(contains(readFile(runJUnitGolden(hang, 3, {"--timeout", "2s"})),
                       "status=\"inconclusive\">\n      <properties>\n        <property "
                       "name=\"code\" value=\"TEST_TIMEOUT\"/>\n      </properties>\n"
                       "      <error message=\"test timeout: "));
}

// A pass whose fault never fired is not a plain pass: status="fault_bypassed",
// a fault_bypassed property and <skipped message=...> naming the rules (CI
// dashboards show it skipped), the rules again in <system-out>, and the
// suite's count as a property; require_faults_fire's failure is a <failure>.
TEST(FbcJUnit, FaultBypassedIsMarked) {
  clearEngineVars();
  Spec spec("bypass");
  std::string xml = readFile(runJUnitGolden(spec, 2));
  EXPECT_TRUE(contains(xml, "status=\"fault_bypassed\">\n      <properties>\n        <property "
                            "name=\"fault_bypassed\" value=\"true\"/>\n        <property "
                            "name=\"code\" value=\"FAULT_NOT_FIRED\"/>\n      </properties>\n"
                            "      <skipped message=\"fault_bypassed: the test passed, but its "
                            "fault never fired: kv fsync=deny(EIO) (no fsync/fdatasync call of "
                            "kv reached the rule"))
      << xml;
}

// The suite's time is the run's wall time, the JSON report's duration_ms
// (under -j the rows overlap: their sum is not how long the suite took);
// each testcase's is its row's duration_ms.
TEST(FbcJUnit, SuiteTimeIsTheRunsWallTimeEachCaseItsRows) {
  clearEngineVars();
  Spec spec("leaves");
  std::string file = spec.dir.file("junit.xml");
  FbcRun r = runJson(spec, {"--test", "choose", "-j", "3", "--junit", file});
  ASSERT_EQ(r.exit, 0) << r.err;
  std::string xml = readFile(file);
  simdjson::dom::parser p;
  simdjson::dom::element doc = p.parse(r.out);
  auto seconds = [](int64_t ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ms / 1000),
                  static_cast<long long>(ms % 1000));
    return std::string(buf);
  };
  std::string wall = seconds(int64_t(doc["duration_ms"]));
  EXPECT_EQ(allMatches(xml, R"re(<testsuites? name="[^"]*" tests="3" failures="0" errors="0" )re"
                            R"re(skipped="0" time="([\d.]+)")re"),
            (std::vector<std::string>{wall, wall}))
      << xml;
  std::vector<std::string> rowTimes;
  for (simdjson::dom::element t : doc["tests"].get_array())
    rowTimes.push_back(seconds(int64_t(t["duration_ms"])));
  EXPECT_EQ(allMatches(xml, R"re(<testcase [^>]* time="([\d.]+)")re"), rowTimes) << xml;
}

// fbc merge --junit: one JUnit file for the merged bundle, the shards'
// testcases in plan order (the unsharded run's, bundle_e2e_test.cpp
// FbcMerge checks), counted again, naming the bundles it came from.
TEST(FbcJUnit, MergedShardsAreOneFile) {
  clearEngineVars();
  Spec spec("faults");
  for (const char *k : {"1", "2"}) {
    FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--shard", std::string(k) + "/2",
                       "--bundle", std::string("s") + k + ".fb"},
                      spec.dir.path());
    ASSERT_NE(r.exit, 1) << r.err;
  }
  std::string file = spec.dir.file("merged.xml");
  FbcRun m = runFbc({"merge", "s2.fb", "s1.fb", "-o", "all.fb", "--junit", file}, spec.dir.path());
  ASSERT_EQ(m.exit, 0) << m.err;
  EXPECT_EQ(validateJUnit(file), "") << readFile(file);
  checkGolden("junit_merged", normalizeJUnit(readFile(file), spec), ".xml");
}

// A bundle without junit.xml (an older fbc's) cannot give the merged JUnit:
// an error naming it, after the merged bundle is written.
TEST(FbcJUnit, MergeOfABundleWithoutJUnitSaysWhich) {
  clearEngineVars();
  Spec spec("leaves");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "plain", "--bundle", "a.fb"},
                    spec.dir.path());
  ASSERT_EQ(r.exit, 0) << r.err;
  // The same bundle with junit.xml left out (as an older fbc wrote it).
  std::string cmd = "cd '" + spec.dir.path() +
                    "' && mkdir x && tar --zstd -xf a.fb -C x && rm x/junit.xml && "
                    "sed -i '/\"junit.xml\"/d' x/manifest.json && "
                    "tar --zstd -cf old.fb -C x $(tar --zstd -tf a.fb | grep -v junit.xml)";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  FbcRun m = runFbc({"merge", "old.fb", "-o", "all.fb", "--junit", "all.xml", "--allow-partial"},
                    spec.dir.path());
  EXPECT_EQ(m.exit, 1);
  EXPECT_TRUE(contains(m.err, "fbc merge: error: no JUnit XML written: bundle \"old.fb\" has no "
                              "junit.xml (an older fbc wrote it, or its JUnit XML was over the "
                              "entry limit)\n"))
      << m.err;
}

TEST(FbcJUnit, UnwritableFileIsAWarning) {
  clearEngineVars();
  Spec spec("faults");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--test", "happy_path",
                     "--junit", spec.dir.file("no/such/dir/junit.xml")},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0);
  EXPECT_EQ(substituteRunValues(r.err, spec),
            "fbc run: warning: no JUnit XML written: cannot write \"$DIR/no/such/dir/junit.xml\": "
            "No such file or directory\n");
}

// ---- the progress line (stderr on a terminal)

// Runs fbc with stderr on a pseudo-terminal (stdout to a file): what the
// terminal received, and stdout.
FbcRun runOnPty(const Spec &spec, const std::vector<std::string> &args) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  EXPECT_GE(master, 0);
  EXPECT_EQ(grantpt(master), 0);
  EXPECT_EQ(unlockpt(master), 0);
  int slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  EXPECT_GE(slave, 0);
  std::string outFile = spec.dir.file("pty.out");
  int out = open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  pid_t pid = spawnFbc(args, spec.dir.path(), out, slave);
  close(slave);
  close(out);
  FbcRun r;
  char buf[4096];
  for (;;) {
    ssize_t n = read(master, buf, sizeof buf);
    if (n <= 0)
      break; // EIO: every holder of the terminal's other end has exited
    r.err.append(buf, size_t(n));
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(outFile);
  return r;
}

TEST(FbcProgress, RedrawnInPlaceOnATerminalAndTheReportIsUnchanged) {
  clearEngineVars();
  unsetenv("CI");
  Spec spec("leaves");
  std::vector<std::string> args = {"run",    spec.path, "--seed",     "1",
                                   "--test", "choose",  "--no-bundle"};
  FbcRun tty = runOnPty(spec, args);
  EXPECT_EQ(tty.exit, 0) << tty.err;
  // Before the first row, after each, then erased at the end.
  EXPECT_TRUE(contains(
      tty.err, "\r[0/3 leaves] 0 passed 0 failed \u00b7 0:00 elapsed \u00b7 ~0:00 left\x1b[K"))
      << tty.err;
  for (const char *s :
       {"\r[1/3 leaves] 1 passed 0 failed \u00b7 ", "\r[2/3 leaves] 2 passed 0 failed \u00b7 ",
        "\r[3/3 leaves] 3 passed 0 failed \u00b7 "})
    EXPECT_TRUE(contains(tty.err, s)) << s << "\n" << tty.err;
  EXPECT_TRUE(tty.err.size() >= 4 && tty.err.compare(tty.err.size() - 4, 4, "\r\x1b[K") == 0)
      << tty.err;
  // The report on stdout is byte for byte the piped run's (timings aside).
  FbcRun piped = runFbc(args, spec.dir.path());
  EXPECT_EQ(piped.err.find("leaves]"), std::string::npos) << piped.err;
  EXPECT_EQ(normalize(tty.out, spec), normalize(piped.out, spec));
}

TEST(FbcProgress, NotWithCiTrue) {
  clearEngineVars();
  setenv("CI", "true", 1);
  Spec spec("leaves");
  FbcRun tty = runOnPty(spec, {"run", spec.path, "--seed", "1", "--test", "plain", "--no-bundle"});
  unsetenv("CI");
  EXPECT_EQ(tty.exit, 0);
  EXPECT_EQ(tty.err.find("leaves]"), std::string::npos) << tty.err;
  EXPECT_TRUE(contains(tty.out, "1 passed")) << tty.out;
}

// ---- engine examples (examples/ci/)

// The one `fbc run ...` line of an example file.
std::string exampleCommand(const std::string &file) {
  std::string text = readFile(std::string(FBC_EXAMPLES_CI) + "/" + file);
  size_t at = text.find("fbc run ");
  EXPECT_NE(at, std::string::npos) << file;
  if (at == std::string::npos)
    return "";
  return text.substr(at, text.find('\n', at) - at);
}

void replaceAll(std::string &s, const std::string &from, const std::string &to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
}

// Runs an example's command line with /bin/sh in the spec's folder: `fbc`
// is this build's binary, specs/checkout.star the e2e spec.
FbcRun runExample(const Spec &spec, std::string cmd,
                  const std::vector<std::pair<std::string, std::string>> &vars) {
  replaceAll(cmd, "fbc run specs/checkout.star", std::string(FBC_BINARY) + " run spec.star");
  cmd += " --format=json";
  for (const auto &[k, v] : vars)
    setenv(k.c_str(), v.c_str(), 1);
  std::string out = spec.dir.file("example.out"), err = spec.dir.file("example.err");
  std::string line = "cd '" + spec.dir.path() + "' && " + cmd + " >'" + out + "' 2>'" + err + "'";
  int status = std::system(line.c_str());
  clearEngineVars();
  FbcRun r;
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(out);
  r.err = readFile(err);
  return r;
}

std::vector<std::string> shardRows(const Spec &spec, int k, int n) {
  FbcRun r = runJson(spec, {"--shard", std::to_string(k) + "/" + std::to_string(n)});
  EXPECT_EQ(r.exit, 0) << r.err;
  return rows(r.out);
}

TEST(FbcShard, GitHubActionsMatrixExample) {
  clearEngineVars();
  Spec spec("leaves");
  std::string cmd = exampleCommand("github-actions.yml");
  replaceAll(cmd, "${{ matrix.shard }}", "3");
  FbcRun r = runExample(spec, cmd, {});
  ASSERT_EQ(r.exit, 0) << cmd << "\n" << r.err;
  EXPECT_EQ(rows(r.out), shardRows(spec, 3, 4));
  EXPECT_TRUE(contains(r.err, "fbc run: shard 3/4 (--shard 3/4): ")) << r.err;
  struct stat st;
  EXPECT_EQ(stat(spec.dir.file("shard-3.fb").c_str(), &st), 0) << "the example's bundle";
}

TEST(FbcShard, GitLabParallelExample) {
  clearEngineVars();
  Spec spec("leaves");
  std::string cmd = exampleCommand("gitlab-ci.yml");
  FbcRun r = runExample(spec, cmd, {{"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "4"}});
  ASSERT_EQ(r.exit, 0) << cmd << "\n" << r.err;
  EXPECT_EQ(rows(r.out), shardRows(spec, 2, 4));
  EXPECT_TRUE(contains(r.err, "fbc run: shard 2/4 (CI_NODE_INDEX=2 CI_NODE_TOTAL=4): ")) << r.err;
  struct stat st;
  EXPECT_EQ(stat(spec.dir.file("shard-2.fb").c_str(), &st), 0);
}

TEST(FbcShard, KubernetesIndexedJobExample) {
  clearEngineVars();
  Spec spec("leaves");
  std::string cmd = exampleCommand("k8s-indexed-job.yaml");
  replaceAll(cmd, "/results/", spec.dir.path() + "/");
  FbcRun r = runExample(spec, cmd, {{"JOB_COMPLETION_INDEX", "0"}});
  ASSERT_EQ(r.exit, 0) << cmd << "\n" << r.err;
  EXPECT_EQ(rows(r.out), shardRows(spec, 1, 4));
  EXPECT_TRUE(contains(r.err, "fbc run: shard 1/4 (JOB_COMPLETION_INDEX=0 --shard-count 4): "))
      << r.err;
  struct stat st;
  EXPECT_EQ(stat(spec.dir.file("shard-0.fb").c_str(), &st), 0);
}

TEST(FbcShard, BazelShardedTestExample) {
  clearEngineVars();
  Spec spec("leaves");
  std::string cmd = exampleCommand("bazel/fault_tests.sh");
  std::string status = spec.dir.file("shard.status"), xmlOut = spec.dir.file("test.xml");
  FbcRun r = runExample(spec, cmd,
                        {{"TEST_TOTAL_SHARDS", "4"},
                         {"TEST_SHARD_INDEX", "3"},
                         {"TEST_SHARD_STATUS_FILE", status},
                         {"XML_OUTPUT_FILE", xmlOut}});
  ASSERT_EQ(r.exit, 0) << cmd << "\n" << r.err;
  EXPECT_EQ(rows(r.out), shardRows(spec, 4, 4));
  EXPECT_TRUE(contains(r.err, "fbc run: shard 4/4 (TEST_SHARD_INDEX=3 TEST_TOTAL_SHARDS=4): "))
      << r.err;
  struct stat st;
  EXPECT_EQ(stat(status.c_str(), &st), 0) << "TEST_SHARD_STATUS_FILE was not touched";
  // XML_OUTPUT_FILE: the shard's rows as JUnit, one testcase per row.
  EXPECT_EQ(validateJUnit(xmlOut), "") << readFile(xmlOut);
  std::string xml = readFile(xmlOut);
  EXPECT_TRUE(contains(xml, "<property name=\"shard\" value=\"4/4\"/>")) << xml;
  EXPECT_EQ(allMatches(xml, R"((<testcase ))").size(), rows(r.out).size()) << xml;
  // A shard index out of range is an error, not a silent full run.
  r = runExample(spec, cmd, {{"TEST_TOTAL_SHARDS", "4"}, {"TEST_SHARD_INDEX", "4"}});
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.err, "fbc run: error: TEST_SHARD_INDEX=4 TEST_TOTAL_SHARDS=4: bad shard index "
                   "\"4\" (want 0 .. 3)\n");
}

} // namespace
} // namespace fbc::rt::e2e
