#include "ir/spec.h"
#include "ir/syscalls.h"
#include "ir/unmediated.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fbc::ir {
namespace {

using Names = std::vector<std::string>;

TEST(Unmediated, TableIsSortedAndUsesTheOneCategoryList) {
  std::span<const ObservedEntry> entries = observedEntries();
  ASSERT_FALSE(entries.empty());
  for (size_t i = 1; i < entries.size(); ++i)
    EXPECT_LT(entries[i - 1].name, entries[i].name);
  for (const ObservedEntry &e : entries) {
    EXPECT_EQ(findObservedEntry(e.name), &e) << e.name;
    ASSERT_FALSE(e.categories.empty()) << e.name;
    for (std::string_view c : e.categories)
      EXPECT_TRUE(isDeterminismCategory(c)) << e.name << ": " << c;
    // A bypass names fault keywords (or their family members) only.
    for (std::string_view k : e.bypasses)
      EXPECT_TRUE(isSyscallName(k)) << e.name << ": " << k;
    EXPECT_TRUE(isSyscallName(e.syscall)) << e.name;
  }
  EXPECT_EQ(findObservedEntry("mmap"), nullptr); // only the conditional form is an entry
}

TEST(Unmediated, FamiliesMatchTheirMembers) {
  constexpr std::string_view kw[] = {"write", "fsync"};
  EXPECT_TRUE(inFamilies("write", kw));
  EXPECT_TRUE(inFamilies("pwritev2", kw)); // a member of write's family
  EXPECT_TRUE(inFamilies("fdatasync", kw));
  EXPECT_FALSE(inFamilies("read", kw));
  EXPECT_FALSE(inFamilies("connect", kw));
}

TEST(Unmediated, BypassesFollowTheTrapSet) {
  EXPECT_EQ(observedFor({}, false), Names{});
  EXPECT_EQ(observedFor({"fsync"}, false),
            (Names{"io_uring_enter", "io_uring_register", "io_uring_setup", "msync",
                   "sync_file_range", "syncfs"}));
  EXPECT_EQ(observedFor({"pwrite64"}, false),
            (Names{"copy_file_range", "io_uring_enter", "io_uring_register", "io_uring_setup",
                   "mmap[shared-write]", "sendfile", "splice"}));
  // A syscall no entry bypasses adds nothing.
  EXPECT_EQ(observedFor({"unlinkat"}, false), Names{});
}

TEST(Unmediated, DeterminismObservesEveryEntry) {
  Names all;
  for (const ObservedEntry &e : observedEntries())
    all.emplace_back(e.name);
  EXPECT_EQ(observedFor({}, true), all);
  EXPECT_EQ(observedFor({"write"}, true), all);
}

} // namespace
} // namespace fbc::ir
