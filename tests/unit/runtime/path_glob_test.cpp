// Path globs: the reference's dialect (pathmatch) compiled to re2.
#include "runtime/rules/path_glob.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

bool m(const char *glob, const char *path) {
  return PathGlob(glob).matches(path);
}

TEST(PathGlob, StarStopsAtSlash) {
  EXPECT_TRUE(m("/data/*.db", "/data/a.db"));
  EXPECT_FALSE(m("/data/*.db", "/data/x/a.db"));
  EXPECT_TRUE(m("/tmp/wal*", "/tmp/wal-0001"));
}

TEST(PathGlob, DoubleStarCrossesSlashes) {
  EXPECT_TRUE(m("/data/**", "/data/x/y/z"));
  EXPECT_TRUE(m("/data/**", "/data")); // a trailing /** matches the directory itself
  EXPECT_TRUE(m("/a/**/b", "/a/b"));
  EXPECT_TRUE(m("/a/**/b", "/a/x/y/b"));
  EXPECT_FALSE(m("/a/**/b", "/a/xb"));
  EXPECT_TRUE(m("**.log", "/var/log/x.log"));
}

TEST(PathGlob, QuestionAndClasses) {
  EXPECT_TRUE(m("/f?", "/f1"));
  EXPECT_FALSE(m("/f?", "/f/"));
  EXPECT_TRUE(m("/f[0-9]", "/f7"));
  EXPECT_FALSE(m("/f[0-9]", "/fa"));
  EXPECT_TRUE(m("/f[!0-9]", "/fa"));
  EXPECT_TRUE(m("/f[^0-9]", "/fa"));
  EXPECT_FALSE(m("/f[!0-9]", "/f/"));
  EXPECT_TRUE(m("/f[]]", "/f]"));
  EXPECT_FALSE(m("/f[abc", "/fa")); // unterminated class matches nothing
}

TEST(PathGlob, EscapesAndMetacharacters) {
  EXPECT_TRUE(m("/a\\*b", "/a*b"));
  EXPECT_FALSE(m("/a\\*b", "/axb"));
  EXPECT_FALSE(m("/a\\", "/a\\")); // a trailing backslash matches nothing
  EXPECT_TRUE(m("/a.b+(c)", "/a.b+(c)"));
  EXPECT_FALSE(m("/a.b", "/axb"));
}

TEST(PathGlob, EmptyMatchesEverythingAndDirectoryFallback) {
  EXPECT_TRUE(m("", "/anything"));
  EXPECT_TRUE(m("/data/*/", "/data/a/file"));
  EXPECT_FALSE(m("/data/*/", "/data/file"));
}

} // namespace
} // namespace fbc::rt
