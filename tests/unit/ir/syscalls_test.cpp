#include "ir/quote.h"
#include "ir/syscalls.h"

#include <gtest/gtest.h>

namespace fbc::ir {
namespace {

using Names = std::vector<std::string>;

TEST(Syscalls, FamiliesExpandAsTheEngineDoes) {
  EXPECT_EQ(expandSyscallFamily("write"),
            (Names{"write", "writev", "pwrite64", "pwritev", "pwritev2"}));
  EXPECT_EQ(expandSyscallFamily("read"), (Names{"read", "readv", "pread64", "preadv", "preadv2"}));
  EXPECT_EQ(expandSyscallFamily("open"), (Names{"open", "openat", "openat2", "creat"}));
  EXPECT_EQ(expandSyscallFamily("fsync"), (Names{"fsync", "fdatasync"}));
  EXPECT_EQ(expandSyscallFamily("sendto"), (Names{"sendto", "sendmsg", "sendmmsg"}));
  EXPECT_EQ(expandSyscallFamily("recvfrom"), (Names{"recvfrom", "recvmsg", "recvmmsg"}));
  for (const char *self : {"connect", "openat", "writev", "pwrite64", "close", "recvmsg"})
    EXPECT_EQ(expandSyscallFamily(self), (Names{self}));
}

TEST(Syscalls, KeywordsAreTheFaultableSetPlusOpen) {
  EXPECT_EQ(syscallKeywords().size(), 16u);
  EXPECT_TRUE(isSyscallKeyword("connect"));
  EXPECT_TRUE(isSyscallKeyword("open"));
  EXPECT_FALSE(isSyscallKeyword("socket"));
  EXPECT_FALSE(isSyscallKeyword("pwritev2"));
}

TEST(Syscalls, NamesAreKeywordsOrSyscallsOfThisArchitecture) {
  for (std::string_view k : syscallKeywords())
    EXPECT_TRUE(isSyscallName(k)) << k;
  for (const char *name : {"unlinkat", "mkdirat", "socket", "pwritev2", "ftruncate", "renameat2"})
    EXPECT_TRUE(isSyscallName(name)) << name;
  for (const char *name : {"", "wirte", "Write", "write ", "../write", "fsnyc", "kill\n"})
    EXPECT_FALSE(isSyscallName(name)) << name;
}

TEST(Errno, TableIsSortedWithLinuxNumbers) {
  auto table = errnoTable();
  EXPECT_EQ(table.size(), 29u);
  for (size_t i = 1; i < table.size(); ++i)
    EXPECT_LT(table[i - 1].name, table[i].name);
  ASSERT_NE(findErrno("econnrefused"), nullptr);
  EXPECT_EQ(findErrno("econnrefused")->number, 111);
  EXPECT_EQ(findErrno("EIO")->text, "input/output error");
  EXPECT_EQ(findErrno("EPIPE"), nullptr); // documented by the reference, not in its table
  ASSERT_NE(findErrnoNumber(111), nullptr);
  EXPECT_EQ(findErrnoNumber(111)->name, "ECONNREFUSED");
  EXPECT_EQ(findErrnoNumber(32), nullptr);
  EXPECT_EQ(supportedErrnoList().substr(0, 26), "EACCES, EADDRINUSE, EADDRN");
}

TEST(Quote, EscapesLikeGo) {
  EXPECT_EQ(quote("plain"), "\"plain\"");
  EXPECT_EQ(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quote("tab\there\n"), "\"tab\\there\\n\"");
  EXPECT_EQ(quote("\x01"), "\"\\x01\"");
  EXPECT_EQ(quote("h\xC3\xA9llo"), "\"h\xC3\xA9llo\"");
  EXPECT_EQ(quote("bad\xFF"), "\"bad\\xff\"");
}

} // namespace
} // namespace fbc::ir
