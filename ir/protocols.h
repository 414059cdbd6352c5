// The protocol table: one description per interface(protocol=) value fbc
// knows, read by every layer. ir/ checks rules and step methods against it
// at load, passes/ reads its --suggest stubs and the plan checks step calls
// in test bodies with it, and runtime/ attaches a codec, a step client and a
// readiness probe to the same entries by name (runtime/protocols/proxy_protocols.cpp,
// checked against this table by tests/unit/protocol_table_test.cpp).
//
// A protocol string with no entry (interface(protocol=) is not validated,
// as in the reference) has no matchers, no steps and a TCP readiness probe;
// the proxy relays it as plain TCP.
//
// Adding a protocol: one entry here, its codec, step client and probe in
// runtime/, and tests. Nothing else compares protocol names.
#pragma once

#include "ir/spec.h"

#include <span>
#include <string>
#include <string_view>

namespace fbc::ir {

// A keyword of a step method; `fallback` null: required.
struct StepKeyword {
  std::string_view name;
  const char *fallback = nullptr;
};

// A step method (`db.main.query(...)`) and the keywords it takes.
struct StepMethod {
  std::string_view name;
  std::span<const StepKeyword> keywords;
};

// How a TLS session begins on a connection of the protocol, for the proxy
// that terminates and re-originates it (interface(tls=)) and the steps.
enum class TlsStart {
  AtConnect,     // the client's first bytes are the TLS handshake (HTTPS, Redis, ...)
  SslRequest,    // PostgreSQL: SSLRequest, the server's 'S', then the handshake
  AfterGreeting, // MySQL: the server's greeting in clear, the client's SSL
                 // request packet (CLIENT_SSL), then the handshake
  None,          // no TLS (datagrams: fbc speaks no DTLS): tls= is a load error
  AfterInfo,     // NATS: the server's INFO line in clear (tls_required), then
                 // the client's handshake
};

// How a step's step_send event names its request: what `fbc plan --suggest
// --from RUN.fb` reads back from a bundle's trace.
enum class StepRequest {
  None,          // nothing a rule matches (a tcp or udp send)
  MethodAndPath, // `method` and `path` fields (HTTP)
  CommandLine,   // `command`: the command, then its key (Redis, memcached)
  Sql,           // `sql`: the statement (PostgreSQL, MySQL)
  Subject,       // `subject` of a `publish` or `request` (NATS: a PUB); a
                 // `subscribe` publishes nothing a rule matches
};

// What exploration can tell apart in a request's bytes on the wire
// (runtime/explore/server_access): anything else touches the whole server.
enum class RequestResources {
  Server,         // nothing finer than the server
  RespKeys,       // the keys of a RESP command (Redis)
  PostgresTables, // the tables of PostgreSQL frontend messages' SQL
};

// Whether the protocol is HTTP/2 (with prior knowledge, h2c): the proxy
// bridges its connections with libnghttp2 instead of a codec
// (runtime/proxy/proxy_h2.h), deciding each request stream.
enum class Http2 {
  None,
  Plain, // http2: requests matched by method= and path=, answered with a :status
  Grpc,  // grpc: calls matched by method= (the full method name), answered
         // with a grpc-status (status= 0-16) and grpc-message
};

// What error(status=) / response(status=) is on its traffic.
enum class StatusCodes {
  Http,      // an HTTP status, 100-599 (and whatever a codec maps it to)
  Grpc,      // a grpc-status, 0-16
  AmqpReply, // one of AMQP 0-9-1's reply codes (ir/amqp_reply_codes.h): the codec
             // closes the channel with it, and clients know only those
};

// What mock_service() can do with an interface of the protocol.
enum class MockSupport {
  None,   // not a mock protocol (the reference has no handler): a load error
  Served, // fbc serves it (HTTP and gRPC in process, Redis by a real redis-server,
          // Kafka by librdkafka's mock cluster)
  Gap,    // the reference mocks it, fbc cannot: a cannot-run row (mockGap)
};

struct Protocol {
  std::string_view name; // the interface(protocol=) value
  // The rule matchers it accepts (query=, key=, ...), and which of them the
  // codec's request method / target feed (the proxy's trace fields).
  std::span<const std::string_view> matchers;
  std::string_view methodField, targetField;
  // A rule's target matcher in the form the codec gives the traffic
  // (ir/protocol_targets.h: SQL normalised, NATS `>` and AMQP `#` as
  // globs); null: as written. Lowering applies it (normalizedTarget()).
  std::string (*normalizeTarget)(std::string_view pattern) = nullptr;
  std::span<const StepMethod> steps;
  // Whether `svc.<step>` reaches the default interface's step (the
  // reference promotes only the HTTP and TCP step names to the service).
  bool promotesSteps = false;
  HealthcheckKind readiness = HealthcheckKind::Tcp; // what ready() probes
  // The proxy frames it (a codec, or the HTTP/2 bridge) and answers
  // error()/response() in it.
  bool framed = false;
  Http2 http2 = Http2::None;
  // The reference's proxy speaks it although fbc relays it as TCP: a rule
  // that needs its matchers or replies is a cannot-run row (proxyRuleGap).
  bool referenceProxies = false;
  // A datagram protocol (udp): the proxy is a UDP relay deciding each
  // datagram; drop(), delay() and duplicate() only.
  bool datagrams = false;
  TlsStart tls = TlsStart::AtConnect;          // interface(tls=): how TLS begins
  bool duplicates = false;                     // duplicate() re-delivers its messages
  StatusCodes statusCodes = StatusCodes::Http; // what status= is on its traffic
  bool errorNumbers = false;                   // error(code=) is its error number (MySQL)
  std::string_view suggestRule;                // the proxy rule of `fbc plan --suggest`; "" none
  std::string_view faultSyscall = "connect";   // the syscall --suggest denies
  std::string_view unit, units;                // "HTTP request", "HTTP requests" (messages)
  // The reference's step methods fbc has no client for yet ("publish
  // consume"): a call is a plan warning (stepGap), not an error.
  std::string_view referenceSteps = {};
  MockSupport mock = MockSupport::None;
  std::string_view mockGap; // why fbc cannot mock it (MockSupport::Gap)
  // Its well-known port and the image names that give it away, for
  // `fbc init --from-compose`'s guesses (0 and none: never guessed).
  int defaultPort = 0;
  std::span<const std::string_view> images = {};
  // Other ports it is commonly served on (HTTP's 8080, ...), guessed last.
  std::span<const int> commonPorts = {};
  StepRequest stepRequest = StepRequest::None;
  RequestResources resources = RequestResources::Server;

  bool accepts(std::string_view matcher) const;
  std::string normalizedTarget(std::string_view pattern) const;
  const StepMethod *findStep(std::string_view method) const;
};

// Every entry, in table order (the protocol a matcher belongs to first:
// messages name the first entry that accepts a matcher).
std::span<const Protocol> protocols();
// The entry of `name` (exact, as interface(protocol=) spells it), or null.
const Protocol *findProtocol(std::string_view name);

// What ready() probes on an interface of `protocol`: its entry's
// readiness, a TCP connect for a protocol without an entry.
HealthcheckKind readinessOf(std::string_view protocol);
// What ready() probes on service `s` (`fbc ir` prints it): the readiness
// of its default interface's protocol.
HealthcheckKind readyProbe(const Service &s);

// "method=, path=" / "no matchers": a protocol's matchers for messages.
std::string matcherList(const Protocol *p);
// "get, post, put": a protocol's step method names for messages.
std::string stepList(const Protocol &p);
// "path=, body=, headers=": a step method's keywords for messages.
std::string keywordList(const StepMethod &m);

// Whether `name` is a step method of some protocol (the receiver's protocol
// then decides whether it has it).
bool isAnyStepMethod(std::string_view name);
// Whether `name` is a step some protocol promotes to the service (svc.get()
// for svc.main.get(): the reference's HTTP and TCP step names), so that
// `svc.name` reaches the default interface's step.
bool isPromotedStep(std::string_view name);
// The step method `name` of `protocol`, or null.
const StepMethod *findStepMethod(std::string_view protocol, std::string_view name);

// Why `method` is not a step of `protocol` ("" when it is): its list and a
// "did you mean". `receiver` names the call's receiver ("db.main").
std::string stepMethodMismatch(std::string_view protocol, std::string_view receiver,
                               std::string_view method);
// For a step the reference has on `protocol` and fbc does not: what the
// plan warns ("" otherwise).
std::string stepGap(std::string_view protocol, std::string_view receiver, std::string_view method);
// Why keyword `kw` is not one of step `m`'s ("" when it is).
std::string stepKeywordMismatch(const StepMethod &m, std::string_view what, std::string_view kw);

} // namespace fbc::ir
