// The readiness probes of ready() that open a protocol's handshake and read
// the server's first answer, written over fbc's socket helpers (tcp_dial.h)
// as the NATS probe is. Each is one fresh connection; anything but the
// awaited answer is "not ready", with an error saying what came back: the
// first line of what the server sent (quoted, at most 40 bytes), a frame
// that is not the awaited one, a frame cut short, or nothing.
//
// amqp: the client's AMQP 0-9-1 protocol header, "AMQP" 0 0 9 1 (the
// specification's section 4.2.2); a broker that accepts connections answers
// with a Connection.Start method frame (type 1, channel 0, class 10 method
// 10, version 0-9, its server-properties table, mechanisms and locales
// filling the payload, frame-end 0xCE), read with the proxy's AMQP reader
// (runtime/protocols/proto_amqp.h). A broker of another AMQP version answers
// with the header it speaks. Not over librabbitmq (the steps' client): the
// probe needs none of its login, and librabbitmq reports an unexpected
// answer as "a socket error occurred" where the probe names the bytes.
// The probe then closes the connection, sending no Start-Ok: there is no
// polite way out of that state (RabbitMQ 3.10 logs a Connection.Close there
// as a handshake error; a closed connection is a warning, "client
// unexpectedly closed TCP connection", once per service start).
//
// grpc: HTTP/2's client connection preface ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
// and an empty SETTINGS frame (RFC 9113, section 3.4); a server speaking
// HTTP/2 sends SETTINGS as its first frame (type 4, no ACK flag, stream 0,
// a payload of 6-byte settings). Written by hand rather than with a
// libnghttp2 session (the gRPC step's): the probe sends 33 fixed bytes and
// reads one 9-byte frame header and its payload, and a session would
// report an HTTP/1.1 server's answer as a bare protocol error.
#pragma once

#include "runtime/clients/tcp_dial.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace fbc::rt {

struct TlsClientConfig;

// What the bytes a server sent so far say: NeedMore, Done (the awaited
// answer, whole), or Failed with `error`.
// After the AMQP 0-9-1 protocol header: a Connection.Start for 0-9.
ReplyState amqpStartState(std::string_view received, std::string &error);
// After HTTP/2's preface: a SETTINGS frame.
ReplyState h2SettingsState(std::string_view received, std::string &error);

// What the grpc probe sends: the preface and an empty SETTINGS frame.
std::string h2ClientPreface();

// One probe each, answered within `timeoutMs`. probeAmqp speaks TLS from
// the connect with `tls` (AMQPS); gRPC over TLS is refused at load (it
// needs ALPN), so probeGrpc speaks HTTP/2 in clear (h2c).
bool probeAmqp(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
               const TlsClientConfig *tls = nullptr);
bool probeGrpc(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error);

} // namespace fbc::rt
