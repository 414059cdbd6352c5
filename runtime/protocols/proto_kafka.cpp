#include "runtime/protocols/proto_kafka.h"

#include <algorithm>
#include <charconv>

namespace fbc::rt {

namespace {

// Produce's first flexible version: compact strings and arrays, tagged
// fields, and the request header with its own tagged fields.
constexpr int16_t kProduceFlexible = 9;

// Produce's body after the header: transactional id (v3 on), acks,
// timeout, then per topic its partitions (each with its record batch).
bool parseProduce(KafkaReader &r, KafkaRequest &req) {
  bool compact = req.apiVersion >= kProduceFlexible;
  if (req.apiVersion >= 3)
    r.string(compact);
  req.acks = r.int16();
  r.int32(); // timeout_ms
  for (uint64_t t = r.count(compact); r.ok && t > 0; --t) {
    KafkaTopicPartitions topic;
    topic.name = std::string(r.string(compact));
    for (uint64_t p = r.count(compact); r.ok && p > 0; --p) {
      topic.partitions.push_back(r.int32());
      r.skipBytes(compact);
      if (compact)
        r.skipTaggedFields();
    }
    if (compact)
      r.skipTaggedFields();
    req.topics.push_back(std::move(topic));
  }
  return r.ok;
}

} // namespace

KafkaParse parseKafkaRequest(std::string_view s, KafkaRequest &req) {
  if (s.size() < 4)
    return KafkaParse::NeedMore;
  KafkaReader size{s};
  auto n = static_cast<int32_t>(size.fixed(4));
  // The smallest request header: key, version, correlation id, client id length.
  if (n < 10 || size_t(n) > kKafkaMaxFrame)
    return KafkaParse::Bad;
  // The header's fixed part says whether this is Kafka before the frame is whole.
  if (s.size() >= 8) {
    KafkaReader h{s.substr(4)};
    int16_t key = h.int16(), version = h.int16();
    if (key < 0 || key > 1000 || version < 0 || version > 100)
      return KafkaParse::Bad;
  }
  if (s.size() - 4 < size_t(n))
    return KafkaParse::NeedMore;
  req = KafkaRequest{};
  req.length = 4 + size_t(n);
  KafkaReader r{s.substr(4, size_t(n))};
  req.apiKey = r.int16();
  req.apiVersion = r.int16();
  req.correlationId = r.int32();
  req.clientId = r.string(false); // not compact, even in header v2
  if (!r.ok)
    return KafkaParse::Bad;
  if (req.apiKey != kKafkaProduce)
    return KafkaParse::Request; // the rest is the request's own
  if (req.apiVersion >= kProduceFlexible)
    r.skipTaggedFields();
  return parseProduce(r, req) ? KafkaParse::Request : KafkaParse::Bad;
}

int16_t kafkaErrorCode(std::string_view message) {
  constexpr std::string_view kLabel = "(error code ";
  size_t at = message.find(kLabel);
  if (at == std::string_view::npos)
    return -1;
  std::string_view digits = message.substr(at + kLabel.size());
  int code = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), code);
  if (ec != std::errc() || end == digits.data() + digits.size() || *end != ')' || code < -1 ||
      code > 32767)
    return -1;
  return static_cast<int16_t>(code);
}

std::string kafkaProduceResponse(int16_t version, int32_t id,
                                 const std::vector<KafkaTopicPartitions> &topics, int16_t errorCode,
                                 std::string_view message) {
  bool compact = version >= kProduceFlexible;
  KafkaWriter w;
  w.int32(id);
  if (compact)
    w.noTaggedFields(); // the response header's
  w.count(topics.size(), compact);
  for (const KafkaTopicPartitions &t : topics) {
    w.string(t.name, compact).count(t.partitions.size(), compact);
    for (int32_t p : t.partitions) {
      w.int32(p).int16(errorCode).int64(-1); // base_offset: none
      if (version >= 2)
        w.int64(-1); // log_append_time_ms
      if (version >= 5)
        w.int64(-1); // log_start_offset
      if (version >= 8) {
        w.count(0, compact); // record_errors
        if (message.empty() || errorCode == 0)
          w.null(compact);
        else
          w.string(message, compact);
      }
      if (compact)
        w.noTaggedFields();
    }
    if (compact)
      w.noTaggedFields();
  }
  if (version >= 1)
    w.int32(0); // throttle_time_ms
  if (compact)
    w.noTaggedFields();
  return w.framed();
}

RequestInfo KafkaCodec::splitRequest(std::string_view pending) {
  RequestInfo info;
  KafkaRequest req;
  switch (parseKafkaRequest(pending, req)) {
  case KafkaParse::NeedMore:
    return info;
  case KafkaParse::Bad:
    info.split = Split::NotThisProtocol;
    info.length = pending.size();
    return info;
  case KafkaParse::Request:
    break;
  }
  info.length = req.length;
  info.last = true;
  bool produce = req.apiKey == kKafkaProduce;
  if (!produce) {
    owed_.push_back({req.correlationId, false});
    info.split = Split::Passthrough;
    return info;
  }
  info.split = Split::Request;
  info.method = "Produce";
  info.target = req.topics.empty() ? "" : req.topics.front().name;
  info.noReply = req.acks == 0;
  if (!info.noReply)
    owed_.push_back({req.correlationId, true});
  last_ = std::move(req);
  return info;
}

size_t KafkaCodec::feedResponse(std::string_view bytes, std::string &) {
  size_t ended = 0;
  while (!serverUnframed_ && !bytes.empty()) {
    if (skip_ > 0) {
      size_t n = size_t(std::min<uint64_t>(skip_, bytes.size()));
      skip_ -= n;
      bytes.remove_prefix(n);
      continue;
    }
    size_t n = std::min(sizeof head_ - headLength_, bytes.size());
    bytes.copy(head_ + headLength_, n);
    headLength_ += n;
    bytes.remove_prefix(n);
    if (headLength_ < sizeof head_)
      break;
    headLength_ = 0;
    KafkaReader h{std::string_view(head_, sizeof head_)};
    auto size = static_cast<int32_t>(h.fixed(4));
    int32_t id = h.int32();
    if (size < 4) {
      serverUnframed_ = true;
      break;
    }
    skip_ = uint64_t(size) - 4;
    if (!owed_.empty() && owed_.front().correlationId == id) {
      lastWasProduce_ = owed_.front().produce;
      lastId_ = id;
      owed_.pop_front();
      ended += lastWasProduce_ ? 1 : 0;
    } else if (lastWasProduce_ && lastId_ == id) {
      ++ended; // a duplicate()'s second copy answered
    } else {
      serverUnframed_ = true; // a response to no request we saw
    }
  }
  return ended;
}

std::string KafkaCodec::reply(const ReplySpec &spec, const RequestInfo &req) {
  if (req.noReply)
    return "";
  // The proxy answers in the broker's place: the Produce is owed no
  // response of the server's.
  if (!owed_.empty() && owed_.back().produce && owed_.back().correlationId == last_.correlationId)
    owed_.pop_back();
  bool error = spec.kind == ReplyKind::Error;
  return kafkaProduceResponse(last_.apiVersion, last_.correlationId, last_.topics,
                              error ? kafkaErrorCode(spec.message) : 0,
                              error ? std::string_view(spec.message) : std::string_view());
}

} // namespace fbc::rt
