#include "runtime/mock/mock_services.h"

#include "ir/mock.h"
#include "ir/protocols.h"
#include "runtime/clients/redis_step.h"
#include "runtime/mock/mock_grpc.h"
#include "runtime/os/helper_binary.h"
#include "runtime/supervisor/launch_config.h"

#include <simdjson.h>

#include <functional>

namespace fbc::rt {

namespace {

// A mock server's readiness: `kind`'s probe on its interface's port, 10 s.
ir::Healthcheck mockReadiness(const ir::Service &s, ir::HealthcheckKind kind,
                              std::string_view scheme) {
  const ir::Interface &i = s.interfaces.front();
  return ir::Healthcheck{kind,
                         std::string(scheme) + "://localhost:" + std::to_string(i.port),
                         10'000'000'000LL,
                         s.loc,
                         ir::Address{"", i.port},
                         ""};
}

// Reads the mock's config= JSON with `read`, unless none was given: false
// (and why) when it is not JSON or `read` refuses it.
bool readMockConfig(const std::string &json, std::string &error,
                    const std::function<bool(simdjson::dom::element root)> &read) {
  if (json.empty())
    return true;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json).get(root)) {
    error = "config is not JSON";
    return false;
  }
  return read(root);
}

// redis-server in the foreground on the mock's port, nothing persisted,
// its files (none expected) in the leaf's scratch directory.
ir::Service redisServer(const ir::Service &s, const std::string &scratch) {
  ir::Service r = s;
  const ir::Interface &i = s.interfaces.front();
  std::string port = std::to_string(i.port);
  r.binary = "redis-server";
  r.args = {"--port",       port, "--bind",           "127.0.0.1", "--save",      "",
            "--appendonly", "no", "--protected-mode", "no",        "--daemonize", "no"};
  if (!scratch.empty())
    r.args.insert(r.args.end(), {"--dir", scratch});
  r.healthcheck = mockReadiness(s, ir::HealthcheckKind::Redis, "redis");
  return r;
}

} // namespace

bool redisSeed(const std::string &configJson, std::vector<std::pair<std::string, std::string>> &out,
               std::string &error) {
  return readMockConfig(configJson, error, [&](simdjson::dom::element root) {
    simdjson::dom::element state;
    if (root["state"].get(state))
      return true; // no state: an empty server
    simdjson::dom::object obj;
    if (state.get(obj)) {
      error = "redis mock state must be a dict of key to value";
      return false;
    }
    for (auto [key, value] : obj) {
      std::string_view s;
      if (!value.get(s))
        out.emplace_back(std::string(key), std::string(s));
      else
        out.emplace_back(std::string(key), simdjson::minify(value));
    }
    return true;
  });
}

bool kafkaMockArgs(const std::string &configJson, int port, uint16_t advertisePort,
                   std::vector<std::string> &out, std::string &error) {
  out = {"--port", std::to_string(port)};
  if (advertisePort)
    out.insert(out.end(), {"--advertise-port", std::to_string(advertisePort)});
  return readMockConfig(configJson, error, [&](simdjson::dom::element root) {
    int64_t partitions = 1;
    if (simdjson::dom::element p;
        !root["partitions"].get(p) && (p.get(partitions) || partitions < 1 || partitions > 1000)) {
      error = "kafka mock partitions must be a whole number from 1 to 1000";
      return false;
    }
    out.insert(out.end(), {"--partitions", std::to_string(partitions)});
    simdjson::dom::element topics;
    if (root["topics"].get(topics))
      return true;
    simdjson::dom::object obj;
    if (topics.get(obj)) {
      error = "kafka mock topics must be a dict of topic name to records";
      return false;
    }
    for (auto [name, records] : obj) {
      simdjson::dom::array list;
      if (name.empty() || records.get(list) || list.size() != 0) {
        error = "kafka mock topic " + std::string(name) +
                ": fbc creates topics empty (a topic's records must be [])";
        return false;
      }
      out.insert(out.end(), {"--topic", std::string(name)});
    }
    return true;
  });
}

namespace {

// A Redis mock: a real redis-server on the interface's port, seeded from
// config={"state": {...}} once it is ready.
ServiceSpec redisMockSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                          std::vector<int> trapped, const std::vector<ProxyEndpoint> &proxies,
                          const std::string &scratch) {
  ServiceSpec out =
      launchConfig(spec, redisServer(s, scratch), dir, std::move(trapped), proxies, scratch);
  std::string configJson = s.mock->configJson;
  uint16_t port = static_cast<uint16_t>(s.interfaces.front().port);
  out.afterReady = [configJson, port](std::string &error) {
    std::vector<std::pair<std::string, std::string>> kv;
    if (!redisSeed(configJson, kv, error))
      return false;
    for (const auto &[k, v] : kv) {
      RedisStepResult r = redisStep("127.0.0.1", port, {"SET", k, v}, [] { return false; });
      if (!r.ok || r.reply.type == RespValue::Type::Error) {
        error = "seeding " + k + ": " + (r.ok ? r.reply.str : r.error);
        return false;
      }
    }
    return true;
  };
  return out;
}

// A Kafka mock: fbc-kafka-mock (runtime/mock/kafka_broker.c, librdkafka's
// mock cluster) on the interface's port, its config's topics created,
// advertising the port of the proxy in front of the interface when the
// test has one, so that clients who bootstrapped through the proxy keep
// talking through it.
ServiceSpec kafkaMockSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                          std::vector<int> trapped, const std::vector<ProxyEndpoint> &proxies,
                          const std::string &scratch) {
  ir::Service k = s;
  const ir::Interface &i = s.interfaces.front();
  uint16_t advertised = 0;
  for (const ProxyEndpoint &p : proxies)
    if (p.serviceName == s.name && p.interface == i.name)
      advertised = p.proxyPort;
  // Not there: the start fails naming the path, never taking one on PATH.
  k.binary = helperBinaryPath("fbc-kafka-mock");
  std::string error;
  bool configured = kafkaMockArgs(s.mock->configJson, i.port, advertised, k.args, error);
  k.healthcheck = mockReadiness(s, ir::HealthcheckKind::Kafka, "kafka");
  ServiceSpec out = launchConfig(spec, k, dir, std::move(trapped), proxies, scratch);
  if (!configured) // a config kafka.star does not make: the mock fails its start
    out.afterReady = [error](std::string &why) {
      why = error;
      return false;
    };
  return out;
}

// The mocks served by a real server, attached to the entries of
// ir/protocols.h whose mock is Served; the others (http, grpc) are served
// in process.
struct MockServer {
  std::string_view protocol;
  ServiceSpec (*spec)(const ir::Spec &, const ir::Service &, const std::string &, std::vector<int>,
                      const std::vector<ProxyEndpoint> &, const std::string &);
};
constexpr MockServer kMockServers[] = {{"kafka", kafkaMockSpec}, {"redis", redisMockSpec}};

} // namespace

ServiceSpec mockServiceSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                            std::vector<int> trapped, const std::vector<ProxyEndpoint> &proxies,
                            const std::string &scratch, const MockRunContext &ctx) {
  for (const MockServer &m : kMockServers)
    if (m.protocol == s.interfaces.front().protocol)
      return m.spec(spec, s, dir, std::move(trapped), proxies, scratch);
  // An HTTP or gRPC mock: no process, so nothing to trap or launch.
  ServiceSpec out = launchConfig(spec, s, dir, {}, proxies, scratch);
  out.health = {};
  if (const ir::Protocol *p = ir::findProtocol(s.interfaces.front().protocol);
      p && p->http2 == ir::Http2::Grpc)
    out.inProcess = std::make_shared<GrpcMock>(s, ctx);
  else
    out.inProcess = std::make_shared<HttpMock>(s, ctx);
  return out;
}

} // namespace fbc::rt
