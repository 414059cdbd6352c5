// The gateway builtins' argument checks (ir/gateway_calls.h): what the
// plan cannot read is not checked, and the run's values get the plan's
// messages.
#include "ir/gateway_calls.h"

#include <gtest/gtest.h>

namespace fbc::ir {
namespace {

using Kind = GatewayArg::Kind;

GatewayArg arg(Kind kind, std::string name = "", std::string str = "", int64_t num = 0) {
  GatewayArg a;
  a.kind = kind;
  a.name = std::move(name);
  a.str = std::move(str);
  a.num = num;
  return a;
}

std::string error(std::string_view fn, const std::vector<GatewayArg> &args) {
  std::optional<GatewayArgError> e = gatewayArgError(fn, args);
  return e ? e->message : "";
}

TEST(GatewayCalls, UnknownArgumentsAreNotChecked) {
  GatewayArg a = arg(Kind::Service, "", "api"), b = arg(Kind::Unknown);
  EXPECT_EQ(error("partition", {a, b, arg(Kind::Unknown, "run")}), "");
  EXPECT_EQ(error("partition", {a, b, arg(Kind::Unknown, "direction"), arg(Kind::Callable, "run")}),
            "");
  EXPECT_EQ(error("mtu", {arg(Kind::Unknown)}), "");
  EXPECT_EQ(error("bandwidth", {arg(Kind::Unknown), arg(Kind::Unknown, "queue")}), "");
}

TEST(GatewayCalls, ErrorsNameTheArgument) {
  std::vector<GatewayArg> args = {arg(Kind::Service, "", "db"), arg(Kind::Service, "", "api"),
                                  arg(Kind::Callable, "run"), arg(Kind::Int, "direction", "", 3)};
  std::optional<GatewayArgError> e = gatewayArgError("partition", args);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->arg, 3u);
  // A non-string direction reads as "" (the reference's AsString).
  EXPECT_EQ(e->message,
            "partition(): direction must be \"both\", \"a_to_b\" or \"b_to_a\", got \"\"");
  e = gatewayArgError("watch", {arg(Kind::Service, "", "db")});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->arg, std::string::npos);
}

TEST(GatewayCalls, ShapersReadTheirArgumentsByPositionOrName) {
  EXPECT_EQ(error("bandwidth", {arg(Kind::String, "", "64kbit"), arg(Kind::String, "", "c2s"),
                                arg(Kind::String, "", "250ms")}),
            "");
  EXPECT_EQ(
      error("bandwidth", {arg(Kind::String, "", "1mbit"), arg(Kind::String, "rate", "2mbit")}),
      "bandwidth: got multiple values for keyword argument \"rate\"");
  EXPECT_EQ(error("bandwidth", {arg(Kind::String, "", "1.5mbit"), arg(Kind::String, "", "x"),
                                arg(Kind::String, "", "1s"), arg(Kind::String, "", "y")}),
            "bandwidth: got 4 arguments, want at most 3");
  EXPECT_EQ(error("bandwidth", {arg(Kind::String, "", "0kbit")}),
            "bandwidth(): rate must be a positive number with a unit (bit, kbit, mbit, gbit, bps, "
            "kbps, mbps, gbps), got \"0kbit\"");
  EXPECT_EQ(error("mtu", {arg(Kind::Int, "size", "", 68)}), "");
  EXPECT_EQ(error("mtu", {arg(Kind::Int, "", "", 67)}).substr(0, 42),
            "mtu(size=67) is below the IPv4 minimum of ");
  EXPECT_TRUE(isGatewayBuiltin("watch_stop"));
  EXPECT_FALSE(isGatewayBuiltin("packet_drop"));
}

} // namespace
} // namespace fbc::ir
