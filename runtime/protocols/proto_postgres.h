// The PostgreSQL frontend/backend protocol (version 3.0) as fbc's proxy
// reads it: the codec of interface(protocol="postgres") (see
// runtime/protocols/proxy_protocol.h), the query normaliser rules match against, and
// the backend messages a rule synthesises. No Debian library parses the
// server side of this protocol (libpq is a client), so the framing is here:
// every message after the startup one is a type byte and a 4-byte
// big-endian length that counts itself.
//
// Client stream, as splitRequest() returns it:
//   SSLRequest / GSSENCRequest       Passthrough; the server's one-byte answer
//                                    is read by feedResponse: 'N' goes on,
//                                    'S'/'G' (TLS) passes the connection
//                                    through (NotThisProtocol from then on)
//   CancelRequest, StartupMessage    Passthrough
//   Query ('Q')                      Request, target = normalised query
//   Parse/Bind/Describe/Execute/Close ... up to and including Sync
//                                    one Request (the extended protocol's
//                                    unit), target = the query of its Parse,
//                                    or of the prepared statement its Bind
//                                    names (remembered from that Parse);
//                                    a unit without either is Passthrough
//   messages up to a Flush with no Sync yet
//                                    Passthrough (the client waits for
//                                    answers before it sends the Sync)
//   everything else (password, CopyData/Done/Fail, FunctionCall,
//   Terminate)                       Passthrough, one message each
// A reply is a cycle that ends in ReadyForQuery; feedResponse counts those
// of Request units only (the startup's, a lone Sync's are not replies to a
// request). reply() of an Error is ErrorResponse (severity ERROR, the given
// SQLSTATE, default XX000, and message) then ReadyForQuery; a Response is
// what the server sends for a statement without rows (ParseComplete,
// BindComplete, NoData, CommandComplete as the unit asks) then
// ReadyForQuery. ReadyForQuery carries the transaction status last seen
// from the server ('I' idle; in a transaction, 'E': it failed).
// reply() must be called for the last Request splitRequest returned, before
// the next splitRequest: the proxy decides each unit before it reads on.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <memory>
#include <string>
#include <string_view>

namespace fbc::rt {

// The StartupMessage codes that ask for an encrypted session, as the
// proxy's TLS terminator (runtime/proxy/tls_bridge.h) answers and sends them.
inline constexpr uint32_t kPgSslRequest = 80877103;
inline constexpr uint32_t kPgGssEncRequest = 80877104;

// Backend messages.
std::string pgErrorResponse(std::string_view sqlstate, std::string_view message);
std::string pgReadyForQuery(char txnStatus);

class PostgresCodec final : public ProtocolCodec {
public:
  PostgresCodec();
  ~PostgresCodec() override;
  RequestInfo splitRequest(std::string_view pending) override;
  size_t feedResponse(std::string_view bytes, std::string &status) override;
  std::string reply(const ReplySpec &spec, const RequestInfo &req) override;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace fbc::rt
