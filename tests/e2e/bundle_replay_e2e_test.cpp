// fbc replay end to end (docs/bundle.md): a bundle's snapshot re-run with
// its seed (or --seed, --leaf), its own rows and no others, plan drift named
// against the bundle's plan.json, --spec with an edited spec, and a bundle
// without plan.json. Helpers shared with the other bundle e2e tests:
// bundle_e2e_util.h.

#include "bundle/archive.h"
#include "bundle/integrity.h"
#include "bundle/manifest.h"
#include "tests/e2e/bundle_e2e_util.h"
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <fstream>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

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
