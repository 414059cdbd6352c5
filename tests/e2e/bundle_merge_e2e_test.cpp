// fbc merge end to end (docs/bundle.md): the bundles of the shards of a run
// merge into the unsharded run's bundle, a partial set names the leaves no
// shard ran, and bundles of different runs are refused. Helpers shared with
// the other bundle e2e tests: bundle_e2e_util.h.

#include "bundle/archive.h"
#include "bundle/manifest.h"
#include "tests/e2e/bundle_e2e_util.h"
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <algorithm>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

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

} // namespace
} // namespace fbc::rt::e2e
