// manifest.json's "images" (issue #27): the container images a run used,
// each with the ID it resolved to, written when there are any and read
// back; a malformed list is refused with what is wrong.
#include "bundle/manifest.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

std::string manifestWith(const std::string &images) {
  return R"({"schema_version": 1, "fbc_version": "0", "run_id": "r", "created_at": "t",
             "seed": 1, "spec_root": "s.star", "interrupted": false, )" +
         images + R"(, "tests": []})";
}

TEST(ManifestImages, WrittenBeforeTheRowsAndReadBack) {
  llvm::Expected<Manifest> m = parseManifest(manifestWith(
      R"("images": [{"image": "redis:7-alpine", "id": "sha256:aa"}, {"image": "x", "id": ""}])"));
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  ASSERT_EQ(m->images.size(), 2u);
  EXPECT_EQ(m->images[0].first, "redis:7-alpine");
  EXPECT_EQ(m->images[0].second, "sha256:aa");
  std::string json = formatManifestJson(*m);
  EXPECT_NE(json.find("  \"images\": [\n    {\n      \"image\": \"redis:7-alpine\",\n      "
                      "\"id\": \"sha256:aa\"\n    },\n    {\n      \"image\": \"x\",\n      "
                      "\"id\": \"\"\n    }\n  ],\n  \"tests\": ["),
            std::string::npos)
      << json;
  m->images.clear();
  EXPECT_EQ(formatManifestJson(*m).find("\"images\""), std::string::npos);
}

TEST(ManifestImages, AMalformedListIsRefused) {
  for (auto [images, error] : {
           std::pair{R"("images": {})", R"(manifest.json: "images" is not an array)"},
           {R"("images": [7])", "manifest.json: images: an entry is not an object naming an image"},
           {R"("images": [{"id": "sha256:aa"}])",
            "manifest.json: images: an entry is not an object naming an image"},
           {R"("images": [{"image": 1, "id": "a"}])",
            R"(manifest.json: images: "image" is not a string)"},
       }) {
    llvm::Expected<Manifest> m = parseManifest(manifestWith(images));
    ASSERT_FALSE(bool(m)) << images;
    EXPECT_EQ(llvm::toString(m.takeError()), error) << images;
  }
}

TEST(ManifestImages, AListLongerThanTheRowsKeptIsRefusedNotCut) {
  ManifestLimits limits;
  limits.maxRows = 2;
  std::string three = R"("images": [{"image": "a", "id": ""}, {"image": "b", "id": ""},
                                    {"image": "c", "id": ""}])";
  llvm::Expected<Manifest> m = parseManifest(manifestWith(three), limits);
  ASSERT_FALSE(bool(m));
  EXPECT_EQ(llvm::toString(m.takeError()), "manifest.json: images: more than 2 entries");
  limits.maxRows = 3;
  llvm::Expected<Manifest> kept = parseManifest(manifestWith(three), limits);
  ASSERT_TRUE(bool(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(kept->images.size(), 3u);
}

} // namespace
} // namespace fbc::bundle
