// What the supervisor starts for a mock_service: an HTTP or gRPC mock
// in-process (runtime/mock/mock_http.h, mock_grpc.h), a Redis mock as a real redis-server on the
// mock's port, seeded with its config's `state` before it counts as ready, a Kafka mock as
// fbc-kafka-mock (librdkafka's mock cluster, kafka_broker.c). Other mocks cannot run here (their
// ir::HostNeed, recorded by mock_service(), says why).
#pragma once

#include "ir/spec.h"
#include "runtime/mock/mock_http.h"
#include "runtime/proxy/proxy.h"
#include "runtime/supervisor/service.h"

#include <string>
#include <vector>

namespace fbc::rt {

// Like launchConfig() (runtime/supervisor/launch_config.h), for mock `s`.
ServiceSpec mockServiceSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                            std::vector<int> trapped, const std::vector<ProxyEndpoint> &proxies,
                            const std::string &scratch, const MockRunContext &ctx);

// The Redis mock's seed: SET key value for each `state` entry of its
// config (string values as they are, other JSON values as JSON text), in
// key order. False (and why) when the config is not what redis.star makes.
bool redisSeed(const std::string &configJson, std::vector<std::pair<std::string, std::string>> &out,
               std::string &error);

// fbc-kafka-mock's arguments for a Kafka mock on `port` (advertising
// `advertisePort` when not 0) with config={"topics": {name: []},
// "partitions": n} as kafka.star makes it: each topic created empty with n
// partitions (default 1). False (and why) for another config, or a topic
// given records (fbc does not produce them).
bool kafkaMockArgs(const std::string &configJson, int port, uint16_t advertisePort,
                   std::vector<std::string> &out, std::string &error);

} // namespace fbc::rt
