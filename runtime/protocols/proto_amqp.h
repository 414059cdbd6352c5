// AMQP 0-9-1 (the RabbitMQ protocol; the specification's section 4.2,
// "Protocol Header" and "Frame Format"), as the fault proxy reads it. The
// client opens with the protocol header "AMQP\0\0\9\1", then both sides
// send frames:
//
//   type (1: method, 2: content header, 3: content body, 8: heartbeat)
//   channel (2 bytes), size (4 bytes), payload (size bytes), frame-end 0xCE
//
// all integers big-endian. A method frame's payload begins with its class
// and method ids (Basic.Publish is 60/40: reserved short, exchange and
// routing key as short strings, the mandatory/immediate bits); a published
// message is the Basic.Publish frame, a content header frame (class, weight,
// body size, properties) and body frames carrying that many bytes, all on
// the publish's channel.
//
// The proxy codec of interface(protocol="amqp"): a request is one
// Basic.Publish with its content frames, RequestInfo::method its exchange
// ("" the default exchange), target its routing key; no reply is owed to
// it (publisher confirms are not counted). Every other frame passes through
// undecided; a stream that is not AMQP 0-9-1 turns the rest of the
// connection into plain TCP, and so does a publish whose content frames
// are interleaved with another channel's, or one larger than the proxy
// holds while it waits for a unit's end (proxy_conn.cpp: 64 MiB).
//
// reply(): Error -> the channel of the publish closed with a reply code,
// as a broker refuses a publish: Channel.Close(code, text) to the client
// for the specification's soft errors (403 ACCESS_REFUSED, 404, 405, 406,
// 311-313), Connection.Close for the hard ones (320 CONNECTION_FORCED,
// 402, 501-506, 504 CHANNEL_ERROR, 530, 540, 541). The code is error()'s
// status=, else the reply-code name the message starts with
// ("PRECONDITION_FAILED - ...", RabbitMQ's form and the reference's
// recipes'), else 406; the text is the message with the code's name in
// front when it has none. The server is sent the same close in the
// client's name in place of the publish (replacement()), so both ends agree
// the channel (or connection) is closed: until the client's Close-Ok the
// client's frames on it are discarded (Split::Discard), and the server's
// frames on it, its Close-Ok included, are kept from the client
// (filterResponse()). Response -> the message swallowed, nothing answered:
// the publisher believes it delivered.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

inline constexpr std::string_view kAmqpProtocolHeader{"AMQP\0\0\x09\x01", 8};
inline constexpr uint8_t kAmqpFrameMethod = 1, kAmqpFrameHeader = 2, kAmqpFrameBody = 3;
inline constexpr uint8_t kAmqpFrameEnd = 0xCE;
// A frame larger than this is not AMQP as fbc sees it (RabbitMQ's
// frame_max is at most 128 MiB, its default 128 KiB).
inline constexpr size_t kAmqpMaxFrame = size_t(128) << 20;

// The class and method ids fbc reads or writes.
inline constexpr uint16_t kAmqpConnection = 10, kAmqpChannel = 20, kAmqpBasic = 60;
inline constexpr uint16_t kAmqpClose = 40, kAmqpCloseOk = 41;         // Channel
inline constexpr uint16_t kAmqpConnClose = 50, kAmqpConnCloseOk = 51; // Connection
inline constexpr uint16_t kAmqpPublish = 40;                          // Basic

// One frame, its payload a view of the stream it was parsed from.
struct AmqpFrame {
  uint8_t type = 0;
  uint16_t channel = 0;
  std::string_view payload;
  uint16_t classId = 0, methodId = 0; // a method frame's
  size_t length = 0;                  // bytes of the stream, header and frame-end included
};

enum class AmqpParse {
  NeedMore, // no whole frame yet
  Frame,    // `frame` is set
  Bad,      // not an AMQP frame (a bad frame-end, an oversized or short frame)
};

AmqpParse parseAmqpFrame(std::string_view stream, AmqpFrame &frame);

// A method frame of class `cls`, method `method`, with `args` (encoded).
std::string amqpMethodFrame(uint16_t channel, uint16_t cls, uint16_t method, std::string_view args);
// Channel.Close's and Connection.Close's arguments: reply code, reply text
// (a short string: clipped to 255 bytes), the failing method's class and id.
std::string amqpCloseArgs(uint16_t code, std::string_view text, uint16_t cls, uint16_t method);

class AmqpCodec final : public ProtocolCodec {
public:
  RequestInfo splitRequest(std::string_view pending) override;
  size_t feedResponse(std::string_view bytes, std::string &status) override;
  std::string reply(const ReplySpec &spec, const RequestInfo &req) override;
  std::string replacement() override;
  bool filterResponse(std::string_view bytes, std::string &forward) override;

private:
  // A channel (0: the whole connection) the proxy closed on both ends,
  // until each end's Close-Ok.
  struct Closing {
    uint16_t channel = 0;
    bool client = true, server = true; // that end's Close-Ok is still to come
  };
  Closing *closing(uint16_t channel);
  void forget(uint16_t channel);
  bool serverFrameKept(uint8_t type, uint16_t channel, std::string_view method);

  bool headerPassed_ = false;
  uint16_t channel_ = 0; // of the publish split last
  std::vector<Closing> closing_;
  std::string replacement_; // for the server, in place of the publish reply() answered
  // The server's stream: where its frames begin (its protocol header, if
  // it refused the version, counts as a frame).
  bool serverStarted_ = false;
  std::string serverHead_;      // the start of a frame a read cut short (< 11 bytes)
  bool serverHeadSent_ = false; // ... already forwarded (no close was pending)
  size_t serverRest_ = 0;       // bytes of the current frame still to come
  bool serverDropping_ = false; // ... and whether they are kept from the client
  bool serverBad_ = false;      // the server's stream is not AMQP: forwarded unread
};

} // namespace fbc::rt
