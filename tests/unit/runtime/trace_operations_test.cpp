// Trace::countOperation / operations(): what fbc run --record-ops writes as
// each row's "operations".
#include "runtime/trace/trace.h"

#include <gtest/gtest.h>

#include <sys/syscall.h>

#include <string>
#include <vector>

namespace fbc::rt {
namespace {

std::vector<std::string> lines(const std::vector<OperationCount> &ops) {
  std::vector<std::string> out;
  for (const OperationCount &op : ops)
    out.push_back(op.syscall + " " + op.target + " " + std::to_string(op.calls));
  return out;
}

TEST(TraceOperations, CallsAreCountedBySyscallAndTargetAndSorted) {
  Trace t;
  t.setServiceName(0, "kv");
  t.countOperation(0, SYS_fsync, "/tmp/kv.wal");
  t.countOperation(0, SYS_fsync, "/tmp/kv.wal");
  t.countOperation(0, SYS_connect, "127.0.0.1:7001");
  t.countOperation(0, -1, "/ignored");
  t.countOperation(kNoService, SYS_fsync, "/ignored");
  auto ops = t.operations();
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(lines(ops.at("kv")),
            (std::vector<std::string>{"connect 127.0.0.1:7001 1", "fsync /tmp/kv.wal 2"}));
  t.clear();
  EXPECT_TRUE(t.operations().empty());
}

// Past kMaxOperationTargets a service's new targets count under "*"; the
// targets it already has keep counting under their own.
TEST(TraceOperations, NewTargetsPastTheBoundCountUnderStar) {
  Trace t;
  t.setServiceName(0, "kv");
  for (size_t i = 0; i < kMaxOperationTargets + 2; ++i)
    t.countOperation(0, SYS_openat, "/f" + std::to_string(1000 + i));
  t.countOperation(0, SYS_openat, "/f1000");
  std::vector<OperationCount> ops = t.operations().at("kv");
  ASSERT_EQ(ops.size(), kMaxOperationTargets + 1);
  EXPECT_EQ(ops.front().target, "*");
  EXPECT_EQ(ops.front().calls, 2u);
  EXPECT_EQ(ops[1].target, "/f1000");
  EXPECT_EQ(ops[1].calls, 2u);
  EXPECT_EQ(ops.back().target, "/f" + std::to_string(1000 + kMaxOperationTargets - 1));
  EXPECT_EQ(ops.back().calls, 1u);
}

} // namespace
} // namespace fbc::rt
