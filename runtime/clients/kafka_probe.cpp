// The Kafka readiness probe: see kafka_probe.h.
#include "runtime/clients/kafka_probe.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/protocols/proto_kafka.h"
#include "runtime/trace/trace.h"

#include <unistd.h>

namespace fbc::rt {

namespace {

constexpr int16_t kMetadataKey = 3;
constexpr int16_t kMetadataVersion = 1;
constexpr size_t kMaxResponse = 1 << 20; // a cluster's metadata without topics is small

} // namespace

std::string kafkaMetadataRequest(int32_t id) {
  return KafkaWriter()
      .int16(kMetadataKey)
      .int16(kMetadataVersion)
      .int32(id)
      .string("fbc", false) // client_id
      .int32(0)             // topics: none (v1: an empty array asks for no topic)
      .framed();
}

std::string kafkaMetadataReady(std::string_view body, int32_t id) {
  KafkaReader r{body};
  if (r.int32() != id && r.ok)
    return "response correlation id does not match the request";
  int32_t brokers = r.int32();
  for (int32_t i = 0; r.ok && i < brokers; ++i) {
    r.int32();       // node_id
    r.string(false); // host
    r.int32();       // port
    r.string(false); // rack (nullable)
  }
  int32_t controller = r.int32();
  if (!r.ok)
    return "truncated Metadata response";
  if (brokers <= 0)
    return "Metadata names no broker yet";
  if (controller < 0)
    return "Metadata names no controller yet (" + std::to_string(controller) + ")";
  return "";
}

bool probeKafka(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error) {
  int64_t deadline = monotonicNs() + timeoutMs * 1000000;
  int fd = dialTcp(host, port, deadline, nullptr, error);
  if (fd < 0)
    return false;
  constexpr int32_t kId = 1;
  error = sendAll(fd, kafkaMetadataRequest(kId), deadline, nullptr);
  std::string in;
  size_t want = 4;
  while (error.empty() && in.size() < want) {
    long n = recvSome(fd, in, deadline, nullptr, error);
    if (n == 0 && error.empty())
      error = "connection closed before the Metadata response";
    if (want == 4 && in.size() >= 4) {
      KafkaReader size{in};
      int32_t len = size.int32();
      if (len < 0 || size_t(len) > kMaxResponse)
        error = "Metadata response size " + std::to_string(len) + " is not a Kafka frame";
      want = 4 + size_t(len);
    }
  }
  close(fd);
  if (!error.empty())
    return false;
  error = kafkaMetadataReady(std::string_view(in).substr(4, want - 4), kId);
  return error.empty();
}

} // namespace fbc::rt
