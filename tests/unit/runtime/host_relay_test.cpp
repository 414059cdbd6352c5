// rewriteLoopback: how a container's env= and args= values name services
// on the host (runtime/containers/host_relay.h).
#include "runtime/containers/host_relay.h"

#include <gtest/gtest.h>

namespace fbc::rt::containers {
namespace {

std::optional<std::string> toGateway(uint16_t port) {
  if (port == 5432)
    return std::string("db:5432");
  if (port == 8080)
    return std::string("10.89.0.1:8080");
  return std::nullopt;
}

TEST(RewriteLoopback, BothSpellingsOfLoopbackAreRewritten) {
  EXPECT_EQ(rewriteLoopback("localhost:8080", toGateway), "10.89.0.1:8080");
  EXPECT_EQ(rewriteLoopback("http://127.0.0.1:8080/v1", toGateway), "http://10.89.0.1:8080/v1");
  EXPECT_EQ(rewriteLoopback("postgres://u@localhost:5432/app?x=localhost:8080", toGateway),
            "postgres://u@db:5432/app?x=10.89.0.1:8080");
}

TEST(RewriteLoopback, OnlyWholePortsTheCallbackNames) {
  // 80801 is not port 8080; 9999 is not named; a colon with no port stays.
  EXPECT_EQ(rewriteLoopback("localhost:80801", toGateway), "localhost:80801");
  EXPECT_EQ(rewriteLoopback("localhost:9999,localhost:8080", toGateway),
            "localhost:9999,10.89.0.1:8080");
  EXPECT_EQ(rewriteLoopback("localhost: 127.0.0.1:", toGateway), "localhost: 127.0.0.1:");
  EXPECT_EQ(rewriteLoopback("notlocalhost:8080 x.localhost:8080", toGateway),
            "notlocalhost:8080 x.localhost:8080");
  EXPECT_EQ(rewriteLoopback("", toGateway), "");
}

} // namespace
} // namespace fbc::rt::containers
