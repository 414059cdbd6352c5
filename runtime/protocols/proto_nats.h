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
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fbc::rt {

// A control line longer than this is not NATS (the server's default
// max_control_line is 4 KiB), nor is a payload longer than kNatsMaxPayload
// (the server's default max_payload is 1 MiB, its limit 64 MiB).
inline constexpr size_t kNatsMaxLine = 16384;
inline constexpr size_t kNatsMaxPayload = size_t(64) << 20;

struct NatsOp {
  std::string op;      // upper-cased: "PUB", "MSG", "+OK", "-ERR", ...
  std::string line;    // the control line without its line end
  std::string subject; // PUB, HPUB, MSG, HMSG, SUB
  std::string sid;     // MSG, HMSG, SUB
  std::string reply;   // the reply-to subject, "" without one
  std::string headers; // HPUB, HMSG: the header block ("NATS/1.0 ...\r\n...\r\n\r\n")
  std::string payload; // PUB, HPUB, MSG, HMSG: the message data
  std::string error;   // -ERR: the message without its quotes
  size_t length = 0;   // bytes of the stream the operation took
};

enum class NatsParse {
  NeedMore, // no whole operation yet
  Op,       // `op` is set
  Bad,      // not the NATS protocol (a line too long, a bad count)
};

NatsParse parseNatsOp(std::string_view stream, NatsOp &op);

// The status of a header block ("NATS/1.0 503" -> "503"; "" for none):
// the server's no-responders answer to a request is an HMSG whose
// headers say 503.
std::string natsHeaderStatus(std::string_view headers);

} // namespace fbc::rt
