// The AMQP 0-9-1 codec (runtime/protocols/proto_amqp.*): Basic.Publish
// framed with its content frames from a client's byte stream at every chunk
// boundary, with its exchange and routing key; the other frames passed
// through; what is not AMQP; the channel and connection closes a rule's
// error() makes, on both ends (the client's frames discarded up to its
// Close-Ok, the server's kept from the client up to its own), at every
// chunk boundary of the server's stream.
#include "ir/protocol_targets.h"
#include "runtime/protocols/proto_amqp.h"
#include "tests/unit/runtime/codec_split.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

std::string be16(uint16_t v) {
  return {static_cast<char>(v >> 8), static_cast<char>(v & 0xff)};
}
std::string be32(uint32_t v) {
  return be16(static_cast<uint16_t>(v >> 16)) + be16(static_cast<uint16_t>(v & 0xffff));
}
std::string shortStr(std::string_view s) {
  return std::string(1, static_cast<char>(s.size())) + std::string(s);
}

std::string frame(uint8_t type, uint16_t channel, std::string_view payload) {
  return std::string(1, static_cast<char>(type)) + be16(channel) +
         be32(static_cast<uint32_t>(payload.size())) + std::string(payload) + "\xCE";
}

// A Basic.Publish as librabbitmq sends it: the method, the content header
// (class 60, weight 0, body size, no properties), the body in frames of at
// most `chunk` bytes.
std::string publish(uint16_t ch, std::string_view exchange, std::string_view key,
                    std::string_view body, size_t chunk = 131064) {
  std::string out = amqpMethodFrame(ch, kAmqpBasic, kAmqpPublish,
                                    be16(0) + shortStr(exchange) + shortStr(key) + '\0');
  out += frame(kAmqpFrameHeader, ch,
               be16(kAmqpBasic) + be16(0) + be32(0) + be32(uint32_t(body.size())) + be16(0));
  for (size_t at = 0; at < body.size(); at += chunk)
    out += frame(kAmqpFrameBody, ch, body.substr(at, chunk));
  return out;
}

std::string method(uint16_t ch, uint16_t cls, uint16_t m, std::string_view args = "") {
  return amqpMethodFrame(ch, cls, m, args);
}

const std::string kHeader(kAmqpProtocolHeader);

TEST(ProtoAmqp, SplitsPublishesAndPassesTheRestAtEveryChunkSize) {
  std::string stream = kHeader + method(0, kAmqpConnection, 11, "start-ok") // Connection.Start-Ok
                       + method(1, kAmqpChannel, 10, shortStr(""))          // Channel.Open
                       + publish(1, "orders", "orders.created", "o-1") +
                       publish(2, "", "jobs", "abcdefg", 3)      // the body in three frames
                       + frame(8, 0, "")                         // a heartbeat
                       + publish(1, "orders", "orders.paid", "") // no body frame
                       + method(1, kAmqpChannel, kAmqpClose, amqpCloseArgs(200, "bye", 0, 0));
  expectUnitsAtEveryChunkSize<AmqpCodec>(stream, {
                                                     "pass ||8",
                                                     "pass ||20",
                                                     "pass ||13",
                                                     "request orders|orders.created|70|noreply",
                                                     "request |jobs|74|noreply",
                                                     "pass ||8",
                                                     "request orders|orders.paid|56|noreply",
                                                     "pass ||22",
                                                 });
}

TEST(ProtoAmqp, WhatIsNotAmqpIsNotFramed) {
  AmqpCodec http;
  EXPECT_EQ(http.splitRequest("GET / HTTP/1.1\r\n").split, Split::NotThisProtocol);
  AmqpCodec partial;
  EXPECT_EQ(partial.splitRequest("AMQ").split, Split::NeedMore);
  auto afterHeader = [](std::string_view bytes) {
    AmqpCodec c;
    EXPECT_EQ(c.splitRequest(kHeader).split, Split::Passthrough);
    return c.splitRequest(bytes).split;
  };
  std::string ok = method(1, kAmqpChannel, 10);
  std::string badEnd = ok;
  badEnd.back() = 'x';
  EXPECT_EQ(afterHeader(badEnd), Split::NotThisProtocol);
  EXPECT_EQ(afterHeader(frame(5, 0, "")), Split::NotThisProtocol); // no such frame type
  EXPECT_EQ(afterHeader(frame(kAmqpFrameMethod, 0, "ab")), Split::NotThisProtocol);
  EXPECT_EQ(afterHeader(ok.substr(0, ok.size() - 1)), Split::NeedMore);
  // A publish whose content comes on another channel (interleaved).
  std::string p = publish(1, "x", "k", "body");
  std::string other = p;
  other[p.find('\x02') + 2] = 2; // the content header's channel: 2
  EXPECT_EQ(afterHeader(other), Split::NotThisProtocol);
  EXPECT_EQ(afterHeader(p.substr(0, p.size() - 1)), Split::NeedMore);
  // A message of 2 MiB (16 body frames) is one request, decided whole: the
  // proxy holds a unit up to 64 MiB.
  AmqpCodec big;
  big.splitRequest(kHeader);
  std::string large = publish(1, "x", "k", std::string(size_t(2) << 20, 'b'));
  RequestInfo whole = big.splitRequest(large);
  EXPECT_EQ(whole.split, Split::Request);
  EXPECT_EQ(whole.length, large.size());
  EXPECT_EQ(big.splitRequest(large.substr(0, large.size() - 1)).split, Split::NeedMore);
}

ReplySpec errorSpec(std::string message, int status = 0) {
  ReplySpec s;
  s.message = std::move(message);
  s.status = status;
  return s;
}

// The server's bytes, fed `chunk` at a time: what the client gets.
std::string filtered(AmqpCodec &codec, std::string_view server, size_t chunk) {
  std::string got;
  for (size_t at = 0; at < server.size(); at += chunk) {
    std::string_view piece = server.substr(at, chunk);
    std::string forward;
    got += codec.filterResponse(piece, forward) ? forward : std::string(piece);
  }
  return got;
}

// error() on a publish on channel 3: Channel.Close(406) to the client, the
// same channel closed on the server in the client's name; until each end's
// Close-Ok its frames on channel 3 go nowhere, other channels' pass.
TEST(ProtoAmqp, AChannelCloseIsMadeOnBothEnds) {
  std::string connStart = method(0, kAmqpConnection, 10, "start"); // before the close
  std::string deliver1 = method(1, kAmqpBasic, 60, "deliver") + frame(kAmqpFrameHeader, 1, "h");
  std::string onThree = method(3, kAmqpBasic, 80, "ack"); // Basic.Ack on the closed channel
  std::string closeOk3 = method(3, kAmqpChannel, kAmqpCloseOk);
  std::string after = method(3, kAmqpChannel, 11, "open-ok"); // after the Close-Ok
  std::string server = connStart + deliver1 + onThree + closeOk3 + after + deliver1;
  for (size_t chunk = 1; chunk <= server.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    AmqpCodec c;
    c.splitRequest(kHeader);
    // The server's first frame passes before the rule fires.
    EXPECT_EQ(filtered(c, connStart, chunk), connStart);
    std::string p = publish(3, "orders", "orders.created", "o-1");
    RequestInfo req = c.splitRequest(p);
    ASSERT_EQ(req.split, Split::Request);
    EXPECT_EQ(c.reply(errorSpec("PRECONDITION_FAILED - inequivalent arg 'durable'"), req),
              method(3, kAmqpChannel, kAmqpClose,
                     amqpCloseArgs(406, "PRECONDITION_FAILED - inequivalent arg 'durable'",
                                   kAmqpBasic, kAmqpPublish)));
    EXPECT_EQ(c.replacement(), method(3, kAmqpChannel, kAmqpClose,
                                      amqpCloseArgs(200, "closed by fbc's proxy", 0, 0)));
    EXPECT_EQ(c.replacement(), "");
    EXPECT_EQ(filtered(c, server.substr(connStart.size()), chunk), deliver1 + after + deliver1);
    // The client's publish on channel 3 (sent before it saw the close) is
    // discarded, its Close-Ok too; channel 1 and what follows pass.
    EXPECT_EQ(c.splitRequest(p).split, Split::Discard);
    EXPECT_EQ(c.splitRequest(publish(1, "orders", "o", "x")).split, Split::Request);
    EXPECT_EQ(c.splitRequest(closeOk3).split, Split::Discard);
    EXPECT_EQ(c.splitRequest(method(3, kAmqpChannel, 10, shortStr(""))).split, Split::Passthrough);
  }
}

// The client's Close-Ok before the server's: its Channel.Open of the same
// channel waits (NeedMore) until the server's Close-Ok came, as RabbitMQ
// refuses an Open of a channel it has not forgotten yet.
TEST(ProtoAmqp, AReopenWaitsForTheServersCloseOk) {
  AmqpCodec c;
  c.splitRequest(kHeader);
  RequestInfo req = c.splitRequest(publish(1, "", "q", "x"));
  c.reply(errorSpec("PRECONDITION_FAILED - no"), req);
  EXPECT_EQ(c.splitRequest(method(1, kAmqpChannel, kAmqpCloseOk)).split, Split::Discard);
  std::string open = method(1, kAmqpChannel, 10, shortStr(""));
  EXPECT_EQ(c.splitRequest(open).split, Split::NeedMore);
  std::string forward;
  EXPECT_TRUE(c.filterResponse(method(1, kAmqpChannel, kAmqpCloseOk), forward));
  EXPECT_EQ(forward, "");
  EXPECT_EQ(c.splitRequest(open).split, Split::Passthrough);
}

// A hard error (CHANNEL_ERROR 504, the reference's channel_error recipe):
// Connection.Close on both ends; every channel's frames go nowhere up to
// the Close-Oks.
TEST(ProtoAmqp, AHardErrorClosesTheConnection) {
  AmqpCodec c;
  c.splitRequest(kHeader);
  RequestInfo req = c.splitRequest(publish(2, "", "q", "x"));
  EXPECT_EQ(
      c.reply(errorSpec("CHANNEL_ERROR - precondition failed"), req),
      method(0, kAmqpConnection, kAmqpConnClose,
             amqpCloseArgs(504, "CHANNEL_ERROR - precondition failed", kAmqpBasic, kAmqpPublish)));
  EXPECT_EQ(c.replacement(), method(0, kAmqpConnection, kAmqpConnClose,
                                    amqpCloseArgs(200, "closed by fbc's proxy", 0, 0)));
  std::string closeOk = method(0, kAmqpConnection, kAmqpConnCloseOk);
  std::string server = method(1, kAmqpBasic, 80, "ack") + closeOk;
  EXPECT_EQ(filtered(c, server, server.size()), "");
  EXPECT_EQ(c.splitRequest(publish(1, "", "q", "y")).split, Split::Discard);
  EXPECT_EQ(c.splitRequest(closeOk).split, Split::Discard);
}

// The reply code and text: status= first, else the name the message starts
// with, else 406; a text without a name gets the code's in front; a hard
// error's code closes the connection (a status= that is no reply code is
// refused at load: ir_errors/proxy_amqp_status).
TEST(ProtoAmqp, ReplyCodesAndTexts) {
  auto close = [](const ReplySpec &spec) {
    AmqpCodec c;
    c.splitRequest(kHeader);
    RequestInfo req = c.splitRequest(publish(1, "", "q", "x"));
    std::string bytes = c.reply(spec, req);
    AmqpFrame f;
    EXPECT_EQ(parseAmqpFrame(bytes, f), AmqpParse::Frame);
    std::string_view args = f.payload.substr(4);
    int code = static_cast<uint8_t>(args[0]) << 8 | static_cast<uint8_t>(args[1]);
    return std::to_string(f.channel) + " " + std::to_string(code) + " " +
           std::string(args.substr(3, static_cast<uint8_t>(args[2])));
  };
  EXPECT_EQ(close(errorSpec("")), "1 406 PRECONDITION_FAILED - injected by fbc");
  EXPECT_EQ(close(errorSpec("", 404)), "1 404 NOT_FOUND - injected by fbc");
  EXPECT_EQ(close(errorSpec("no exchange 'x'", 404)), "1 404 NOT_FOUND - no exchange 'x'");
  EXPECT_EQ(close(errorSpec("ACCESS_REFUSED - operation not permitted")),
            "1 403 ACCESS_REFUSED - operation not permitted");
  EXPECT_EQ(close(errorSpec("publish nacked by broker - queue unavailable")),
            "1 406 PRECONDITION_FAILED - publish nacked by broker - queue unavailable");
  EXPECT_EQ(close(errorSpec("CONNECTION_FORCED - broker forced connection close")),
            "0 320 CONNECTION_FORCED - broker forced connection close");
  EXPECT_EQ(close(errorSpec("odd", 541)), "0 541 INTERNAL_ERROR - odd");
  ReplySpec response;
  response.kind = ReplyKind::Response;
  AmqpCodec c;
  EXPECT_EQ(c.reply(response, RequestInfo{}), ""); // swallowed: nothing answered
  EXPECT_EQ(c.replacement(), "");
}

TEST(ProtoAmqp, TopicWildcardsBecomeGlobs) {
  EXPECT_EQ(ir::amqpRoutingKeyPattern("#"), "*");
  EXPECT_EQ(ir::amqpRoutingKeyPattern("orders.#"), "orders.*");
  EXPECT_EQ(ir::amqpRoutingKeyPattern("orders.*.eu"), "orders.*.eu");
}

} // namespace
} // namespace fbc::rt
