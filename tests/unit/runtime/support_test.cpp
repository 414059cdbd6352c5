// The runtime's small pieces: errno labels,
// syscall tables, sockaddr parsing.
#include "runtime/os/sockaddr.h"
#include "runtime/os/syscalls.h"
#include "runtime/rules/rules.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

TEST(ErrnoNames, RuntimeLabelsComeFromTheIrTable) {
  EXPECT_EQ(errnoLabel(111), "ECONNREFUSED");
  EXPECT_EQ(errnoLabel(32), "errno(32)"); // EPIPE: not in the reference's table
  EXPECT_EQ(describeAction(Action::deny(5)), "deny(input/output error)");
}

TEST(Syscalls, NamesNumbersAndShapes) {
  int w = syscallNumber("write");
  ASSERT_GE(w, 0);
  EXPECT_EQ(syscallName(w), "write");
  EXPECT_EQ(syscallNumber("frobnicate"), -1);
  EXPECT_EQ(syscallShape(syscallNumber("openat")).pathArg, 1);
  EXPECT_EQ(syscallShape(syscallNumber("openat")).dirfdArg, 0);
  EXPECT_EQ(syscallShape(w).fdArg, 0);
  EXPECT_EQ(syscallShape(syscallNumber("connect")).dest, DestArg::Sockaddr);
  EXPECT_TRUE(isDestinationSyscall(syscallNumber("sendto")));
  EXPECT_FALSE(isDestinationSyscall(w));
}

TEST(Sockaddr, ParsesInetAndLoopback) {
  sockaddr_in in{};
  in.sin_family = AF_INET;
  in.sin_port = htons(6379);
  inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
  Destination d = parseSockaddr(&in, sizeof in);
  EXPECT_TRUE(d.valid() && d.local);
  EXPECT_EQ(d.port, 6379);
  EXPECT_EQ(d.text(), "127.0.0.1:6379");
  inet_pton(AF_INET, "10.1.2.3", &in.sin_addr);
  EXPECT_FALSE(parseSockaddr(&in, sizeof in).local);
  sockaddr_in6 in6{};
  in6.sin6_family = AF_INET6;
  in6.sin6_port = htons(80);
  in6.sin6_addr = in6addr_loopback;
  d = parseSockaddr(&in6, sizeof in6);
  EXPECT_TRUE(d.local);
  EXPECT_EQ(d.text(), "[::1]:80");
  EXPECT_FALSE(parseSockaddr(&in, 3).valid());
}

} // namespace
} // namespace fbc::rt
