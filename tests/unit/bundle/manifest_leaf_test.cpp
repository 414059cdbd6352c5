// manifest.json's row `leaf_id`: what fbc replay runs again, so a number
// or the manifest is refused (a hostile bundle cannot crash the replay).
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

} // namespace
} // namespace fbc::bundle
