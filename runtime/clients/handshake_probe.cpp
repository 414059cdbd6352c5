// The AMQP and gRPC readiness probes: see handshake_probe.h.
#include "runtime/clients/handshake_probe.h"

#include "ir/quote.h"
#include "runtime/os/clock.h"
#include "runtime/protocols/proto_amqp.h"

#include <array>

namespace fbc::rt {
namespace {

constexpr int64_t kDialMs = 5000;
constexpr std::string_view kTimedOut = "read: i/o timeout"; // recvSome's
constexpr uint16_t kAmqpStart = 10;                         // Connection.Start's method id

uint32_t be(std::string_view s, size_t at, size_t bytes) {
  uint32_t v = 0;
  for (size_t i = 0; i < bytes; ++i)
    v = v << 8 | static_cast<uint8_t>(s[at + i]);
  return v;
}

// `received` as an error quotes it: its first line, at most 40 bytes,
// control bytes as \xNN.
std::string preview(std::string_view received) {
  std::string_view line = received.substr(0, received.find_first_of("\r\n"));
  return ir::quote(line.substr(0, 40)) + (line.size() > 40 ? "..." : "");
}

// One exchange: `opening` sent, the answer fed to `state` until it is
// whole. "" when it is, else why not, saying what came back.
std::string handshake(const std::string &host, uint16_t port, std::string_view opening,
                      std::string_view what, std::string_view awaited, int64_t timeoutMs,
                      const TlsClientConfig *tls,
                      ReplyState (*state)(std::string_view, std::string &)) {
  std::string received;
  std::string closed = "connection closed before " + std::string(awaited);
  std::string error = exchangeOnce(
      host, port, opening, monotonicNs() + kDialMs * 1000000, timeoutMs, nullptr,
      [&](std::string_view chunk, std::string &why) {
        received.append(chunk);
        return state(received, why);
      },
      closed, tls);
  if (error != closed && error != kTimedOut)
    return error;
  if (received.empty())
    return error == closed
               ? "the server closed the connection without answering " + std::string(what)
               : "no answer to " + std::string(what) + " (" + error + ")";
  return (error == closed ? "connection closed after " : "read timed out after ") +
         std::to_string(received.size()) + " bytes of the server's first frame, before a whole " +
         std::string(awaited);
}

// Connection.Start's arguments (after the class and method ids): version
// major and minor octets, server-properties (a field table: a long size and
// its bytes), mechanisms and locales (long strings), filling the payload.
// "" when they do, else why not.
std::string startArgsError(std::string_view args) {
  if (args.size() < 2)
    return "Connection.Start without its version";
  if (args[0] != 0 || args[1] != 9)
    return "Connection.Start for AMQP " + std::to_string(uint8_t(args[0])) + "-" +
           std::to_string(uint8_t(args[1])) + ", not 0-9";
  size_t at = 2;
  for (const char *field : {"server-properties", "mechanisms", "locales"}) {
    if (args.size() - at < 4 || args.size() - at - 4 < be(args, at, 4))
      return std::string("Connection.Start's ") + field + " runs past its frame";
    at += 4 + be(args, at, 4);
  }
  if (at != args.size())
    return "Connection.Start has " + std::to_string(args.size() - at) +
           " bytes after its arguments";
  return "";
}

constexpr std::string_view kH2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
constexpr uint8_t kH2Settings = 4, kH2Ack = 1;
constexpr uint32_t kH2MaxFrame = 16384; // SETTINGS_MAX_FRAME_SIZE's initial value

std::string h2FrameName(uint8_t type) {
  constexpr std::array<std::string_view, 10> names = {
      "DATA",         "HEADERS", "PRIORITY", "RST_STREAM",    "SETTINGS",
      "PUSH_PROMISE", "PING",    "GOAWAY",   "WINDOW_UPDATE", "CONTINUATION"};
  std::string t = "type " + std::to_string(type);
  return type < names.size() ? std::string(names[type]) + " (" + t + ")" : t;
}

} // namespace

ReplyState amqpStartState(std::string_view received, std::string &error) {
  if (received.empty())
    return ReplyState::NeedMore;
  // A broker that will not speak 0-9-1 answers with the header it speaks.
  if (std::string_view("AMQP").starts_with(received.substr(0, 4))) {
    if (received.size() < kAmqpProtocolHeader.size())
      return ReplyState::NeedMore;
    error = "the server refused the AMQP 0-9-1 protocol header: it answered with its own, " +
            ir::quote(received.substr(0, kAmqpProtocolHeader.size()));
    return ReplyState::Failed;
  }
  if (uint8_t(received[0]) != kAmqpFrameMethod) {
    error = "not AMQP 0-9-1: the server answered " + preview(received);
    return ReplyState::Failed;
  }
  AmqpFrame f;
  switch (parseAmqpFrame(received, f)) {
  case AmqpParse::NeedMore:
    return ReplyState::NeedMore;
  case AmqpParse::Bad: {
    uint32_t size = be(received, 3, 4);
    error = "not AMQP 0-9-1: the server's first frame " +
            (size < 4 || size > kAmqpMaxFrame
                 ? "is a method frame of " + std::to_string(size) + " bytes"
                 : "has no frame-end 0xCE after its " + std::to_string(size) + " bytes");
    return ReplyState::Failed;
  }
  case AmqpParse::Frame:
    break;
  }
  if (f.channel != 0 || f.classId != kAmqpConnection || f.methodId != kAmqpStart) {
    error = "the server's first frame is method " + std::to_string(f.classId) + "." +
            std::to_string(f.methodId) + " on channel " + std::to_string(f.channel) +
            ", not Connection.Start (10.10 on channel 0)";
    return ReplyState::Failed;
  }
  error = startArgsError(f.payload.substr(4));
  return error.empty() ? ReplyState::Done : ReplyState::Failed;
}

ReplyState h2SettingsState(std::string_view received, std::string &error) {
  if (received.empty())
    return ReplyState::NeedMore;
  // A frame's 24-bit length starts with 0 when it is at most 16384 bytes,
  // as a first SETTINGS frame is: anything else is no HTTP/2 (an HTTP/1.1
  // server's status line, an AMQP broker's protocol header).
  if (received[0] != 0) {
    error = "not HTTP/2: the server answered " + preview(received);
    return ReplyState::Failed;
  }
  if (received.size() < 9)
    return ReplyState::NeedMore;
  uint32_t length = be(received, 0, 3), stream = be(received, 5, 4) & 0x7fffffff;
  auto type = uint8_t(received[3]), flags = uint8_t(received[4]);
  if (type != kH2Settings)
    error = "the server's first frame is " + h2FrameName(type) + ", not SETTINGS";
  else if (flags & kH2Ack)
    error = "the server's first frame is a SETTINGS acknowledgement, not its own SETTINGS";
  else if (stream != 0)
    error = "the server's SETTINGS frame is on stream " + std::to_string(stream) + ", not 0";
  else if (length % 6 != 0 || length > kH2MaxFrame)
    error = "the server's SETTINGS frame has " + std::to_string(length) +
            " bytes, not a whole number of 6-byte settings within 16384";
  if (!error.empty())
    return ReplyState::Failed;
  return received.size() < 9 + length ? ReplyState::NeedMore : ReplyState::Done;
}

std::string h2ClientPreface() {
  std::string out(kH2Preface);
  out.append(std::string_view("\0\0\0\x04\0\0\0\0\0", 9)); // SETTINGS, empty, stream 0
  return out;
}

bool probeAmqp(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
               const TlsClientConfig *tls) {
  error = handshake(host, port, kAmqpProtocolHeader, "the AMQP 0-9-1 protocol header",
                    "Connection.Start", timeoutMs, tls, amqpStartState);
  return error.empty();
}

bool probeGrpc(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error) {
  error = handshake(host, port, h2ClientPreface(), "the HTTP/2 connection preface", "SETTINGS",
                    timeoutMs, nullptr, h2SettingsState);
  return error.empty();
}

} // namespace fbc::rt
