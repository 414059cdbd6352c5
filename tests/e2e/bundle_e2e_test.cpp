// The run bundle end to end (issue #12, docs/bundle.md), as `fbc run`
// against the fixture services writes it: same-seed bundles, -j 4, the
// manifest's rows and summary, leaf fields, the spec snapshot's data files,
// SIGINT, naming flags and plan.json. fbc merge, fbc inspect (with hostile
// bundles) and fbc replay are in bundle_{merge,inspect,replay}_e2e_test.cpp,
// their shared helpers in bundle_e2e_util.h. Every `fbc run` in the e2e
// suites also has its bundle listed with `tar --zstd -tf` and checked for the
// fixed entry order (fbc_run.cpp).

#include "bundle/archive.h"
#include "bundle/manifest.h"
#include "tests/e2e/bundle_e2e_util.h"
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <signal.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

// ------------------------------------------------------------ fbc run

// The bundles a.fb and b.fb of two runs of `spec` with `extraB` added to
// the second run's arguments: they differ only in the run's identity, start
// and timings.
void expectSameBundles(const std::string &name, const std::vector<std::string> &args,
                       const std::vector<std::string> &extraB) {
  Spec spec(name);
  std::vector<std::string> argsA = {"run", spec.path};
  argsA.insert(argsA.end(), args.begin(), args.end());
  std::vector<std::string> argsB = argsA;
  argsB.insert(argsB.end(), extraB.begin(), extraB.end());
  argsA.insert(argsA.end(), {"--bundle", "a.fb"});
  argsB.insert(argsB.end(), {"--bundle", "b.fb"});
  FbcRun a = runFbc(argsA, spec.dir.path());
  FbcRun b = runFbc(argsB, spec.dir.path());
  ASSERT_EQ(a.exit, b.exit) << a.err << b.err;
  bundle::Contents ca = readOk(spec.dir.file("a.fb")), cb = readOk(spec.dir.file("b.fb"));
  ASSERT_EQ(ca.entries.size(), cb.entries.size());
  for (size_t i = 0; i < ca.entries.size(); ++i) {
    const bundle::Entry &x = ca.entries[i], &y = cb.entries[i];
    ASSERT_EQ(x.name, y.name);
    EXPECT_EQ(x.mode, y.mode) << x.name;
    if (x.name == "replay.sh") // names its own bundle
      EXPECT_TRUE(contains(x.data, "'a.fb'") && contains(y.data, "'b.fb'"));
    else if (x.name == "manifest.json" || x.name == "trace.json" || x.name == "junit.xml")
      EXPECT_EQ(normalizeDigests(normalizeRunVarying(x.data)),
                normalizeDigests(normalizeRunVarying(y.data)))
          << x.name;
    else
      EXPECT_EQ(x.data, y.data) << x.name;
  }
  // The run id is new per run; created_at is the run's start.
  std::string ida, idb;
  ASSERT_TRUE(
      RE2::PartialMatch(entry(ca, "manifest.json"), R"re("run_id": "([0-9a-f]{32})")re", &ida));
  ASSERT_TRUE(
      RE2::PartialMatch(entry(cb, "manifest.json"), R"re("run_id": "([0-9a-f]{32})")re", &idb));
  EXPECT_NE(ida, idb);
}

TEST(FbcBundle, SameSeedGivesBundlesThatDifferOnlyInRunIdCreatedAtAndTimings) {
  expectSameBundles("ops", {"--seed", "5"}, {});
}

// fbc run -j 4: the bundle of one leaf at a time (rows, trace, each
// service's output test by test, in plan order).
TEST(FbcBundle, JobsFourGivesTheBundleOfOneLeafAtATime) {
  expectSameBundles("faults", {"--seed", "7"}, {"-j", "4"});
  expectSameBundles("leaves", {"--seed", "1", "--test", "~choose|wal|interleavings|plain"},
                    {"-j", "4"});
}

TEST(FbcBundle, ManifestOfAPlainRunHasNoLeafKeys) {
  Spec spec("faults");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "~happy|expected_failure"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.err;
  bundle::Contents c = readOk(bundleOf(r, spec.dir.path()));
  std::string m = entry(c, "manifest.json");
  EXPECT_FALSE(contains(m, "leaf_")) << m;
  std::string normalized = normalizeRunVarying(m);
  std::string dir = spec.dir.path();
  for (size_t p; (p = normalized.find(dir)) != std::string::npos;)
    normalized.replace(p, dir.size(), "$DIR");
  // The digests cover host- and run-specific bytes (env.json, ports in the
  // spec and the service output); readBundle() above checked every one.
  RE2::GlobalReplace(&normalized, R"(sha256:[0-9a-f]{64})", "sha256:D");
  checkGolden("bundle_faults_manifest", normalized, ".json");
  // Each service's output, test by test, under a header naming the test.
  std::string kv = entry(c, "services/kv.stderr");
  EXPECT_TRUE(contains(kv, "==> test_expected_failure <==\nkv_store: listening on 127.0.0.1:" +
                               std::to_string(spec.kvPort)))
      << kv;
  EXPECT_TRUE(contains(kv, "==> test_happy_path <==\n")) << kv;
  EXPECT_EQ(entry(c, "spec/spec.star"), readFile(spec.dir.file("spec.star")));
}

// The data files load_json()/load_file() read are in spec/ with the bytes
// the spec read, where the snapshot's spec finds them: a replay passes.
TEST(FbcBundle, DataFilesAreInTheSpecSnapshot) {
  Spec spec("data_files");
  ASSERT_EQ(::mkdir(spec.dir.file("data").c_str(), 0755), 0);
  writeFile(spec.dir.file("data/cfg.json"), "{\"retries\": 3}\n");
  writeFile(spec.dir.file("greeting.txt"), "hello\n");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "a.fb"}, spec.dir.path());
  ASSERT_EQ(r.exit, 0) << r.err;
  bundle::Contents c = readOk(spec.dir.file("a.fb"));
  EXPECT_EQ(entry(c, "spec/data/cfg.json"), "{\"retries\": 3}\n");
  EXPECT_EQ(entry(c, "spec/greeting.txt"), "hello\n");
  // The replay runs in a fresh folder: only the snapshot has the files.
  writeFile(spec.dir.file("data/cfg.json"), "{\"retries\": 4}\n");
  FbcRun re = runFbc({"replay", "a.fb", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(re.exit, 0) << re.err;
  EXPECT_TRUE(contains(re.err, "(3 spec files in ")) << re.err;
}

// The summary counts the verdicts inside passed and failed: the bypass spec
// has 9 rows, 6 passed of which 3 fault_bypassed (their faults never
// fired), 3 failed (none an expectation_violated or determinism one).
TEST(FbcBundle, SummaryCountsFaultBypassedRows) {
  Spec spec("bypass");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "run.fb"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.err;
  bundle::Contents c = readOk(spec.dir.file("run.fb"));
  std::string m = entry(c, "manifest.json");
  EXPECT_TRUE(contains(m, "  \"summary\": {\n    \"total\": 9,\n    \"passed\": 6,\n"
                          "    \"failed\": 3,\n    \"errored\": 0,\n    \"inconclusive\": 0,\n"
                          "    \"halted\": 0,\n    \"expectation_violated\": 0,\n"
                          "    \"fault_bypassed\": 3,\n    \"strict_determinism_violation\": 0,\n"
                          "    \"not_run\": 0\n  },\n"))
      << m;
  FbcRun text = runFbc({"inspect", "run.fb"}, spec.dir.path());
  EXPECT_EQ(text.exit, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "\nTests: 9 total, 6 passed (3 fault_bypassed), 3 failed, 0 "
                                 "errored, 0 inconclusive, 0 halted\n"))
      << text.out;
}

TEST(FbcBundle, LeavesHaveOneManifestRowEachAndTraceEntriesCarryTheLeafFields) {
  Spec spec("leaves");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "~choose|wal|interleavings|plain"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  bundle::Contents c = readOk(bundleOf(r, spec.dir.path()));
  llvm::Expected<bundle::Manifest> m = bundle::parseManifest(entry(c, "manifest.json"));
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  std::string rows;
  for (const bundle::TestRow &t : m->tests)
    rows += t.displayName() + " " + t.outcome + "\n";
  checkGolden("bundle_leaves_rows", rows);

  // trace.json's tests are the manifest's rows, leaf fields included.
  simdjson::dom::parser pm, pt;
  std::string mj = entry(c, "manifest.json"), tj = entry(c, "trace.json");
  simdjson::dom::element man = pm.parse(mj), trace = pt.parse(tj);
  simdjson::dom::array mrows = man["tests"], trows = trace["tests"];
  ASSERT_EQ(mrows.size(), trows.size());
  ASSERT_EQ(mrows.size(), m->tests.size());
  size_t leaves = 0;
  for (size_t i = 0; i < mrows.size(); ++i) {
    simdjson::dom::element mr = mrows.at(i), tr = trows.at(i);
    EXPECT_EQ(std::string_view(mr["name"]), std::string_view(tr["name"]));
    for (const char *k :
         {"leaf_id", "leaf_choices", "leaf_probability_outcomes", "leaf_interleavings"}) {
      simdjson::dom::element a, b;
      bool inManifest = !mr[k].get(a), inTrace = !tr[k].get(b);
      EXPECT_EQ(inManifest, inTrace) << i << " " << k;
      if (inManifest && inTrace) {
        EXPECT_EQ(simdjson::minify(a), simdjson::minify(b)) << i << " " << k;
      }
    }
    leaves += !mr["leaf_id"].error();
  }
  EXPECT_EQ(leaves, 3u + 4u + 6u);
}

TEST(FbcBundle, SigintStillWritesABundleWithTheFinishedTests) {
  Spec spec("sigint");
  FbcRun r = runInterrupted(spec, SIGINT);
  EXPECT_EQ(r.exit, 130) << r.out << r.err;
  bundle::Contents c = readOk(bundleOf(r, spec.dir.path()));
  llvm::Expected<bundle::Manifest> m = bundle::parseManifest(entry(c, "manifest.json"));
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_TRUE(m->interrupted);
  ASSERT_EQ(m->tests.size(), 1u);
  EXPECT_EQ(m->tests[0].name, "test_0_quick");
  EXPECT_EQ(m->tests[0].outcome, "passed");
  EXPECT_EQ(m->summary.notRun, 4u); // leaves: test_a_long and test_b_never's three
  EXPECT_TRUE(contains(entry(c, "manifest.json"), "\"interrupted\": true,"));
  EXPECT_TRUE(contains(entry(c, "manifest.json"), "\"not_run\": 4\n"));
  EXPECT_TRUE(contains(entry(c, "trace.json"), "\"interrupted\": true"));
  // No temporary file is left next to it.
  std::string ls;
  FILE *p = popen(("ls -A '" + spec.dir.path() + "'").c_str(), "r");
  char buf[512];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
    ls.append(buf, n);
  pclose(p);
  EXPECT_FALSE(contains(ls, ".tmp-")) << ls;
}

TEST(FbcBundle, NamingFlagsAndEnvironment) {
  Spec spec("ops");
  // Default: run-<UTC start>-<seed>.fb in the cwd.
  FbcRun r = runFbc({"run", spec.path, "--seed", "42", "--test", "~op_path"}, spec.dir.path());
  std::string name;
  EXPECT_TRUE(RE2::PartialMatch(
      r.err, R"((?m)^Bundle: (run-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-42\.fb)$)", &name))
      << r.err;
  EXPECT_TRUE(exists(spec.dir.file(name))) << name;
  // The name's time is created_at.
  bundle::Contents c = readOk(spec.dir.file(name));
  std::string stamp = name.substr(4, 19), created;
  ASSERT_TRUE(
      RE2::PartialMatch(entry(c, "manifest.json"), R"re("created_at": "([^"]*)")re", &created));
  std::string expected = stamp;
  expected[13] = ':';
  expected[16] = ':';
  EXPECT_EQ(created, expected + "Z");
  EXPECT_TRUE(contains(entry(c, "replay.sh"), "replay \"$DIR\"/'" + name + "' \"$@\"\n"));

  // FBC_BUNDLE_DIR: the folder (made if missing).
  setenv("FBC_BUNDLE_DIR", "out/nested", 1);
  FbcRun d = runFbc({"run", spec.path, "--seed", "42", "--test", "~op_path"}, spec.dir.path());
  unsetenv("FBC_BUNDLE_DIR");
  EXPECT_TRUE(RE2::PartialMatch(d.err, R"((?m)^Bundle: out/nested/run-[0-9T-]+-42\.fb$)")) << d.err;

  // --no-bundle: none; --no-plan: no plan.json (the listing check in
  // fbc_run_util.cpp expects its absence).
  FbcRun none =
      runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--bundle", "x.fb"}, spec.dir.path());
  EXPECT_EQ(none.exit, 1);
  EXPECT_TRUE(contains(none.err, "fbc run: error: --bundle and --no-bundle contradict each other"));
  FbcRun off = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_FALSE(contains(off.err, "Bundle:")) << off.err;
  FbcRun noPlan =
      runFbc({"run", spec.path, "--seed", "1", "--no-plan", "--bundle", "np.fb"}, spec.dir.path());
  EXPECT_EQ(readOk(spec.dir.file("np.fb")).find("plan.json"), nullptr);

  // A bundle that cannot be written: a warning, the same exit code.
  FbcRun bad =
      runFbc({"run", spec.path, "--seed", "1", "--bundle", "no/such/dir/x.fb"}, spec.dir.path());
  EXPECT_EQ(bad.exit, off.exit) << bad.err;
  EXPECT_TRUE(contains(bad.err, "fbc run: warning: no bundle written: cannot write "
                                "\"no/such/dir/x.fb\": No such file or directory\n"))
      << bad.err;

  // A spec that does not load writes none.
  writeFile(spec.dir.file("broken.star"), "def test_x(:\n");
  FbcRun broken = runFbc({"run", "broken.star"}, spec.dir.path());
  EXPECT_EQ(broken.exit, 1);
  EXPECT_FALSE(contains(broken.err, "Bundle:")) << broken.err;
}

TEST(FbcBundle, PlanJsonIsThePlanCommandsOutput) {
  Spec spec("leaves");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "choose"}, spec.dir.path());
  FbcRun plan = runFbc({"plan", spec.path, "--format=json", "--coverage"}, spec.dir.path());
  ASSERT_EQ(plan.exit, 0) << plan.err;
  EXPECT_EQ(entry(readOk(bundleOf(r, spec.dir.path())), "plan.json"), plan.out);
}

} // namespace
} // namespace fbc::rt::e2e
