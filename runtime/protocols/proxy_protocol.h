// The plug-in interface between the fault proxy (runtime/proxy/proxy*) and one
// wire protocol (HTTP/1.1 in runtime/protocols/proxy_http.cpp, RESP in
// runtime/protocols/proto_redis.*, the PostgreSQL frontend/backend protocol in
// runtime/protocols/proto_postgres.*). The proxy owns sockets, buffering, rules,
// probability, delays, drops and the trace; a codec only knows where one
// request ends in the client's byte stream, what a rule can match in it,
// where the server's replies end, and how to write a reply of its own.
//
// Threading and lifetime: one codec object per proxied TCP connection,
// created when the client connects, destroyed when either side closes.
// Every call comes from the proxy's event-loop thread, one at a time, so a
// codec needs no locks. A codec must not block, do I/O or throw: malformed
// input is answered with Split::NotThisProtocol (the proxy then passes the
// rest of the connection through untouched and records that it did).
//
// Adding a protocol: describe it in ir/protocols.cpp (framed = true: its
// matchers, the trace fields its RequestInfo feeds, its message nouns, the
// normaliser of its rules' targets), implement ProtocolCodec, give it a
// factory, and add one line {"<protocol>", factory} to kProxyProtocols in
// runtime/protocols/proxy_protocols.cpp (the interface(protocol=) string selects it;
// a protocol without an entry is proxied as plain TCP).
// tests/unit/protocol_table_test.cpp checks the two tables agree.
//
// Testing a codec needs no proxy: feed splitRequest()/feedResponse() the
// bytes a real client and server exchange (split at every offset, so
// NeedMore paths run) and compare reply() with what the real server sends
// for the same error. The proxy's e2e tests then drive it with real traffic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace fbc::rt {

// What one splitRequest() call found at the front of the unforwarded client
// bytes.
enum class Split {
  NeedMore,        // no complete unit yet: the proxy reads more and calls again
                   // with the same bytes plus the new ones (length is 0)
  Request,         // bytes [0, length) are one whole request; fields are set
  Head,            // bytes [0, length) begin a request whose fields are set and
                   // whose body follows; later calls return Body until `last`
                   // (HTTP only: a request body is streamed, never buffered whole)
  Body,            // bytes [0, length) continue the current request
  Passthrough,     // bytes [0, length) are protocol bytes no rule can match
                   // (a Postgres startup or SSLRequest, an authentication
                   // message, Terminate): forwarded as they are, no event
  NotThisProtocol, // the stream is not this protocol: the rest of the
                   // connection passes through as plain TCP
  Discard,         // bytes [0, length) are consumed and not forwarded: what the
                   // server must not see (AMQP: the client's frames on a channel
                   // the proxy closed, up to the client's Close-Ok), no event
};

// The fields a rule's matchers compare against. Which ones a protocol fills:
//   http      method = "GET" (as sent), target = the path without ?query
//   redis     method = the command upper-cased ("GET"), target = its first
//             key ("" for commands without one: PING)
//   memcached method = the command as sent ("get"), target = its first key
//   postgres  method = "" , target = the query text normalised
//             (ir::sqlNormalizeQuery); for the extended protocol the unit is
//             Parse..Sync (or Bind..Sync of a prepared statement, whose text
//             the codec remembers from its Parse)
// Matching itself (globs, case folding, probability) is the proxy's.
struct RequestInfo {
  Split split = Split::NeedMore;
  size_t length = 0;  // bytes of the given buffer this result covers
  bool last = false;  // Request: always true. Head/Body: the request ends here
  std::string method; // see above
  std::string target; // see above
  // Request/Head: the client closes after this request's reply (HTTP
  // `Connection: close`, HTTP/1.0 without keep-alive): when the proxy
  // answers it itself, it closes the connection after the reply, as the
  // server would have.
  bool closeAfter = false;
  // Request: the server sends no reply to it (memcached's `noreply`), so
  // the proxy owes the client none and a reply() of the codec is "".
  bool noReply = false;
};

// A reply the proxy sends in place of forwarding a request.
enum class ReplyKind {
  Error,    // error(status=, message=): the protocol's error reply
  Response, // response(status=, body=): a successful reply of the rule's making
};

struct ReplySpec {
  ReplyKind kind = ReplyKind::Error;
  int status = 0;      // http: the status code (0: 500 for Error, 200 for Response)
  int errorNumber = 0; // error(code=): MySQL's error number (0: the codec's default, 1105)
  std::string code;    // error(status="57P01") given as a string: the Postgres
                       // SQLSTATE ("" : the codec's default, XX000); unused elsewhere
  std::string message; // error(message=): "" means the codec's default text
  std::string body;    // response(body=): http body / redis reply value
  bool hasBody = false;
};

class ProtocolCodec {
public:
  virtual ~ProtocolCodec() = default;

  // Splits the front of `pending` (client -> server bytes not yet forwarded
  // or dropped). Called again after each unit the proxy consumed, and when
  // more bytes arrive after NeedMore. `length` must be > 0 for every result
  // but NeedMore, and <= pending.size().
  virtual RequestInfo splitRequest(std::string_view pending) = 0;

  // Server -> client bytes, in order, as they are forwarded (the proxy never
  // holds them back for the codec). Returns how many replies ended within
  // `bytes` (a reply = everything the server sends for one request unit:
  // an HTTP response, one RESP reply, a Postgres cycle up to ReadyForQuery).
  // The proxy uses the count to queue a reply of its own behind the real
  // replies still owed to earlier requests on the same connection, so
  // pipelined clients see replies in request order. `status` receives the
  // last ended reply's status text for the trace ("200", "-ERR", "ERROR
  // 42P01"), left unchanged if none ended.
  virtual size_t feedResponse(std::string_view bytes, std::string &status) = 0;

  // The bytes of a reply to `req` (a Request or Head this codec returned).
  // For a Postgres reply this includes the ReadyForQuery that ends the
  // cycle (transaction status as last seen from the server).
  virtual std::string reply(const ReplySpec &spec, const RequestInfo &req) = 0;

  // The bytes the server is sent in place of the request reply() just
  // answered ("": nothing, every codec but AMQP's, which closes the
  // server's end of the channel its reply closed on the client's, so that
  // both ends agree it is closed).
  virtual std::string replacement() { return {}; }

  // Server bytes the client is not to get. Called with each chunk the
  // server sent, in order, before feedResponse(): false forwards the chunk
  // as it is (every codec but AMQP's); true forwards `forward` instead
  // (AMQP: the server's frames on a channel the proxy closed in the
  // client's name, its Close-Ok included, are kept from the client, who
  // already saw it closed). After a true, the proxy splits the client's
  // pending bytes again: a codec may answer NeedMore for a whole unit until
  // the server said something (AMQP holds a Channel.Open until the
  // server's Close-Ok of that channel).
  virtual bool filterResponse(std::string_view bytes, std::string &forward) {
    (void)bytes;
    (void)forward;
    return false;
  }
};

struct ProxyProtocol {
  std::string_view name; // interface(protocol=) value: "http", "redis", "postgres"
  std::unique_ptr<ProtocolCodec> (*makeCodec)();
  // The server speaks first (MySQL's greeting): the proxy dials the real
  // port when a client connects, not when the client's first byte arrives.
  bool serverFirst = false;
};

// The protocol table (runtime/protocols/proxy_protocols.cpp); null for a protocol
// that has no codec (plain TCP proxying).
const ProxyProtocol *findProxyProtocol(std::string_view name);
// Every entry, for the test that checks them against ir/protocols.h.
std::span<const ProxyProtocol> proxyProtocols();

} // namespace fbc::rt
