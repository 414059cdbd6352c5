// The IR of mock_service(): a service fbc stands up itself instead of
// launching a binary (an HTTP mock served in-process, a Redis mock backed by
// redis-server), its routes and the responses the response constructors
// make (json_response, text_response, ..., dynamic). ir::Service::mock
// points here; a mock is otherwise an ordinary service (topology, coverage,
// depends_on, interface refs).
#pragma once

#include "ir/spec.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::ir {

class GrpcDescriptors; // ir/grpc_descriptors.h

enum class MockResponseKind {
  Json,      // json_response(status=, body=, headers=)
  Text,      // text_response(status=, body=, headers=)
  Bytes,     // bytes_response(status=, data=)
  Status,    // status_only(code)
  Redirect,  // redirect(location, status=)
  Dynamic,   // dynamic(fn): fn(request) returns one of the others
  Grpc,      // grpc_response(body=)
  GrpcTyped, // grpc_typed_response(body=)
  GrpcRaw,   // grpc_raw_response(body)
  GrpcError, // grpc_error(code, message=)
};
// The constructor's name: "json_response", "status_only", ...
const char *mockResponseBuiltin(MockResponseKind k);

struct MockResponse {
  MockResponseKind kind = MockResponseKind::Status;
  // HTTP status (0: 200 for HTTP); gRPC: the status code (0 = OK).
  int64_t status = 0;
  std::string body;        // as sent: JSON text, text, bytes, a gRPC error's message
  std::string contentType; // "" for none
  std::vector<std::pair<std::string, std::string>> headers; // sorted by name
  FunctionRef fn;                                           // Dynamic: the handler
  Loc loc;                                                  // the constructor call
  // The response as written, for `fbc ir` and plans: `status_only(204)`,
  // `json_response(status=200, body="{\"a\":1}")`, `dynamic(handler)`.
  std::string display() const;
};

// One route: "METHOD /path" (HTTP; * one segment, ** any number of them),
// "/pkg.Service/Method" (gRPC), and its response.
struct MockRoute {
  std::string pattern;
  MockResponse response;
  Loc loc; // the dict entry's key
};

struct Mock {
  std::vector<MockRoute> routes;        // dict order: the first match wins
  std::vector<MockRoute> overrides;     // overrides= (OpenAPI route replacements)
  std::optional<MockResponse> fallback; // default=
  bool tls = false;
  std::string configJson; // config= as JSON (keys sorted), "" if absent
  std::string openapi, descriptors, examples, validate;
  // descriptors=, read and checked while the spec loads (a gRPC mock's
  // messages); null when none was given.
  std::shared_ptr<const GrpcDescriptors> grpc;
};

// Whether a gRPC mock's route `pattern` ("/pkg.Service/Method", or a glob:
// '*' any run of characters, '/' included, as a proxy rule's method=)
// takes the call of `method`.
bool grpcRouteMatches(std::string_view pattern, std::string_view method);

// The protocols mock_service() accepts (the reference's), and their list.
bool isMockProtocol(std::string_view protocol);
std::string mockProtocolList();
// The gRPC canonical status code of "UNAVAILABLE" (or -1), and its name.
int grpcCodeByName(std::string_view name);
const char *grpcCodeName(int code);

// What `fbc run` cannot do for mock `s` (a Kafka, MongoDB or gRPC mock, ...)
// as the service's HostNeed (HostFeature::Unbuilt, ir/host_needs.h); nullopt
// when fbc runs it. mock_service() records it in Service::needs, so each
// test of the spec is one error row naming it (runtime/os/host_check.h).
std::optional<HostNeed> mockNeed(const Service &s, const Mock &m);

} // namespace fbc::ir
