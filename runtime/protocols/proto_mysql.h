// The MySQL client/server protocol (MySQL 4.1+, MariaDB) as fbc's proxy
// reads it: the codec of interface(protocol="mysql") (see
// runtime/protocols/proxy_protocol.h). No Debian library parses the server
// side of this protocol for a proxy (libmariadb is a client), so the
// framing is here: every packet is a 3-byte little-endian payload length, a
// sequence number and the payload.
//
// Connection phase: the server's greeting, the client's handshake response
// and whatever authentication exchange follows (mysql_native_password,
// caching_sha2_password's fast and full paths, an auth switch) pass through
// in both directions until the server's OK; a client asking for TLS (the
// CLIENT_SSL flag) turns the rest of the connection into plain TCP, as does
// an ERR ending the login.
//
// Command phase, client stream as splitRequest() returns it:
//   COM_QUERY, COM_STMT_PREPARE   Request, target = the statement text
//                                 normalised as Postgres queries are
//                                 (ir::sqlNormalizeQuery: literals and ?
//                                 placeholders folded, case and spaces)
//   COM_STMT_EXECUTE, COM_PING, COM_INIT_DB, COM_RESET_CONNECTION,
//   COM_STMT_RESET, COM_SET_OPTION
//                                 Request, target ""
//   COM_QUIT, COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA
//                                 Passthrough (the server sends no reply)
//   anything else (COM_CHANGE_USER, COM_BINLOG_DUMP, a packet over 16 MiB)
//                                 NotThisProtocol from then on
// A reply is what the server sends for one Request: an OK or ERR, or a
// result set (column count, column definitions, EOF unless
// CLIENT_DEPRECATE_EOF, rows, the terminating EOF/OK), repeated while the
// server says more results exist; a prepare's OK with its parameter and
// column definitions. A LOCAL INFILE request turns the connection into
// plain TCP.
//
// reply(): an Error is an ERR packet: the error number (error(code=), else
// 1105 ER_UNKNOWN_ERROR), the SQLSTATE (error(status="40001"), else the
// error number's own when fbc knows it, else HY000) and the message
// (default "injected by fbc"). A Response is an OK packet (no rows, nothing
// affected). reply() must be called for the last Request splitRequest
// returned, before the next splitRequest: the proxy decides each unit
// before it reads on.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <memory>

namespace fbc::rt {

// The capability flag of a client that asks for TLS (its SSL request
// packet, and the handshake response that follows it inside TLS), as the
// proxy's TLS terminator (runtime/proxy/tls_bridge.h) reads and sets it.
inline constexpr uint32_t kMysqlClientSsl = 1u << 11;

class MysqlCodec final : public ProtocolCodec {
public:
  MysqlCodec();
  ~MysqlCodec() override;
  RequestInfo splitRequest(std::string_view pending) override;
  size_t feedResponse(std::string_view bytes, std::string &status) override;
  std::string reply(const ReplySpec &spec, const RequestInfo &req) override;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fbc::rt
