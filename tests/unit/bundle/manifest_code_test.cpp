// manifest.json's row `code` (issue #33): written when a row has one, read
// back as any string, refused with the field named when it is not a string.
#include "bundle/manifest.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

std::string manifestWithRow(const std::string &row) {
  return R"({"schema_version": 1, "fbc_version": "0", "run_id": "r", "created_at": "t",
             "seed": 1, "spec_root": "s.star", "interrupted": false, "tests": [)" +
         row + "]}";
}

TEST(ManifestCode, ARowsCodeIsWrittenAndReadBack) {
  llvm::Expected<Manifest> m = parseManifest(manifestWithRow(
      R"({"name": "t", "outcome": "errored", "duration_ms": 1, "seed": 1, "reason": "r",
          "code": "HEALTHCHECK_TIMEOUT"}, {"name": "u", "outcome": "passed", "duration_ms": 1,
          "seed": 1})"));
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  ASSERT_EQ(m->tests.size(), 2u);
  EXPECT_EQ(m->tests[0].code, "HEALTHCHECK_TIMEOUT");
  EXPECT_EQ(m->tests[1].code, "");
  std::string json = formatManifestJson(*m);
  EXPECT_NE(json.find("\"reason\": \"r\",\n      \"code\": \"HEALTHCHECK_TIMEOUT\"\n"),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find("\"code\"", json.find("\"name\": \"u\"")), std::string::npos) << json;
}

TEST(ManifestCode, ACodeOfANewerFbcIsKept) {
  llvm::Expected<Manifest> m = parseManifest(manifestWithRow(
      R"({"name": "t", "outcome": "failed", "duration_ms": 1, "seed": 1, "code": "NOT_YET_A_CODE"})"));
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_EQ(m->tests[0].code, "NOT_YET_A_CODE");
}

TEST(ManifestCode, ACodeThatIsNotAStringIsRefused) {
  llvm::Expected<Manifest> m = parseManifest(manifestWithRow(
      R"({"name": "t", "outcome": "failed", "duration_ms": 1, "seed": 1, "code": 7})"));
  ASSERT_FALSE(bool(m));
  EXPECT_EQ(llvm::toString(m.takeError()), "manifest.json: tests[0]: \"code\" is not a string");
}

} // namespace
} // namespace fbc::bundle
