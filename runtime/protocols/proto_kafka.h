// The Kafka wire protocol (kafka.apache.org/protocol), as the fault proxy
// reads it. Every request and response is a frame: an int32 size, then
// the bytes. A request begins with its header, api_key int16, api_version
// int16, correlation_id int32, client_id (a nullable string), and in
// flexible versions (Produce v9 on) a tagged-field section; a response
// begins with the request's correlation_id. A broker answers the requests
// of one connection in the order they came, and a Produce with acks=0 not
// at all.
//
// The proxy codec of interface(protocol="kafka"): a request is one Produce
// (api key 0), RequestInfo::method "Produce", target the first topic it
// carries records for (the topics and partitions of every version up to
// v9 are read); every other request (ApiVersions, Metadata, Fetch, offsets,
// groups) passes through undecided. A frame too short or too long for a
// Kafka request (over kKafkaMaxFrame), or a header no Kafka request has,
// turns the rest of the connection into plain TCP. The server's frames
// are counted, never buffered: their correlation ids say which responses
// are a Produce's (owed) and which a passed request's. A response repeating
// the correlation id of the Produce answered just before is the second
// copy's of a duplicate() (the proxy sent the frame twice; the client
// ignores the repeat, librdkafka as a response to a request it has no
// more).
//
// reply(): Error -> a Produce response giving every partition of the
// request the error code, read off the rule's message "(error code N)" as
// the reference's recipes write it ("NotLeaderForPartitionException (error
// code 6): ..."), else UNKNOWN_SERVER_ERROR (-1); v8 on also carries the
// message. Response -> the same with error code 0 and no offset: the
// producer believes the broker stored records it never saw. Nothing for
// an acks=0 Produce.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::rt {

// A frame larger than this is not Kafka (the broker's default
// socket.request.max.bytes).
inline constexpr size_t kKafkaMaxFrame = size_t(100) << 20;

inline constexpr int16_t kKafkaProduce = 0;

// Big-endian and varint reads off one frame (the proxy's framing, the
// readiness probe's Metadata answer), failing once past its end: `ok`
// false and zeros from then on.
struct KafkaReader {
  std::string_view in;
  size_t at = 0;
  bool ok = true;

  uint64_t fixed(size_t n) {
    if (!ok || in.size() - at < n) {
      ok = false;
      return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i)
      v = (v << 8) | static_cast<unsigned char>(in[at + i]);
    at += n;
    return v;
  }
  int16_t int16() { return static_cast<int16_t>(fixed(2)); }
  int32_t int32() { return static_cast<int32_t>(fixed(4)); }
  uint64_t uvarint() {
    uint64_t v = 0;
    for (int shift = 0; ok && shift < 64; shift += 7) {
      auto b = static_cast<unsigned char>(fixed(1));
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
    }
    ok = false;
    return 0;
  }
  std::string_view bytes(uint64_t n) {
    if (!ok || in.size() - at < n) {
      ok = false;
      return {};
    }
    std::string_view v = in.substr(at, n);
    at += n;
    return v;
  }
  // A (nullable) string or bytes: int16 / int32 length, -1 null; compact
  // forms: uvarint length + 1, 0 null.
  std::string_view string(bool compact) {
    if (compact) {
      uint64_t n = uvarint();
      return n == 0 ? std::string_view() : bytes(n - 1);
    }
    int16_t n = int16();
    return n < 0 ? std::string_view() : bytes(uint64_t(n));
  }
  void skipBytes(bool compact) {
    if (compact) {
      uint64_t n = uvarint();
      if (n > 0)
        bytes(n - 1);
      return;
    }
    int32_t n = int32();
    if (n > 0)
      bytes(uint64_t(n));
  }
  // An array's element count (-1 or compact 0: null, as none).
  uint64_t count(bool compact) {
    if (compact) {
      uint64_t n = uvarint();
      return n == 0 ? 0 : n - 1;
    }
    int32_t n = int32();
    return n < 0 ? 0 : uint64_t(n);
  }
  void skipTaggedFields() {
    for (uint64_t n = uvarint(); ok && n > 0; --n) {
      uvarint(); // tag
      bytes(uvarint());
    }
  }
};

// KafkaReader's writes: a frame's body built big-endian, framed() giving it
// with its int32 size in front (the proxy's replies, the readiness probe's
// Metadata request).
struct KafkaWriter {
  std::string body;

  KafkaWriter &fixed(uint64_t v, size_t n) {
    for (size_t i = n; i-- > 0;)
      body.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return *this;
  }
  KafkaWriter &int16(int16_t v) { return fixed(uint16_t(v), 2); }
  KafkaWriter &int32(int32_t v) { return fixed(uint32_t(v), 4); }
  KafkaWriter &int64(int64_t v) { return fixed(uint64_t(v), 8); }
  KafkaWriter &uvarint(uint64_t v) {
    for (; v >= 0x80; v >>= 7)
      body.push_back(static_cast<char>((v & 0x7f) | 0x80));
    body.push_back(static_cast<char>(v));
    return *this;
  }
  KafkaWriter &string(std::string_view s, bool compact) {
    compact ? uvarint(s.size() + 1) : fixed(s.size(), 2);
    body.append(s);
    return *this;
  }
  // A null string: int16 -1, compact 0.
  KafkaWriter &null(bool compact) { return compact ? uvarint(0) : int16(-1); }
  KafkaWriter &count(size_t n, bool compact) { return compact ? uvarint(n + 1) : fixed(n, 4); }
  // An empty tagged-field section (flexible versions).
  KafkaWriter &noTaggedFields() { return uvarint(0); }
  std::string framed() const {
    KafkaWriter out;
    out.body.reserve(4 + body.size());
    out.fixed(body.size(), 4).body.append(body);
    return std::move(out.body);
  }
};

struct KafkaTopicPartitions {
  std::string name;
  std::vector<int32_t> partitions;
};

// One request's header, and for a Produce its body's topics.
struct KafkaRequest {
  int16_t apiKey = 0, apiVersion = 0;
  int32_t correlationId = 0;
  std::string_view clientId;
  int16_t acks = -1; // Produce
  std::vector<KafkaTopicPartitions> topics;
  size_t length = 0; // the frame's bytes, its size included
};

enum class KafkaParse {
  NeedMore, // no whole frame yet
  Request,  // `req` is set
  Bad,      // not a Kafka request
};

KafkaParse parseKafkaRequest(std::string_view stream, KafkaRequest &req);

// The error code a rule's message gives as "(error code N)", else -1
// (UNKNOWN_SERVER_ERROR).
int16_t kafkaErrorCode(std::string_view message);

// The Produce response of version `version` to correlation id `id` giving
// every partition of `topics` `errorCode` (and, v8 on, `message` unless
// empty), framed with its size.
std::string kafkaProduceResponse(int16_t version, int32_t id,
                                 const std::vector<KafkaTopicPartitions> &topics, int16_t errorCode,
                                 std::string_view message);

class KafkaCodec final : public ProtocolCodec {
public:
  RequestInfo splitRequest(std::string_view pending) override;
  size_t feedResponse(std::string_view bytes, std::string &status) override;
  std::string reply(const ReplySpec &spec, const RequestInfo &req) override;

private:
  // The responses the server owes, in order: a Produce's (counted as a
  // reply the proxy waits for) or a passed request's.
  struct Owed {
    int32_t correlationId;
    bool produce;
  };
  std::deque<Owed> owed_;
  KafkaRequest last_;           // the last Produce split (reply() answers it)
  char head_[8] = {};           // a response's size and correlation id, as read
  size_t headLength_ = 0;       // bytes of head_ read
  uint64_t skip_ = 0;           // bytes of the current response still to pass
  bool lastWasProduce_ = false; // the response before was a Produce's ...
  int32_t lastId_ = 0;          // ... with this correlation id
  bool serverUnframed_ = false; // the server's stream stopped parsing: counted no more
};

} // namespace fbc::rt
