// ready()'s AMQP and gRPC probes (runtime/clients/handshake_probe.h): what
// a server's first answer must be, read piece by piece, and the probes
// against fake servers on loopback answering the right frame, garbage, a
// frame cut short or nothing, with the error each reports.
#include "runtime/clients/handshake_probe.h"
#include "runtime/protocols/proto_amqp.h"
#include "tests/unit/runtime/loopback.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <thread>

namespace fbc::rt {
namespace {

std::string be32(uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::string longString(std::string_view s) {
  return be32(uint32_t(s.size())) + std::string(s);
}

// Connection.Start as RabbitMQ sends it (version 0-9, a properties table
// of one field, PLAIN AMQPLAIN, en_US) on `channel`.
std::string connectionStart(uint16_t channel = 0, std::string_view version = {"\0\x09", 2}) {
  std::string props = std::string("\x07product") + "S" + longString("RabbitMQ");
  return amqpMethodFrame(channel, kAmqpConnection, 10,
                         std::string(version) + longString(props) + longString("PLAIN AMQPLAIN") +
                             longString("en_US"));
}

// A SETTINGS frame of `settings` 6-byte entries, flags `flags`, on `stream`.
std::string settings(int count, uint8_t flags = 0, uint8_t stream = 0) {
  std::string f = {0, 0, char(6 * count), 4, char(flags), 0, 0, 0, char(stream)};
  for (int i = 0; i < count; ++i)
    f += std::string("\0\x03\0\0\0\x64", 6); // MAX_CONCURRENT_STREAMS 100
  return f;
}

ReplyState amqp(std::string_view s, std::string &error) {
  error.clear();
  return amqpStartState(s, error);
}

ReplyState h2(std::string_view s, std::string &error) {
  error.clear();
  return h2SettingsState(s, error);
}

TEST(HandshakeProbe, ConnectionStartIsReadyOnlyWhole) {
  std::string start = connectionStart(), error;
  for (size_t n = 0; n < start.size(); ++n)
    EXPECT_EQ(amqp(start.substr(0, n), error), ReplyState::NeedMore) << n << " " << error;
  EXPECT_EQ(amqp(start, error), ReplyState::Done) << error;
}

TEST(HandshakeProbe, AnythingButConnectionStartIsNotReady) {
  std::string error;
  EXPECT_EQ(amqp("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", error),
            ReplyState::Failed);
  EXPECT_EQ(error, "not AMQP 0-9-1: the server answered \"HTTP/1.1 400 Bad Request\"");
  EXPECT_EQ(amqp("-ERR unknown command, with arguments beginning with: 'AMQP'\r\n", error),
            ReplyState::Failed);
  EXPECT_EQ(error,
            "not AMQP 0-9-1: the server answered \"-ERR unknown command, with arguments beg\"...");
  // A broker of another version answers with its own header.
  EXPECT_EQ(amqp("AMQ", error), ReplyState::NeedMore);
  EXPECT_EQ(amqp(std::string("AMQP\0\x01\0\0", 8), error), ReplyState::Failed);
  EXPECT_EQ(error, "the server refused the AMQP 0-9-1 protocol header: it answered with its own, "
                   "\"AMQP\\x00\\x01\\x00\\x00\"");
  // Another method, or channel, or version.
  EXPECT_EQ(amqp(amqpMethodFrame(0, kAmqpConnection, kAmqpConnClose, amqpCloseArgs(320, "x", 0, 0)),
                 error),
            ReplyState::Failed);
  EXPECT_EQ(error, "the server's first frame is method 10.50 on channel 0, not Connection.Start "
                   "(10.10 on channel 0)");
  EXPECT_EQ(amqp(connectionStart(1), error), ReplyState::Failed);
  EXPECT_EQ(error, "the server's first frame is method 10.10 on channel 1, not Connection.Start "
                   "(10.10 on channel 0)");
  EXPECT_EQ(amqp(connectionStart(0, {"\x08\x00", 2}), error), ReplyState::Failed);
  EXPECT_EQ(error, "Connection.Start for AMQP 8-0, not 0-9");
  // A bad frame-end, and arguments that run past the frame.
  std::string start = connectionStart();
  start.back() = 'x';
  EXPECT_EQ(amqp(start, error), ReplyState::Failed);
  EXPECT_EQ(error, "not AMQP 0-9-1: the server's first frame has no frame-end 0xCE after its " +
                       std::to_string(start.size() - 8) + " bytes");
  std::string args = std::string("\0\x09", 2) + be32(1000) + "short";
  EXPECT_EQ(amqp(amqpMethodFrame(0, kAmqpConnection, 10, args), error), ReplyState::Failed);
  EXPECT_EQ(error, "Connection.Start's server-properties runs past its frame");
}

TEST(HandshakeProbe, SettingsIsReadyOnlyWhole) {
  std::string f = settings(2), error;
  for (size_t n = 0; n < f.size(); ++n)
    EXPECT_EQ(h2(f.substr(0, n), error), ReplyState::NeedMore) << n << " " << error;
  EXPECT_EQ(h2(f, error), ReplyState::Done) << error;
  EXPECT_EQ(h2(settings(0), error), ReplyState::Done) << error;
}

TEST(HandshakeProbe, AnythingButSettingsIsNotReady) {
  std::string error;
  EXPECT_EQ(h2("HTTP/1.1 400 Bad Request\r\n\r\n", error), ReplyState::Failed);
  EXPECT_EQ(error, "not HTTP/2: the server answered \"HTTP/1.1 400 Bad Request\"");
  EXPECT_EQ(h2(kAmqpProtocolHeader, error), ReplyState::Failed);
  EXPECT_EQ(error, "not HTTP/2: the server answered \"AMQP\\x00\\x00\\t\\x01\"");
  EXPECT_EQ(h2(std::string("\0\0\x08\x07\0\0\0\0\0", 9), error), ReplyState::Failed);
  EXPECT_EQ(error, "the server's first frame is GOAWAY (type 7), not SETTINGS");
  EXPECT_EQ(h2(settings(0, 1), error), ReplyState::Failed);
  EXPECT_EQ(error, "the server's first frame is a SETTINGS acknowledgement, not its own SETTINGS");
  EXPECT_EQ(h2(settings(1, 0, 3), error), ReplyState::Failed);
  EXPECT_EQ(error, "the server's SETTINGS frame is on stream 3, not 0");
  EXPECT_EQ(h2(std::string("\0\0\x05\x04\0\0\0\0\0", 9), error), ReplyState::Failed);
  EXPECT_EQ(error, "the server's SETTINGS frame has 5 bytes, not a whole number of 6-byte settings "
                   "within 16384");
}

// A server on loopback that reads what the probe sends (`expect` bytes),
// answers `reply` and closes; `silent`: answers nothing and holds the
// connection until the probe gives up.
struct FakeServer {
  uint16_t port = 0;
  int fd = -1;
  std::string got;
  std::thread thread;

  FakeServer(size_t expect, std::string reply, bool silent = false) {
    fd = listenLoopback(port);
    thread = std::thread([this, expect, reply, silent] {
      int c = accept(fd, nullptr, nullptr);
      got = readUpTo(c, expect);
      if (!reply.empty())
        send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
      if (silent)
        readUpTo(c, expect + 1); // until the probe closes
      close(c);
    });
  }
  // What the probe sent, once the server is done.
  const std::string &sent() {
    if (thread.joinable())
      thread.join();
    return got;
  }
  ~FakeServer() {
    sent();
    close(fd);
  }
};

std::string amqpProbe(FakeServer &s, int64_t timeoutMs = 2000) {
  std::string error;
  bool ok = probeAmqp("127.0.0.1", s.port, timeoutMs, error);
  EXPECT_EQ(ok, error.empty());
  return ok ? "ready" : error;
}

std::string grpcProbe(FakeServer &s, int64_t timeoutMs = 2000) {
  std::string error;
  bool ok = probeGrpc("127.0.0.1", s.port, timeoutMs, error);
  EXPECT_EQ(ok, error.empty());
  return ok ? "ready" : error;
}

TEST(HandshakeProbe, AmqpProbeAgainstFakeServers) {
  {
    FakeServer s(8, connectionStart());
    EXPECT_EQ(amqpProbe(s), "ready");
    EXPECT_EQ(s.sent(), kAmqpProtocolHeader);
  }
  {
    FakeServer s(8, "+OK garbage\r\n");
    EXPECT_EQ(amqpProbe(s), "not AMQP 0-9-1: the server answered \"+OK garbage\"");
  }
  {
    FakeServer s(8, connectionStart().substr(0, 20));
    EXPECT_EQ(amqpProbe(s), "connection closed after 20 bytes of the server's first frame, before "
                            "a whole Connection.Start");
  }
  {
    FakeServer s(8, "");
    EXPECT_EQ(amqpProbe(s),
              "the server closed the connection without answering the AMQP 0-9-1 protocol header");
  }
  {
    FakeServer s(8, "", true);
    EXPECT_EQ(amqpProbe(s, 200), "no answer to the AMQP 0-9-1 protocol header (read: i/o timeout)");
  }
  {
    FakeServer s(8, connectionStart().substr(0, 9), true);
    EXPECT_EQ(amqpProbe(s, 200), "read timed out after 9 bytes of the server's first frame, "
                                 "before a whole Connection.Start");
  }
}

TEST(HandshakeProbe, GrpcProbeAgainstFakeServers) {
  {
    FakeServer s(33, settings(1));
    EXPECT_EQ(grpcProbe(s), "ready");
    EXPECT_EQ(s.sent(), std::string("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") +
                            std::string("\0\0\0\x04\0\0\0\0\0", 9));
  }
  {
    FakeServer s(33, "HTTP/1.1 505 HTTP Version Not Supported\r\n\r\n");
    EXPECT_EQ(grpcProbe(s), "not HTTP/2: the server answered \"HTTP/1.1 505 HTTP Version Not "
                            "Supported\"");
  }
  {
    FakeServer s(33, settings(2).substr(0, 12));
    EXPECT_EQ(grpcProbe(s), "connection closed after 12 bytes of the server's first frame, before "
                            "a whole SETTINGS");
  }
  {
    FakeServer s(33, "", true);
    EXPECT_EQ(grpcProbe(s, 200), "no answer to the HTTP/2 connection preface (read: i/o timeout)");
  }
}

} // namespace
} // namespace fbc::rt
