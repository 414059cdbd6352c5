// The NATS client protocol as fbc reads it (runtime/protocols/proto_nats.*):
// the server's operations the steps and the probe read.
#include "runtime/protocols/proto_nats.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

TEST(ProtoNats, ParsesServerOperations) {
  NatsOp op;
  ASSERT_EQ(parseNatsOp("-ERR 'Authorization Violation'\r\n", op), NatsParse::Op);
  EXPECT_EQ(op.op, "-ERR");
  EXPECT_EQ(op.error, "Authorization Violation");
  ASSERT_EQ(parseNatsOp("MSG a.b 7 _INBOX.r 2\r\nhi\r\nPING\r\n", op), NatsParse::Op);
  EXPECT_EQ(op.subject, "a.b");
  EXPECT_EQ(op.sid, "7");
  EXPECT_EQ(op.reply, "_INBOX.r");
  EXPECT_EQ(op.payload, "hi");
  EXPECT_EQ(op.length, 26u);
  ASSERT_EQ(parseNatsOp("HMSG _INBOX.r 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\n", op), NatsParse::Op);
  EXPECT_EQ(natsHeaderStatus(op.headers), "503");
  EXPECT_EQ(op.payload, "");
}

} // namespace
} // namespace fbc::rt
