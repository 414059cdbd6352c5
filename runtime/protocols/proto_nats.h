// The NATS client protocol (docs.nats.io, "Client Protocol"), as the NATS
// steps and the fault proxy read it. The protocol is text: a control line
// ending in CRLF, whose first word (case-insensitive) is the operation,
// and for PUB/HPUB (client) and MSG/HMSG (server) a payload of the length
// the line gives, then CRLF:
//
//   INFO {json}                  server, first on every connection
//   CONNECT {json}               client
//   PUB <subject> [reply-to] <#bytes>            + payload
//   HPUB <subject> [reply-to] <#header bytes> <#total bytes>  + headers and payload
//   SUB <subject> [queue group] <sid>, UNSUB <sid> [max]
//   MSG <subject> <sid> [reply-to] <#bytes>      + payload
//   HMSG <subject> <sid> [reply-to] <#header bytes> <#total bytes>
//   PING, PONG (both sides), +OK, -ERR '<message>' (server)
//
// parseNatsOp() takes one operation off the front of a byte stream, in
// either direction; the caller keeps what it has not consumed.
//
// The proxy codec of interface(protocol="nats"): a request is one PUB or
// HPUB with its payload, RequestInfo::method the operation ("PUB"),
// target its subject. Everything else the client sends (CONNECT, SUB,
// UNSUB, PING, PONG) passes through undecided; a stream that is not NATS
// turns the rest of the connection into plain TCP. The server's stream is
// framed too (MSG/HMSG payloads skipped whole), so that a payload is never
// read as a reply. A PUB has no reply unless the client's CONNECT asked
// for verbose mode, where the server answers every command +OK (or -ERR):
// then a PUB is owed one, and the +OKs owed to the commands that passed
// through are not counted as its.
//
// reply(): Error -> `-ERR '<message>'` (default "injected by fbc"), the
// server's way of refusing a message; Response -> the message swallowed:
// nothing (+OK in verbose mode), so the publisher believes it delivered.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fbc::rt {

// A control line longer than this is not NATS (the server's default
// max_control_line is 4 KiB), nor is a payload longer than kNatsMaxPayload
// (the server's default max_payload is 1 MiB, its limit 64 MiB).
inline constexpr size_t kNatsMaxLine = 16384;
inline constexpr size_t kNatsMaxPayload = size_t(64) << 20;

// One operation, its fields views of the stream it was parsed from (valid
// while that is): the proxy parses every message, and copies none.
struct NatsOp {
  std::string_view op;      // "PUB", "MSG", "+OK", "-ERR", ... (spelled so in any case
                            // sent); an operation NATS does not have, as sent
  std::string_view line;    // the control line without its line end
  std::string_view subject; // PUB, HPUB, MSG, HMSG, SUB
  std::string_view sid;     // MSG, HMSG, SUB
  std::string_view reply;   // the reply-to subject, "" without one
  std::string_view headers; // HPUB, HMSG: the header block ("NATS/1.0 ...\r\n...\r\n\r\n")
  std::string_view payload; // PUB, HPUB, MSG, HMSG: the message data
  std::string_view error;   // -ERR: the message without its quotes
  size_t length = 0;        // bytes of the stream the operation took
};

enum class NatsParse {
  NeedMore, // no whole operation yet
  Op,       // `op` is set
  Bad,      // not the NATS protocol (a line too long, a bad count)
};

NatsParse parseNatsOp(std::string_view stream, NatsOp &op);

// The length of the server's greeting at the front of `received`, its INFO
// line, once it is whole (0 before): what a TLS client reads in clear
// before it begins the handshake (ir::TlsStart::AfterInfo). Bytes that
// are not NATS count as whole, for the reader after to refuse.
size_t natsGreetingLength(std::string_view received);

// The status of a header block ("NATS/1.0 503" -> "503"; "" for none):
// the server's no-responders answer to a request is an HMSG whose
// headers say 503.
std::string natsHeaderStatus(std::string_view headers);

class NatsCodec final : public ProtocolCodec {
public:
  RequestInfo splitRequest(std::string_view pending) override;
  size_t feedResponse(std::string_view bytes, std::string &status) override;
  std::string reply(const ReplySpec &spec, const RequestInfo &req) override;

private:
  bool verbose_ = false;        // CONNECT asked for +OK after every command
  uint64_t passedOks_ = 0;      // +OK / -ERR the server owes commands that passed through
  std::string server_;          // the start of a server operation a read cut short
  bool serverUnframed_ = false; // the server's stream stopped parsing: counted no more
};

} // namespace fbc::rt
