// HTTP mock routes (runtime/mock/mock_route.h): the reference's matching of
// "METHOD /path" patterns, the Redis mock's seed read from its config, and the
// Kafka mock's program and arguments.
#include "ir/mock.h"
#include "runtime/mock/mock_request.h"
#include "runtime/mock/mock_route.h"
#include "runtime/mock/mock_services.h"
#include "runtime/os/helper_binary.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

TEST(MockRoute, MethodCaseInsensitiveOrAny) {
  EXPECT_TRUE(mockRouteMatches("GET /health", "GET", "/health"));
  EXPECT_TRUE(mockRouteMatches("get /health", "GET", "/health"));
  EXPECT_FALSE(mockRouteMatches("POST /health", "GET", "/health"));
  EXPECT_TRUE(mockRouteMatches("* /health", "DELETE", "/health"));
  EXPECT_FALSE(mockRouteMatches("/health", "GET", "/health")); // no method: never matches
}

TEST(MockRoute, StarIsOneSegmentDoubleStarAny) {
  EXPECT_TRUE(mockRouteMatches("GET /users/*", "GET", "/users/42"));
  EXPECT_FALSE(mockRouteMatches("GET /users/*", "GET", "/users/42/avatar"));
  EXPECT_FALSE(mockRouteMatches("GET /users/*", "GET", "/users"));
  EXPECT_TRUE(mockRouteMatches("GET /files/**", "GET", "/files/a/b/c"));
  EXPECT_TRUE(mockRouteMatches("GET /files/**", "GET", "/files"));
  EXPECT_TRUE(mockRouteMatches("GET /a/**/z", "GET", "/a/z"));
  EXPECT_TRUE(mockRouteMatches("GET /a/**/z", "GET", "/a/b/c/z"));
  EXPECT_FALSE(mockRouteMatches("GET /a/**/z", "GET", "/a/b/c/y"));
}

TEST(MockRoute, SegmentGlobsAndLiterals) {
  EXPECT_TRUE(mockRouteMatches("GET /v1/user-*", "GET", "/v1/user-7"));
  EXPECT_FALSE(mockRouteMatches("GET /v1/user-*", "GET", "/v1/admin-7"));
  EXPECT_TRUE(mockRouteMatches("GET /v?", "GET", "/v2"));
  EXPECT_FALSE(mockRouteMatches("GET /v?", "GET", "/v/"));
  EXPECT_TRUE(mockRouteMatches("GET /[ab]", "GET", "/a"));
  EXPECT_FALSE(mockRouteMatches("GET /health", "GET", "/health/x"));
  EXPECT_TRUE(mockRouteMatches("GET /x/*/", "GET", "/x/y")); // outer slashes do not count
}

TEST(MockRequest, HeaderNamesCanonical) {
  EXPECT_EQ(canonicalHeaderName("content-type"), "Content-Type");
  EXPECT_EQ(canonicalHeaderName("X-REQUEST-ID"), "X-Request-Id");
  EXPECT_EQ(canonicalHeaderName("accept"), "Accept");
}

TEST(RedisSeed, StateEntriesInKeyOrder) {
  std::vector<std::pair<std::string, std::string>> kv;
  std::string error;
  ASSERT_TRUE(redisSeed(R"({"state":{"a":"1","b":2,"c":{"x":true}}})", kv, error)) << error;
  EXPECT_EQ(kv, (std::vector<std::pair<std::string, std::string>>{
                    {"a", "1"}, {"b", "2"}, {"c", R"({"x":true})"}}));
  kv.clear();
  EXPECT_TRUE(redisSeed("", kv, error));
  EXPECT_TRUE(redisSeed(R"({"other":1})", kv, error));
  EXPECT_TRUE(kv.empty());
  EXPECT_FALSE(redisSeed(R"({"state":[1]})", kv, error));
  EXPECT_EQ(error, "redis mock state must be a dict of key to value");
}

// fbc-kafka-mock's arguments from the config kafka.star makes: the port,
// the proxy's port to advertise when there is one, the partitions and each
// topic; a topic with records, or a config of another shape, is refused.
TEST(KafkaMockArgs, TopicsPartitionsAndTheAdvertisedPort) {
  std::vector<std::string> args;
  std::string error;
  ASSERT_TRUE(kafkaMockArgs(R"({"advertise_host":"","partitions":3,"topics":{"a":[],"b":[]}})",
                            9092, 41000, args, error))
      << error;
  EXPECT_EQ(args, (std::vector<std::string>{"--port", "9092", "--advertise-port", "41000",
                                            "--partitions", "3", "--topic", "a", "--topic", "b"}));
  ASSERT_TRUE(kafkaMockArgs("", 9092, 0, args, error));
  EXPECT_EQ(args, (std::vector<std::string>{"--port", "9092"}));
  EXPECT_FALSE(kafkaMockArgs(R"({"partitions":0})", 9092, 0, args, error));
  EXPECT_EQ(error, "kafka mock partitions must be a whole number from 1 to 1000");
  EXPECT_FALSE(kafkaMockArgs(R"({"topics":["a"]})", 9092, 0, args, error));
  EXPECT_EQ(error, "kafka mock topics must be a dict of topic name to records");
  EXPECT_FALSE(kafkaMockArgs(R"({"topics":{"a":[{"value":"x"}]}})", 9092, 0, args, error));
  EXPECT_EQ(error, "kafka mock topic a: fbc creates topics empty (a topic's records must be [])");
}

// The Kafka mock's program is fbc-kafka-mock in fbc's own folder, whether
// or not it is there (here, the unit tests' folder has none): a missing one
// fails the start naming that path, never one found on PATH.
TEST(KafkaMockSpec, ProgramIsTheOneNextToFbc) {
  ir::Service s;
  s.name = "bus";
  ir::Interface main;
  main.name = "main";
  main.protocol = "kafka";
  main.port = 9092;
  s.interfaces.push_back(main);
  s.mock = std::make_shared<ir::Mock>();
  ServiceSpec out = mockServiceSpec(ir::Spec{}, s, "/tmp", {}, {}, "", MockRunContext{});
  EXPECT_EQ(out.launch.binary, helperBinaryPath("fbc-kafka-mock"));
  EXPECT_TRUE(out.launch.binary.starts_with("/")) << out.launch.binary;
  EXPECT_EQ(out.launch.args, (std::vector<std::string>{"--port", "9092"}));
}

} // namespace
} // namespace fbc::rt
