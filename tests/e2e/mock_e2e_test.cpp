// mock_service under `fbc run` (issue #15 §2): an HTTP mock served
// in-process (static, status-only, redirect and dynamic routes, globs,
// default=, a mock behind a real service's env, a proxy fault on the mock's
// interface, `mock` events in the trace), the Redis mock backed by a real
// redis-server seeded with its state, the Kafka mock backed by librdkafka's
// mock cluster and the Kafka steps against it, the gRPC mock over HTTP/2 with a
// typed gRPC client, and the exact error rows of the mocks this machine
// cannot stand up; client() against an OpenAPI mock. Specs in
// mock_specs/, reports in mock_golden/ (the shared runner of fbc_run.h).
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <fstream>

namespace fbc::rt::e2e {
namespace {

// A spec from mock_specs/ with the gateway fixture's path and port too.
struct MockSpec : Spec {
  uint16_t gwPort = freePort();
  explicit MockSpec(const std::string &name) : Spec(name) {
    while (gwPort == kvPort || gwPort == apiPort)
      gwPort = freePort();
    std::string text = readFile(dir.file("spec.star"));
    for (auto [from, to] : {std::pair<std::string, std::string>{"@GW_BIN@", FBC_FIXTURE_GW},
                            {"@GW_PORT@", std::to_string(gwPort)}})
      for (size_t p; (p = text.find(from)) != std::string::npos;)
        text.replace(p, from.size(), to);
    std::ofstream(dir.file("spec.star")) << text;
    // The contract client_contract.star's mock and clients read.
    std::ofstream(dir.file("orders.openapi.yaml"))
        << readFile(std::string(FBC_RUN_SPECS) + "/orders.openapi.yaml");
    std::ofstream(dir.file("client_binding.openapi.yaml"))
        << readFile(std::string(FBC_RUN_SPECS) + "/client_binding.openapi.yaml");
    // grpc_mock.star's descriptor set, made by protoc at build time from
    // tests/fixtures/grpc_orders.proto.
    std::ofstream(dir.file("orders.pb"), std::ios::binary) << readFile(FBC_FIXTURE_GRPC_PB);
  }
  // The gateway's port, and the folder of fbc's own binaries (where
  // fbc-kafka-mock, a kafka mock's process, lives: the build folder).
  std::string normalized(std::string out) const {
    std::string gw = std::to_string(gwPort);
    for (size_t p; (p = out.find(gw)) != std::string::npos;)
      out.replace(p, gw.size(), "$GW_PORT");
    std::string bin = std::filesystem::path(FBC_BINARY).parent_path().string() + "/";
    for (size_t p; (p = out.find(bin)) != std::string::npos;)
      out.replace(p, bin.size(), "$FBC_BIN_DIR/");
    return out;
  }
};

// The JSON report of `test` alone, which passes.
FbcRun jsonReport(const MockSpec &spec, const char *test) {
  FbcRun j =
      runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--format=json", "--test", test},
             spec.dir.path());
  EXPECT_EQ(j.exit, 0) << j.out << j.err;
  return j;
}

// The JSON report of `test` alone, against mock_golden/<spec>.json.
void traceGolden(const MockSpec &spec, const char *test) {
  checkGolden(spec.name, spec.normalized(normalizeJson(jsonReport(spec, test).out, spec)), ".json");
}

TEST(FbcRunMock, HttpMockRoutesDynamicAndBehindAService) {
  MockSpec spec("http_mock");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  checkGolden("http_mock", spec.normalized(normalize(r.out, spec)));
  // The trace of one test, whole: the mock's lifecycle and its requests
  // (interface, method, path, route, status, sizes) between the steps.
  traceGolden(spec, "test_dynamic_route");
}

TEST(FbcRunMock, RedisMockIsARealSeededRedisServer) {
  MockSpec spec("redis_mock");
  runWithGolden(spec, 0);
  FbcRun j = jsonReport(spec, "test_seeded_state");
  EXPECT_TRUE(contains(j.out, "\"binary\": \"/usr/bin/redis-server\"")) << j.out;
}

// The reference's keyword form of the Redis steps: get(key=), set(key=,
// value=), ... return a response; bad keywords fail the test with fbc's
// message; the reference corpus's redis_basic.star passes.
TEST(FbcRunMock, RedisStepKeywordForm) {
  MockSpec keywords("redis_keywords");
  runWithGolden(keywords, 2);
  MockSpec basic("redis_basic");
  runWithGolden(basic, 0);
}

// client() (issue #15): the reference's RFC-055 spec (two clients on one
// OpenAPI contract, the mock generated from the same contract) and more:
// POST with a body, call() by operationId, before=, a proxy fault that
// breaks the contract, validate="strict" and a misspelled argument (the
// last two fail with fbc's messages). The JSON trace of the reference's
// contract-violation test: client_call, the mock's request, client_return
// and contract_violation, each with the client as its service.
TEST(FbcRunMock, ClientContractSpec) {
  MockSpec spec("client_contract");
  runWithGolden(spec, 2);
  traceGolden(spec, "test_contract_violation_is_visible");
}

// A client() call on the wire (docs/run.md "Clients"): base_path=, the
// percent-encoded path parameter, sorted query parameters with a list
// repeating its key, header precedence, one Cookie header.
TEST(FbcRunMock, ClientCallBinding) {
  MockSpec spec("client_binding");
  runWithGolden(spec, 0);
}

// The Kafka mock (kafka_mock.star): librdkafka's mock cluster hosted by
// fbc-kafka-mock, ready by a Metadata request, its topics created, fresh
// per test; the publish and consume steps over librdkafka against it, and a
// producer/consumer service written with librdkafka reading what a step
// published.
TEST(FbcRunMock, KafkaMockAndSteps) {
  MockSpec spec("kafka_mock");
  runWithGolden(spec, 2);
}

// Kafka faults through fbc's proxy (kafka_proxy.star): the mock advertises
// the proxy's port, so the producer and consumer services (librdkafka) and
// the steps all talk through it; duplicate(topic=) storing the producer's
// record twice and the consumer reading it twice (both deliveries stdout
// events in the trace), drop() losing it, delay() in the step's duration,
// error() answering the Produce with the message's error code with another
// topic passing, response() accepting it with no offset, the reference's recipes, and a rule on a
// topic nobody produces to fault_bypassed. In the JSON report of the duplicate: the proxy event
// with its topic, then both deliveries as the consumer's stdout events (compared by their fields:
// when the consumer's lines are read against the steps' own events is the scheduler's choice, so
// the whole report is no golden).
TEST(FbcRunMock, KafkaFaultsThroughTheProxy) {
  MockSpec spec("kafka_proxy");
  runWithGolden(spec, 0);
  FbcRun j = jsonReport(spec, "test_duplicate_reaches_the_consumer_twice");
  std::vector<std::string> seen; // proxy and stdout events and the topics of each, in order
  for (const std::string &m : allMatches(j.out, R"re("(?:type|topic)": "([^"]*)")re"))
    if (m == "proxy" || m == "stdout" || m == "orders")
      seen.push_back(m);
  // The step_send/step_recv of the consume steps name payments, not orders.
  EXPECT_EQ(seen,
            (std::vector<std::string>{"proxy", "orders", "stdout", "orders", "stdout", "orders"}))
      << j.out;
  EXPECT_EQ(allMatches(j.out, R"re("action": "([a-z]+)")re"),
            (std::vector<std::string>{"duplicate"}));
}

// max_fires=2 mode="exhaustive" on a Kafka error() rule (kafka_modes.star):
// four leaves, each pinning which of the two matching Produces is refused
// (return values in leaf order), the other topic always passing; plan =
// run, the bundle manifest's leaves included; the JSON report's proxy
// events carry the topic.
TEST(FbcRunMock, KafkaRuleModesAndPlanEqualsRun) {
  MockSpec spec("kafka_modes");
  FbcRun run =
      expectRuleModeLeaves(spec, 0, kReturnedList,
                           {R"([\"ok\", \"ok\", \"ok\"])", R"([\"err\", \"ok\", \"ok\"])",
                            R"([\"ok\", \"ok\", \"err\"])", R"([\"err\", \"ok\", \"err\"])"});
  checkGolden("kafka_modes", spec.normalized(normalizeJson(run.out, spec)), ".json");
}

// gRPC mocks (grpc_mock.star): served in-process over HTTP/2, typed
// replies encoded with the descriptor set protoc made of grpc_orders.proto,
// an error route, raw bytes, a dynamic handler reading the request as a
// dict, default= and UNIMPLEMENTED; called by the gRPC step, by a typed
// client(descriptors=) and by a real grpc++ client; a proxy rule in front
// of the mock answering the typed client's call; a method the service lacks
// and a body field its message lacks as error rows. The JSON trace of the
// typed client's test: client_call, the mock's event, client_return.
TEST(FbcRunMock, GrpcMockServedAndTypedClient) {
  MockSpec spec("grpc_mock");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  checkGolden("grpc_mock", spec.normalized(normalize(r.out, spec)));
  traceGolden(spec, "test_typed_client");
}

TEST(FbcRunMock, MongoMocksAreExactErrorRows) {
  MockSpec spec("unsupported_mocks");
  runWithGolden(spec, 2);
  FbcRun plan = runFbc({"plan", spec.path}, spec.dir.path());
  EXPECT_EQ(plan.exit, 0) << plan.out << plan.err;
  EXPECT_TRUE(contains(plan.out, "Total: 2 plan instances")) << plan.out;
}

// plan = run for the mock specs, as for every other spec.
TEST(FbcRunMock, PlanEqualsRun) {
  for (const char *name : {"http_mock", "redis_mock", "redis_keywords", "redis_basic",
                           "unsupported_mocks", "client_contract", "kafka_mock", "grpc_mock"}) {
    MockSpec spec(name);
    expectPlanTotalEqualsRunRows(spec);
  }
}

} // namespace
} // namespace fbc::rt::e2e
