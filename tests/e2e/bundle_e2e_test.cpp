// The run bundle end to end (issue #12, docs/bundle.md): `fbc run` against
// the fixture services writes it, `fbc inspect` reads it (and the reference
// tool's legacy tar.gz layout), `fbc replay` re-runs it, and hostile bundles
// are refused without a write outside the extraction folder. Every `fbc run`
// in the e2e suites also has its bundle listed with `tar --zstd -tf` and
// checked for the fixed entry order (fbc_run_util.cpp).
#include "bundle/archive.h"
#include "bundle/integrity.h"
#include "bundle/manifest.h"
#include "tests/e2e/fbc_run.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

bool exists(const std::string &path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The path after "Bundle: " on stderr, relative to `cwd`.
std::string bundleOf(const FbcRun &r, const std::string &cwd) {
  std::string path;
  EXPECT_TRUE(RE2::PartialMatch(r.err, R"((?m)^Bundle: (.*)$)", &path)) << r.err;
  return path.empty() || path.front() == '/' ? path : cwd + "/" + path;
}

bundle::Contents readOk(const std::string &path) {
  llvm::Expected<bundle::Contents> c = bundle::readBundle(path);
  if (!c) {
    ADD_FAILURE() << llvm::toString(c.takeError());
    return {};
  }
  return std::move(*c);
}

std::string entry(const bundle::Contents &c, const std::string &name) {
  const bundle::Entry *e = c.find(name);
  EXPECT_NE(e, nullptr) << name;
  return e ? e->data : "";
}

// What may differ between two runs of one spec with one seed: the run's
// identity and start, timings (durations, timestamps, measured latencies)
// and the service processes' pids (the kernel's choice). Nothing else is
// normalised.
std::string normalizeRunVarying(std::string s) {
  RE2::GlobalReplace(&s, R"("run_id": "[0-9a-f]{32}")", R"("run_id": "R")");
  RE2::GlobalReplace(&s, R"("created_at": "[^"]*")", R"("created_at": "T")");
  RE2::GlobalReplace(&s, R"("timestamp": "[^"]*")", R"("timestamp": "T")");
  RE2::GlobalReplace(&s, R"("duration_ms": \d+)", R"("duration_ms": N)");
  RE2::GlobalReplace(&s, R"re("(duration_ms|latency_us|pid)": "\d+")re", R"re("\1": "N")re");
  // junit.xml: times, and a delayed call's measured latency in system-out.
  RE2::GlobalReplace(&s, R"( time="\d+\.\d+")", R"( time="N")");
  RE2::GlobalReplace(&s, R"(\(\+\d+ms\))", "(+Nms)");
  return s;
}

// manifest.json's digests of the entries that differ: trace.json and
// junit.xml (timings) and replay.sh (it names its own bundle).
std::string normalizeDigests(std::string s) {
  RE2::GlobalReplace(&s, R"re("(trace\.json|junit\.xml|replay\.sh)": "sha256:[0-9a-f]{64}")re",
                     R"re("\1": "sha256:D")re");
  return s;
}

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

// ------------------------------------------------------------ fbc merge

// `fbc run SPEC ARGS --shard k/n` for k = 1..n into s<k>.fb; stderr of each.
void runShards(const Spec &spec, const std::vector<std::string> &args, int n) {
  for (int k = 1; k <= n; ++k) {
    std::vector<std::string> a = {"run", spec.path};
    a.insert(a.end(), args.begin(), args.end());
    // (Appended piecewise: GCC 12's -Wrestrict misfires on "s" + to_string.)
    std::string shard = std::to_string(k);
    shard += '/';
    shard += std::to_string(n);
    std::string file = "s";
    file += std::to_string(k);
    file += ".fb";
    a.insert(a.end(), {"--shard", shard, "--bundle", file});
    FbcRun r = runFbc(a, spec.dir.path());
    EXPECT_NE(r.exit, 1) << r.err;
  }
}

// The bundle `fbc merge` makes of the 3 shards of `spec` equals the bundle
// of the unsharded run, entry by entry, with timings, the run's identity
// and the manifest's merge record normalised; that record names the shards
// and no leaf left out.
void expectMergeEqualsUnsharded(const std::string &name, const std::vector<std::string> &args,
                                int exitCode) {
  Spec spec(name);
  std::vector<std::string> full = {"run", spec.path};
  full.insert(full.end(), args.begin(), args.end());
  full.insert(full.end(), {"--bundle", "full.fb"});
  FbcRun all = runFbc(full, spec.dir.path());
  ASSERT_EQ(all.exit, exitCode) << all.err;
  runShards(spec, args, 3);
  FbcRun m = runFbc({"merge", "s3.fb", "s1.fb", "s2.fb", "-o", "all.fb", "--junit", "all.xml"},
                    spec.dir.path());
  ASSERT_EQ(m.exit, 0) << m.err;
  // --junit writes the merged bundle's junit.xml.
  EXPECT_EQ(readFile(spec.dir.file("all.xml")),
            entry(readOk(spec.dir.file("all.fb")), "junit.xml"));
  bundle::Contents want = readOk(spec.dir.file("full.fb"));
  bundle::Contents got = readOk(spec.dir.file("all.fb"));
  std::size_t rows = 0;
  std::string manifest = entry(want, "manifest.json");
  for (size_t at = 0; (at = manifest.find("\"outcome\": ", at)) != std::string::npos; ++at)
    ++rows;
  EXPECT_EQ(m.err, "Merged 3 bundles: " + std::to_string(rows) +
                       " rows, 0 leaves of the plan not run\nBundle: all.fb\n");
  ASSERT_EQ(want.entries.size(), got.entries.size());
  for (size_t i = 0; i < want.entries.size(); ++i) {
    const bundle::Entry &x = want.entries[i], &y = got.entries[i];
    ASSERT_EQ(x.name, y.name);
    EXPECT_EQ(x.mode, y.mode) << x.name;
    if (x.name == "replay.sh") {
      EXPECT_TRUE(contains(x.data, "'full.fb'") && contains(y.data, "'all.fb'"));
    } else if (x.name == "manifest.json") {
      std::string merged = normalizeRunVarying(y.data);
      std::string record = "  \"merged_from\": [\n"
                           "    {\n      \"bundle\": \"s3.fb\",\n      \"run_id\": \"R\"\n    },\n"
                           "    {\n      \"bundle\": \"s1.fb\",\n      \"run_id\": \"R\"\n    },\n"
                           "    {\n      \"bundle\": \"s2.fb\",\n      \"run_id\": \"R\"\n    }\n"
                           "  ],\n  \"not_run_leaves\": [],\n";
      size_t at = merged.find(record);
      ASSERT_NE(at, std::string::npos) << merged;
      merged.erase(at, record.size());
      EXPECT_EQ(normalizeDigests(normalizeRunVarying(x.data)), normalizeDigests(merged));
    } else if (x.name == "trace.json") {
      EXPECT_EQ(normalizeRunVarying(x.data), normalizeRunVarying(y.data));
    } else if (x.name == "junit.xml") {
      // The unsharded run's testcases, in its order, counted alike; the
      // suite names the bundles it came from.
      std::string merged = normalizeRunVarying(y.data);
      std::string record = "      <property name=\"merged_from\" value=\"s3.fb\"/>\n"
                           "      <property name=\"merged_from\" value=\"s1.fb\"/>\n"
                           "      <property name=\"merged_from\" value=\"s2.fb\"/>\n";
      size_t at = merged.find(record);
      ASSERT_NE(at, std::string::npos) << merged;
      merged.erase(at, record.size());
      EXPECT_EQ(normalizeRunVarying(x.data), merged);
    } else {
      EXPECT_EQ(x.data, y.data) << x.name;
    }
  }
  FbcRun inspect = runFbc({"inspect", "all.fb"}, spec.dir.path());
  EXPECT_EQ(inspect.exit, 0) << inspect.err;
}

TEST(FbcMerge, ThreeShardsMergeIntoTheUnshardedRunsBundle) {
  // 44 leaves of 7 tests (choose, probability, interleavings, an axis sized
  // at run time); a fault matrix whose cells the shards share out.
  expectMergeEqualsUnsharded("leaves", {"--seed", "1"}, 0);
  expectMergeEqualsUnsharded("matrix", {"--seed", "3"}, 2);
}

TEST(FbcMerge, NamesTheLeavesNoShardRan) {
  Spec spec("leaves");
  runShards(spec, {"--seed", "1"}, 3);
  // Shard 2's rows, in plan order, are what is missing.
  llvm::Expected<bundle::Manifest> two =
      bundle::parseManifest(entry(readOk(spec.dir.file("s2.fb")), "manifest.json"));
  ASSERT_TRUE(bool(two)) << llvm::toString(two.takeError());
  std::string want, list;
  for (const bundle::TestRow &r : two->tests) {
    // test_computed is sized at run time: it would be named as one unit.
    ASSERT_NE(r.name, "test_computed") << "the split changed: shard 2 runs test_computed";
    want += "not run by any shard: " + r.displayName() + "\n";
    if (!list.empty())
      list += ",\n";
    list += "    \"";
    list += r.displayName();
    list += '"';
  }
  ASSERT_FALSE(two->tests.empty());
  size_t missing = std::count(want.begin(), want.end(), '\n');
  std::string merged = want + "Merged 2 bundles: " + std::to_string(44 - two->tests.size()) +
                       " rows, " + std::to_string(missing) + " leaves of the plan not run\n";
  // A partial merge is written and fails (a shard that never uploaded must
  // not pass in CI, issue #32); --allow-partial accepts it.
  FbcRun failed = runFbc({"merge", "s1.fb", "s3.fb", "-o", "failed.fb"}, spec.dir.path());
  EXPECT_EQ(failed.exit, 1) << failed.err;
  EXPECT_EQ(failed.err, merged +
                            "Bundle: failed.fb\nfbc merge: error: the merged run is partial: " +
                            std::to_string(missing) +
                            " leaves of the plan not run by any shard (--allow-partial accepts "
                            "that)\n");
  EXPECT_TRUE(exists(spec.dir.file("failed.fb")));
  FbcRun m =
      runFbc({"merge", "s1.fb", "s3.fb", "-o", "part.fb", "--allow-partial"}, spec.dir.path());
  ASSERT_EQ(m.exit, 0) << m.err;
  EXPECT_EQ(m.err, merged + "Bundle: part.fb\n");
  std::string manifest = entry(readOk(spec.dir.file("part.fb")), "manifest.json");
  EXPECT_TRUE(contains(manifest, "\"not_run_leaves\": [\n" + list + "\n  ]")) << manifest;
  FbcRun inspect = runFbc({"inspect", "part.fb"}, spec.dir.path());
  ASSERT_EQ(inspect.exit, 0) << inspect.err;
  std::string listed =
      "\nMerged from 2 bundles: s1.fb s3.fb\nNot run by any shard: " + std::to_string(missing) +
      "\n";
  for (const bundle::TestRow &r : two->tests)
    listed += "  " + r.displayName() + "\n";
  EXPECT_TRUE(contains(inspect.out, listed + "\nFiles:\n")) << inspect.out;
}

TEST(FbcMerge, BundlesOfDifferentRunsAreRefused) {
  Spec spec("faults");
  for (const char *seed : {"1", "2"})
    runFbc({"run", spec.path, "--seed", seed, "--test", "~happy", "--bundle",
            std::string("seed") + seed + ".fb"},
           spec.dir.path());
  FbcRun seeds = runFbc({"merge", "seed1.fb", "seed2.fb", "-o", "x.fb"}, spec.dir.path());
  EXPECT_EQ(seeds.exit, 1);
  EXPECT_EQ(seeds.err, "fbc merge: error: bundles \"seed1.fb\" and \"seed2.fb\" ran with "
                       "different seeds (1, 2): run every shard with the same --seed\n");
  // A shard that failed bypassed faults and one that passed them: their
  // rows are not judged alike.
  runFbc({"run", spec.path, "--seed", "1", "--test", "~happy", "--require-faults-fire", "--bundle",
          "required.fb"},
         spec.dir.path());
  FbcRun judged = runFbc({"merge", "seed1.fb", "required.fb", "-o", "x.fb"}, spec.dir.path());
  EXPECT_EQ(judged.exit, 1);
  EXPECT_EQ(judged.err, "fbc merge: error: bundles \"seed1.fb\" and \"required.fb\" judged "
                        "bypassed faults differently (one ran with --require-faults-fire): run "
                        "every shard with the same flags\n");
  FbcRun twice = runFbc({"merge", "seed1.fb", "seed1.fb", "-o", "x.fb"}, spec.dir.path());
  EXPECT_EQ(twice.exit, 1);
  EXPECT_TRUE(RE2::FullMatch(twice.err, R"(fbc merge: error: "test_\w+" is in both "seed1.fb" )"
                                        R"(and "seed1.fb"\n)"))
      << twice.err;
  FbcRun missing = runFbc({"merge", "nope.fb", "-o", "x.fb"}, spec.dir.path());
  EXPECT_EQ(missing.exit, 1);
  EXPECT_TRUE(missing.err.starts_with("fbc merge: error: ")) << missing.err;
  EXPECT_FALSE(exists(spec.dir.file("x.fb")));
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

// ------------------------------------------------------------ fbc inspect

// A bundle as the reference tool writes it (tar.gz, no plan.json, manifest
// without a trailing newline, faultbox_version, leaf rows with leaf_* maps).
std::string legacyBundle() {
  std::vector<bundle::Entry> e = {
      {"manifest.json",
       R"({
  "schema_version": 1,
  "faultbox_version": "0.18.1",
  "run_id": "0123456789abcdef0123456789abcdef",
  "created_at": "2026-04-22T15:03:11Z",
  "seed": 42,
  "spec_root": "faultbox/spec.star",
  "tests": [
    {
      "name": "test_ok",
      "outcome": "passed",
      "duration_ms": 5,
      "seed": 42
    },
    {
      "name": "test_retry",
      "outcome": "failed",
      "duration_ms": 7,
      "seed": 42,
      "leaf_id": "1",
      "leaf_choices": {
        "retries": 1
      },
      "leaf_probability_outcomes": {
        "wal": [true, false]
      }
    }
  ],
  "summary": {
    "total": 2,
    "passed": 1,
    "failed": 1,
    "errored": 0
  }
})",
       0644},
      {"env.json",
       R"({"faultbox_version": "0.18.1", "host_os": "linux", "host_arch": "amd64", "kernel": "6.1.0", "go_toolchain": "go1.26.1"})",
       0644},
      {"trace.json", "{\"version\": 2, \"tests\": []}\n", 0644},
      {"replay.sh",
       "#!/usr/bin/env sh\nset -eu\nDIR=\"$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && "
       "pwd)\"\nexec faultbox replay \"$DIR/run-2026-04-22T15-03-11-42.fb\" \"$@\"\n",
       0755},
      {"spec/spec.star", "def test_ok():\n    pass\n", 0644},
  };
  llvm::Expected<std::string> bytes = bundle::encodeArchive(e, {bundle::Compression::Gzip, 6});
  EXPECT_TRUE(bool(bytes));
  return bytes ? *bytes : "";
}

TEST(FbcInspect, LegacyGzipBundleInspectsWithNoPlanData) {
  TempDir dir;
  writeFile(dir.file("old.fb"), legacyBundle());
  ASSERT_EQ(legacyBundle().substr(0, 2), "\x1f\x8b"); // gzip
  FbcRun text = runFbc({"inspect", "old.fb"}, dir.path());
  EXPECT_EQ(text.exit, 0) << text.err;
  checkGolden("inspect_legacy", text.out);
  FbcRun json = runFbc({"inspect", "old.fb", "--format=json"}, dir.path());
  EXPECT_EQ(json.exit, 0) << json.err;
  checkGolden("inspect_legacy", json.out, ".json");
  FbcRun one = runFbc({"inspect", "old.fb", "spec/spec.star"}, dir.path());
  EXPECT_EQ(one.out, "def test_ok():\n    pass\n");
  FbcRun missing = runFbc({"inspect", "old.fb", "plan.json"}, dir.path());
  EXPECT_EQ(missing.exit, 1);
  EXPECT_EQ(missing.err, "fbc inspect: error: bundle \"old.fb\" has no entry \"plan.json\" "
                         "(entries: manifest.json, env.json, trace.json, replay.sh, "
                         "spec/spec.star)\n");
  FbcRun ex = runFbc({"inspect", "old.fb", "--extract", "x"}, dir.path());
  EXPECT_EQ(ex.exit, 0) << ex.err;
  EXPECT_EQ(ex.err, "Extracted 5 files to x\n");
  EXPECT_EQ(readFile(dir.file("x/spec/spec.star")), "def test_ok():\n    pass\n");
  struct stat st {};
  ASSERT_EQ(stat(dir.file("x/replay.sh").c_str(), &st), 0);
  EXPECT_TRUE(st.st_mode & S_IXUSR);
}

TEST(FbcInspect, RealBundleSummary) {
  Spec spec("faults");
  FbcRun r = runFbc(
      {"run", spec.path, "--seed", "1", "--test", "~happy|expected_failure", "--bundle", "run.fb"},
      spec.dir.path());
  FbcRun text = runFbc({"inspect", "run.fb"}, spec.dir.path());
  EXPECT_EQ(text.exit, 0) << text.err;
  std::string s = text.out;
  RE2::GlobalReplace(&s, R"((?m)^(Produced by:  fbc )\S+ \(\S+\)$)", R"(\1V (C))");
  RE2::GlobalReplace(&s, R"((?m)^(Run ID:       )[0-9a-f]{32}$)", R"(\1R)");
  RE2::GlobalReplace(&s, R"((?m)^(Created:      ).*$)", R"(\1T)");
  RE2::GlobalReplace(&s, R"((?m)^(Host:         ).*$)", R"(\1H)");
  RE2::GlobalReplace(&s, R"(\(\d+ms\))", "(Nms)");
  RE2::GlobalReplace(
      &s, R"((?m)^(  (trace\.json|junit\.xml|services/\S+|manifest\.json|env\.json) +)\d+ bytes$)",
      R"(\1N bytes)");
  // The snapshot holds the spec as run, whose fixture paths are as long as the
  // checkout's path: its size is the prepared spec's own, then masked.
  std::string snapshot = "  spec/spec.star       " +
                         std::to_string(readFile(spec.dir.file("spec.star")).size()) + " bytes\n";
  EXPECT_NE(s.find(snapshot), std::string::npos) << s;
  RE2::GlobalReplace(&s, R"((?m)^(  spec/spec\.star +)\d+ bytes$)", R"(\1N bytes)");
  checkGolden("inspect_faults", s);
}

// ------------------------------------------------------------ hostile bundles

struct Raw {
  std::string name;
  std::string data = {};
  mode_t type = AE_IFREG;
  std::string link = {};
  bool hardlink = false;
  int64_t size = -1; // claimed size (-1: data's)
};

la_ssize_t appendCb(archive *, void *client, const void *buf, size_t n) {
  static_cast<std::string *>(client)->append(static_cast<const char *>(buf), n);
  return la_ssize_t(n);
}

// An archive with exactly these entries, unchecked: what an attacker writes.
std::string rawBundle(const std::vector<Raw> &entries) {
  archive *a = archive_write_new();
  archive_write_add_filter_zstd(a);
  archive_write_set_format_pax_restricted(a);
  archive_write_set_bytes_in_last_block(a, 1);
  std::string out;
  archive_write_open2(a, &out, nullptr, appendCb, nullptr, nullptr);
  for (const Raw &r : entries) {
    archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, r.name.c_str());
    archive_entry_set_filetype(e, r.type);
    archive_entry_set_perm(e, 0644);
    if (!r.link.empty()) {
      if (r.hardlink)
        archive_entry_set_hardlink(e, r.link.c_str());
      else
        archive_entry_set_symlink(e, r.link.c_str());
    }
    archive_entry_set_size(e, r.size >= 0 ? r.size : la_int64_t(r.data.size()));
    archive_write_header(a, e);
    if (!r.data.empty())
      archive_write_data(a, r.data.data(), r.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

// `fbc inspect`, `fbc inspect --extract` and `fbc replay` all refuse it with
// `message`, and nothing is written anywhere but into the scratch folder's
// (empty) extraction folder.
// `extract`: false for a well-formed archive that is not a run bundle (no
// or an unreadable manifest): its entries can still be extracted.
void expectRefused(const std::string &bytes, const std::string &message, bool extract = true) {
  TempDir dir;
  writeFile(dir.file("bad.fb"), bytes);
  std::string want = "error: " + message + "\n";
  if (extract) {
    FbcRun ex = runFbc({"inspect", "bad.fb", "--extract", "out/x"}, dir.path());
    EXPECT_EQ(ex.exit, 1);
    EXPECT_EQ(ex.err, "fbc inspect: " + want);
  }
  FbcRun sum = runFbc({"inspect", "bad.fb"}, dir.path());
  EXPECT_EQ(sum.exit, 1);
  EXPECT_EQ(sum.err, "fbc inspect: " + want);
  FbcRun rep = runFbc({"replay", "bad.fb", "--no-bundle"}, dir.path());
  EXPECT_EQ(rep.exit, 1);
  EXPECT_EQ(rep.err, "fbc replay: " + want);
  std::string ls;
  FILE *p = popen(("cd '" + dir.path() + "' && find . | sort").c_str(), "r");
  char buf[512];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
    ls.append(buf, n);
  pclose(p);
  EXPECT_EQ(ls, ".\n./bad.fb\n") << message;
  EXPECT_FALSE(exists("/tmp/escape.txt"));
}

TEST(FbcInspect, HostileBundlesAreRefused) {
  std::string m = R"({"schema_version": 1, "tests": []})";
  expectRefused(rawBundle({{"manifest.json", m}, {"../escape.txt", "x"}}),
                "bundle \"bad.fb\": entry \"../escape.txt\": \"..\" component (a bundle entry "
                "may not leave its folder)");
  expectRefused(rawBundle({{"manifest.json", m}, {"spec/../../escape.txt", "x"}}),
                "bundle \"bad.fb\": entry \"spec/../../escape.txt\": \"..\" component (a bundle "
                "entry may not leave its folder)");
  expectRefused(rawBundle({{"/tmp/escape.txt", "x"}, {"manifest.json", m}}),
                "bundle \"bad.fb\": entry \"/tmp/escape.txt\": absolute path (a bundle entry "
                "must be relative)");
  expectRefused(rawBundle({{"manifest.json", m}, {"spec", "", AE_IFLNK, "/tmp"}}),
                "bundle \"bad.fb\": entry \"spec\" is a symbolic link (a bundle holds only "
                "regular files)");
  expectRefused(
      rawBundle({{"manifest.json", m}, {"env.json", "", AE_IFREG, "manifest.json", true}}),
      "bundle \"bad.fb\": entry \"env.json\" is a hard link to \"manifest.json\" (a "
      "bundle holds only regular files)");
  expectRefused(rawBundle({{"manifest.json", m}, {"null", "", AE_IFCHR}}),
                "bundle \"bad.fb\": entry \"null\" is a character device (a bundle holds only "
                "regular files)");
  expectRefused(rawBundle({{"manifest.json", m}, {"disk", "", AE_IFBLK}}),
                "bundle \"bad.fb\": entry \"disk\" is a block device (a bundle holds only regular "
                "files)");
  expectRefused(rawBundle({{"manifest.json", m}, {"manifest.json", m}}),
                "bundle \"bad.fb\": entry \"manifest.json\" appears twice");
  // 300 MiB of zeros (a few kB compressed) against the 256 MiB entry limit.
  expectRefused(
      rawBundle({{"manifest.json", m}, {"trace.json", "", AE_IFREG, "", false, 300 << 20}}),
      "bundle \"bad.fb\": entry \"trace.json\" is larger than the limit of 268435456 "
      "bytes");
  // Incompressible data, so half the file ends inside the entry.
  std::string noise;
  for (uint32_t x = 1; noise.size() < 1000000;) {
    x = x * 1103515245u + 12345u;
    noise += static_cast<char>(x >> 23);
  }
  std::string good = rawBundle({{"manifest.json", m}, {"spec/x.star", noise}});
  expectRefused(good.substr(0, good.size() / 2),
                "bundle \"bad.fb\": entry \"spec/x.star\": corrupted or truncated archive: "
                "Truncated zstd input");
  // A byte flipped in a bundle fbc wrote: a zstd error or, inside an
  // entry's data, the SHA-256 manifest.json lists.
  {
    Spec spec("ops");
    FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "ok.fb"}, spec.dir.path());
    std::string bytes = readFile(spec.dir.file("ok.fb"));
    for (size_t at : {bytes.size() / 3, bytes.size() / 2, bytes.size() * 3 / 4}) {
      std::string flipped = bytes;
      flipped[at] ^= 0x5a;
      writeFile(spec.dir.file("bad.fb"), flipped);
      FbcRun bad = runFbc({"inspect", "bad.fb", "--extract", "out"}, spec.dir.path());
      EXPECT_EQ(bad.exit, 1) << at;
      EXPECT_TRUE(RE2::FullMatch(bad.err, R"(fbc inspect: error: bundle "bad.fb": .*\n)"))
          << bad.err;
      EXPECT_FALSE(exists(spec.dir.file("out"))) << at;
    }
  }
  expectRefused("", "bundle \"bad.fb\": not a bundle: empty file");
  expectRefused("just some text, not an archive at all\n",
                "bundle \"bad.fb\": not a bundle: Unrecognized archive format");
  expectRefused(rawBundle({{"spec/x.star", "x"}}),
                "bundle \"bad.fb\" has no manifest.json (not a run bundle?)", false);
  expectRefused(rawBundle({{"manifest.json", R"({"schema_version": 2})"}}),
                "bundle \"bad.fb\": manifest.json: schema_version 2 is not one this fbc reads (it "
                "reads 1)",
                false);
}

TEST(FbcInspect, ExtractionNeverFollowsLinksAlreadyInTheFolder) {
  TempDir dir;
  writeFile(dir.file("ok.fb"), legacyBundle());
  mkdir(dir.file("outside").c_str(), 0755);
  writeFile(dir.file("victim.txt"), "untouched\n");
  mkdir(dir.file("x").c_str(), 0755);
  ASSERT_EQ(symlink("../victim.txt", dir.file("x/manifest.json").c_str()), 0);
  ASSERT_EQ(symlink("../outside", dir.file("x/spec").c_str()), 0);
  FbcRun r = runFbc({"inspect", "ok.fb", "--extract", "x"}, dir.path());
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.err, "fbc inspect: error: cannot extract \"spec/spec.star\" into \"x\": \"spec\" "
                   "exists and is a symbolic link\n");
  EXPECT_EQ(readFile(dir.file("victim.txt")), "untouched\n");
  EXPECT_FALSE(exists(dir.file("outside/spec.star")));
  // Refused before anything was written: manifest.json (before spec/) is
  // still the link it was.
  struct stat st {};
  ASSERT_EQ(lstat(dir.file("x/manifest.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  // Without the folder link, manifest.json replaces its link instead of
  // writing through it.
  ASSERT_EQ(unlink(dir.file("x/spec").c_str()), 0);
  r = runFbc({"inspect", "ok.fb", "--extract", "x"}, dir.path());
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_EQ(readFile(dir.file("victim.txt")), "untouched\n");
  ASSERT_EQ(lstat(dir.file("x/manifest.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
}

// A manifest whose spec_entry is not a file under spec/ (shorter than
// "spec/", or elsewhere) is an error, not an uncaught std::out_of_range.
TEST(FbcReplay, ManifestSpecEntryOutsideSpecIsAnError) {
  Spec spec("ops");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "ok.fb"}, spec.dir.path());
  bundle::Contents c = readOk(spec.dir.file("ok.fb"));
  for (const char *entryName : {"x", "spec/", "trace.json"}) {
    SCOPED_TRACE(entryName);
    bundle::Contents bad = c;
    for (bundle::Entry &e : bad.entries)
      if (e.name == "manifest.json") {
        std::string from = "\"spec_entry\": \"spec/spec.star\"";
        size_t at = e.data.find(from);
        ASSERT_NE(at, std::string::npos) << e.data;
        e.data.replace(at, from.size(), "\"spec_entry\": \"" + std::string(entryName) + "\"");
      }
    llvm::Expected<std::string> bytes = bundle::encodeArchive(bad.entries);
    ASSERT_TRUE(bool(bytes));
    writeFile(spec.dir.file("bad.fb"), *bytes);
    FbcRun replay = runFbc({"replay", "bad.fb"}, spec.dir.path());
    EXPECT_EQ(replay.exit, 1) << replay.err;
    EXPECT_EQ(replay.err, "fbc replay: error: bundle \"bad.fb\": manifest spec_entry \"" +
                              std::string(entryName) + "\" names no file under spec/\n");
  }
}

// ------------------------------------------------------------ fbc replay

TEST(FbcReplay, ReRunsTheSnapshotWithTheBundlesSeedAndWritesANewBundle) {
  Spec spec("leaves");
  FbcRun r = runFbc({"run", spec.path, "--seed", "9", "--test", "~choose|wal", "--bundle", "a.fb"},
                    spec.dir.path());
  ASSERT_EQ(r.exit, 0) << r.err;
  FbcRun re = runFbc({"replay", "a.fb", "--test", "wal", "--bundle", "b.fb"}, spec.dir.path());
  EXPECT_EQ(re.exit, 0) << re.err;
  EXPECT_TRUE(RE2::PartialMatch(
      re.err,
      R"(^Replaying spec\.star from a\.fb with seed 9 \(1 spec files in /tmp/fbc-replay-lk-\w+\)\n)"))
      << re.err;
  EXPECT_FALSE(contains(re.err, "plan drift")) << re.err;
  bundle::Contents a = readOk(spec.dir.file("a.fb")), b = readOk(spec.dir.file("b.fb"));
  llvm::Expected<bundle::Manifest> ma = bundle::parseManifest(entry(a, "manifest.json"));
  llvm::Expected<bundle::Manifest> mb = bundle::parseManifest(entry(b, "manifest.json"));
  ASSERT_TRUE(ma && mb);
  EXPECT_EQ(mb->seed, 9u);
  EXPECT_EQ(mb->specRoot, "spec.star");
  EXPECT_EQ(mb->specDir, spec.dir.path());
  // The wal leaves' outcomes and their fired vectors are the original's.
  std::vector<std::string> wa, wb;
  for (const bundle::TestRow &t : ma->tests)
    if (t.name == "test_wal")
      wa.push_back(t.displayName() + " " + t.outcome);
  for (const bundle::TestRow &t : mb->tests)
    wb.push_back(t.displayName() + " " + t.outcome);
  EXPECT_EQ(wa, wb);
  EXPECT_EQ(wb.size(), 4u);
  // --leaf and --seed.
  FbcRun one =
      runFbc({"replay", "a.fb", "--test", "choose", "--leaf", "2", "--seed", "3", "--no-bundle"},
             spec.dir.path());
  EXPECT_EQ(one.exit, 0) << one.err;
  EXPECT_TRUE(contains(one.err, "with seed 3 ")) << one.err;
  EXPECT_TRUE(contains(one.err, "retries=3")) << one.err;
  EXPECT_FALSE(contains(one.err, "retries=0")) << one.err;
  // The temporary snapshot is gone.
  std::string tmp;
  ASSERT_TRUE(RE2::PartialMatch(one.err, R"((/tmp/fbc-replay-lk-\w+))", &tmp));
  EXPECT_FALSE(exists(tmp));
}

// A bundle of --test X or --leaf N replays its own rows, not the whole
// spec (the replay's rows are the bundle's).
TEST(FbcReplay, RunsTheRowsTheBundleRanAndNoOthers) {
  Spec spec("leaves");
  auto rows = [](const bundle::Contents &c) {
    llvm::Expected<bundle::Manifest> m = bundle::parseManifest(entry(c, "manifest.json"));
    std::vector<std::string> out;
    for (const bundle::TestRow &t : m ? m->tests : std::vector<bundle::TestRow>{})
      out.push_back(t.displayName());
    return out;
  };
  FbcRun r = runFbc({"run", spec.path, "--seed", "4", "--test", "wal", "--bundle", "a.fb"},
                    spec.dir.path());
  ASSERT_EQ(r.exit, 0) << r.err;
  FbcRun re = runFbc({"replay", "a.fb", "--bundle", "b.fb"}, spec.dir.path());
  EXPECT_EQ(re.exit, 0) << re.err;
  std::vector<std::string> ran = rows(readOk(spec.dir.file("a.fb")));
  EXPECT_EQ(ran.size(), 4u);
  EXPECT_EQ(rows(readOk(spec.dir.file("b.fb"))), ran);
  FbcRun one = runFbc(
      {"run", spec.path, "--seed", "4", "--test", "choose", "--leaf", "1", "--bundle", "c.fb"},
      spec.dir.path());
  ASSERT_EQ(one.exit, 0) << one.err;
  FbcRun again = runFbc({"replay", "c.fb", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(again.exit, 0) << again.err;
  EXPECT_EQ(normalize(again.out, spec), "Seed: 4\n\n"
                                        "--- PASS: test_choose [leaf 1 — retries=1] (Nms) ---\n\n"
                                        "1 passed, 0 failed\n");
}

TEST(FbcReplay, PlanDriftNamesWhatChanged) {
  Spec spec("leaves");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--test", "choose", "--bundle", "a.fb"},
                    spec.dir.path());
  ASSERT_EQ(r.exit, 0) << r.err;
  // The same bundle with a plan.json from "before": retries had one option
  // and test_computed did not exist.
  bundle::Contents c = readOk(spec.dir.file("a.fb"));
  std::vector<bundle::Entry> entries = c.entries;
  for (bundle::Entry &e : entries)
    if (e.name == "plan.json") {
      std::string &p = e.data;
      auto edit = [&](const std::string &from, const std::string &to) {
        size_t at = p.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        p.replace(at, from.size(), to);
      };
      edit("\"name\": \"test_choose\",\n      \"kind\": \"def\",\n      \"instances\": 3",
           "\"name\": \"test_choose\",\n      \"kind\": \"def\",\n      \"instances\": 1");
      edit("\"3\"\n              ],\n              \"size\": 3",
           "\"3\"\n              ],\n              \"size\": 1");
      edit("\"name\": \"test_computed\"", "\"name\": \"test_gone\"");
    }
  // Re-list plan.json's digest, as a bundle written that way would.
  for (bundle::Entry &e : entries)
    if (e.name == "manifest.json") {
      ASSERT_TRUE(
          RE2::Replace(&e.data, R"("plan.json": "sha256:[0-9a-f]{64}")",
                       "\"plan.json\": \"sha256:" + bundle::sha256Hex(entries[3].data) + "\""));
    }
  ASSERT_EQ(entries[3].name, "plan.json");
  llvm::Expected<std::string> bytes = bundle::encodeArchive(entries);
  ASSERT_TRUE(bool(bytes));
  writeFile(spec.dir.file("old.fb"), *bytes);
  // Without the new digest it is a damaged bundle.
  std::vector<bundle::Entry> stale = entries;
  stale[3].data += " ";
  writeFile(spec.dir.file("stale.fb"), *bundle::encodeArchive(stale));
  FbcRun st = runFbc({"inspect", "stale.fb"}, spec.dir.path());
  EXPECT_EQ(st.err,
            "fbc inspect: error: bundle \"stale.fb\": entry \"plan.json\" is corrupted: its "
            "SHA-256 is not the one manifest.json records\n");
  FbcRun re = runFbc({"replay", "old.fb", "--test", "choose", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(re.exit, 0) << re.err;
  std::vector<std::string> drift;
  re2::StringPiece in(re.err);
  std::string line;
  while (RE2::FindAndConsume(&in, R"((?m)^(plan drift: .*)$)", &line))
    drift.push_back(line);
  EXPECT_EQ(drift, (std::vector<std::string>{
                       "plan drift: test_choose had 1 instances, now 3 (choose axis \"retries\" "
                       "gained 2 options)",
                       "plan drift: test_gone had at least 1 instances, now it is not in the plan",
                       "plan drift: test_computed is new, with at least 1 instances"}))
      << re.err;
}

// --spec PATH: the bundle's seed against an edited spec on disk (a test
// added), with plan drift against the bundle's plan.json and the spec that
// ran named (issue #32).
TEST(FbcReplay, SpecFlagRunsTheEditedSpecWithTheBundlesSeed) {
  Spec spec("leaves");
  FbcRun r = runFbc({"run", spec.path, "--seed", "7", "--test", "choose", "--bundle", "a.fb"},
                    spec.dir.path());
  ASSERT_EQ(r.exit, 0) << r.err;
  std::ofstream(spec.dir.file("spec.star"), std::ios::app)
      << "\ndef test_added():\n    assert_eq(1, 1)\n";
  FbcRun re =
      runFbc({"replay", "a.fb", "--spec", "spec.star", "--test", "~choose|added", "--no-bundle"},
             spec.dir.path());
  EXPECT_EQ(re.exit, 0) << re.out << re.err;
  EXPECT_EQ(re.err, "Replaying spec.star from a.fb with seed 7 (the spec given with --spec, not "
                    "the bundle's snapshot of spec.star)\n"
                    "plan drift: test_added is new, with 1 instances\n"
                    "retries=0\nretries=1\nretries=3\n");
  EXPECT_EQ(normalize(re.out, spec), "Seed: 7\n\n"
                                     "--- PASS: test_added (Nms) ---\n\n"
                                     "--- PASS: test_choose [leaf 0 — retries=0] (Nms) ---\n\n"
                                     "--- PASS: test_choose [leaf 1 — retries=1] (Nms) ---\n\n"
                                     "--- PASS: test_choose [leaf 2 — retries=3] (Nms) ---\n\n"
                                     "4 passed, 0 failed\n");
  // Without --spec the snapshot runs: no test_added, no drift.
  FbcRun snap = runFbc({"replay", "a.fb", "--no-bundle"}, spec.dir.path());
  EXPECT_FALSE(contains(snap.out, "test_added")) << snap.out;
  EXPECT_FALSE(contains(snap.err, "plan drift")) << snap.err;
}

TEST(FbcReplay, BundleWithoutPlanJsonIsNoPlanData) {
  Spec spec("ops");
  FbcRun r =
      runFbc({"run", spec.path, "--seed", "1", "--no-plan", "--bundle", "a.fb"}, spec.dir.path());
  FbcRun re = runFbc({"replay", "a.fb", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(re.exit, r.exit) << re.err;
  EXPECT_TRUE(contains(re.err, "fbc replay: the bundle has no plan.json (no plan data): plan "
                               "drift not checked\n"))
      << re.err;
  FbcRun text = runFbc({"inspect", "a.fb"}, spec.dir.path());
  EXPECT_TRUE(contains(text.out, "\nPlan:         no plan data\n")) << text.out;
}

} // namespace
} // namespace fbc::rt::e2e
