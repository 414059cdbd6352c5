// gRPC's framing as the proxy's HTTP/2 bridge and the gRPC step write and
// read it (runtime/protocols/grpc_wire.h): the 5-byte message prefix and
// grpc-message's percent-encoding, against bytes written out by hand from
// the gRPC over HTTP/2 specification.
#include "runtime/protocols/grpc_wire.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

TEST(GrpcWire, AMessageIsItsLengthPrefixedBytes) {
  EXPECT_EQ(grpcFrame("\n\x03o-1"), std::string("\0\0\0\0\x05\n\x03o-1", 10));
  EXPECT_EQ(grpcFrame(""), std::string(5, '\0'));
  std::string big(300, 'x');
  EXPECT_EQ(grpcFrame(big).substr(0, 5), std::string("\0\0\0\x01\x2c", 5));
}

TEST(GrpcWire, UnframeNeedsTheWholeMessage) {
  std::string wire = grpcFrame("\n\x03o-1\x12\x06stored") + grpcFrame("second");
  std::string m;
  ASSERT_TRUE(grpcUnframe(wire, m));
  EXPECT_EQ(m, "\n\x03o-1\x12\x06stored");
  for (size_t cut = 0; cut < 18; ++cut)
    EXPECT_FALSE(grpcUnframe(std::string_view(wire).substr(0, cut), m)) << cut;
}

TEST(GrpcWire, MessagesArePercentEncoded) {
  // The recipes' em dash (UTF-8 E2 80 94), '%' itself, and a newline.
  EXPECT_EQ(grpcPercentEncode("rate limit — 50% off\n"), "rate limit %E2%80%94 50%25 off%0A");
  EXPECT_EQ(grpcPercentDecode("rate limit %E2%80%94 50%25 off%0A"), "rate limit — 50% off\n");
  EXPECT_EQ(grpcPercentDecode("plain"), "plain");
  // A malformed escape is kept as it is.
  EXPECT_EQ(grpcPercentDecode("100%"), "100%");
  EXPECT_EQ(grpcPercentDecode("%zz%4"), "%zz%4");
}

} // namespace
} // namespace fbc::rt
