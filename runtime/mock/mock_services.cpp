#include "runtime/mock/mock_services.h"

#include "ir/mock.h"
#include "runtime/clients/redis_step.h"
#include "runtime/supervisor/launch_config.h"

#include <simdjson.h>

namespace fbc::rt {

namespace {

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
  r.healthcheck = ir::Healthcheck{ir::HealthcheckKind::Redis, "redis://localhost:" + port,
                                  10'000'000'000LL,           s.loc,
                                  ir::Address{"", i.port},    ""};
  return r;
}

} // namespace

bool redisSeed(const std::string &configJson, std::vector<std::pair<std::string, std::string>> &out,
               std::string &error) {
  if (configJson.empty())
    return true;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(configJson).get(root)) {
    error = "config is not JSON";
    return false;
  }
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

// The mocks served by a real server, attached to the entries of
// ir/protocols.h whose mock is Served; the others (http) are served in
// process.
struct MockServer {
  std::string_view protocol;
  ServiceSpec (*spec)(const ir::Spec &, const ir::Service &, const std::string &, std::vector<int>,
                      const std::vector<ProxyEndpoint> &, const std::string &);
};
constexpr MockServer kMockServers[] = {{"redis", redisMockSpec}};

} // namespace

ServiceSpec mockServiceSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                            std::vector<int> trapped, const std::vector<ProxyEndpoint> &proxies,
                            const std::string &scratch, const MockRunContext &ctx) {
  for (const MockServer &m : kMockServers)
    if (m.protocol == s.interfaces.front().protocol)
      return m.spec(spec, s, dir, std::move(trapped), proxies, scratch);
  // An HTTP mock: no process, so nothing to trap or launch.
  ServiceSpec out = launchConfig(spec, s, dir, {}, proxies, scratch);
  out.health = {};
  out.inProcess = std::make_shared<HttpMock>(s, ctx);
  return out;
}

} // namespace fbc::rt
