// manifest.json's row `leaf_id`: what fbc replay runs again, so a number
// or the manifest is refused (a hostile bundle cannot crash the replay);
// a row's `leaf_schedule` needs the run's explore settings.
#include "bundle/manifest.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

llvm::Expected<Manifest> withLeafId(const std::string &id) {
  return parseManifest(
      R"({"schema_version": 1, "fbc_version": "0", "run_id": "r", "created_at": "t",
          "seed": 1, "spec_root": "s.star", "interrupted": false, "tests": [
          {"name": "t", "outcome": "passed", "duration_ms": 1, "seed": 1, "leaf_id": ")" +
      id + R"("}]})");
}

TEST(ManifestLeafId, ANumberIsRead) {
  for (const char *id : {"0", "7", "9999999999999999999"}) {
    llvm::Expected<Manifest> m = withLeafId(id);
    ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
    EXPECT_EQ(m->tests[0].leafId, std::optional<std::string>(id));
  }
}

TEST(ManifestLeafId, AnythingElseIsRefused) {
  for (const char *id : {"x", "-1", "01", "1.5", "99999999999999999999"}) {
    llvm::Expected<Manifest> m = withLeafId(id);
    ASSERT_FALSE(bool(m)) << id;
    EXPECT_EQ(llvm::toString(m.takeError()),
              "manifest.json: tests[0]: \"leaf_id\" is not a leaf id (\"0\", \"1\", ...)")
        << id;
  }
}

// What manifest_fuzz found: a row with a schedule in a manifest without
// explore settings was read, and the manifest written back from it (merge,
// replay) carried `"budget": 0`, which no reader accepts.
TEST(ManifestLeafSchedule, NeedsTheRunsExploreSettings) {
  std::string head = R"({"schema_version": 1, "fbc_version": "0", "run_id": "r",
      "created_at": "t", "seed": 1, "spec_root": "s.star", "interrupted": false,)";
  std::string row = R"("tests": [{"name": "t", "outcome": "passed", "duration_ms": 1,
      "seed": 1, "leaf_id": "0", "leaf_schedule": "0.1"}]})";
  llvm::Expected<Manifest> bare = parseManifest(head + row);
  ASSERT_FALSE(bool(bare));
  EXPECT_EQ(llvm::toString(bare.takeError()),
            "manifest.json: a row has a leaf_schedule, but the manifest has no \"explore\" "
            "settings");
  llvm::Expected<Manifest> m = parseManifest(
      head + R"("explore": {"policy": "all", "budget": 5, "settle_ns": 1, "quiet_bound_ns": 2},)" +
      row);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  llvm::Expected<Manifest> back = parseManifest(formatManifestJson(*m));
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->tests[0].leaf.schedule, "0.1");
}

} // namespace
} // namespace fbc::bundle
