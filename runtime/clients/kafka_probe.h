// kafka_ready(addr): a broker is ready when it answers a Kafka Metadata
// request (API key 3, version 1) naming at least one broker and a
// controller, the state in which producers and consumers can bootstrap.
// One request over fbc's socket helpers (no client needed for it), read
// with the proxy's Kafka reader (runtime/protocols/proto_kafka.h); the
// request and the response's framing follow the Kafka protocol guide.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fbc::rt {

bool probeKafka(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error);

// The Metadata v1 request probeKafka() sends (correlation id `id`, client
// id "fbc", no topics), framed with its size.
std::string kafkaMetadataRequest(int32_t id);

// Reads a framed Metadata v1 response body (after the size): "" when it
// names a broker and a controller, else why not ("no broker registered
// yet", "no controller yet (-1)", "truncated response", ...).
std::string kafkaMetadataReady(std::string_view body, int32_t id);

} // namespace fbc::rt
