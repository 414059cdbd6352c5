// A gRPC mock_service run in-process: an HTTP/2 server (h2c with prior
// knowledge, as gRPC clients speak to a plaintext server) on
// 127.0.0.1:<port>, framed by libnghttp2, one thread for its listener and
// connections. Each unary call is answered by the first route whose
// pattern takes its full method name (ir::grpcRouteMatches), else default=,
// else UNIMPLEMENTED:
//   grpc_response / grpc_typed_response: the body (JSON) encoded as the
//     method's output message with the mock's descriptor set;
//   grpc_raw_response: the body's bytes, as they are;
//   grpc_error: no message, its code and message as grpc-status and
//     grpc-message (a trailers-only response, as gRPC servers send one);
//   dynamic(fn): fn(request) picks one of those; the request's .path is the
//     method, .body its message as JSON (the raw bytes without descriptors),
//     .json() that decoded, .headers the call's metadata.
// A body that does not fit the called method's output (a glob route or
// default= answering a method whose message lacks its fields) is INTERNAL,
// with the mock event's error saying why. Every call is a `mock` event.
#pragma once

#include "ir/mock.h"
#include "runtime/mock/mock_http.h"
#include "runtime/os/in_process.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace fbc::rt {

// How a gRPC mock answers one call.
struct GrpcMockAnswer {
  int64_t status = 0;  // grpc-status
  std::string message; // grpc-message (not an OK call's)
  std::string reply;   // the reply message's bytes (an OK call's)
  std::string route;   // the route that took it: its pattern, "default", "none"
  std::string error;   // why the mock could not answer as its route says
};

class GrpcMock final : public InProcessService {
public:
  GrpcMock(const ir::Service &svc, MockRunContext ctx);
  ~GrpcMock() override;

  bool start(std::string &error) override;
  void stop() override;
  std::vector<std::pair<std::string, std::string>> startedFields() const override;

  // The answer to a call of `method` ("/pkg.Service/Method") with message
  // `request` and metadata `headers` (what a call through the server gets).
  GrpcMockAnswer answer(const std::string &method, const std::string &request,
                        const std::vector<std::pair<std::string, std::string>> &headers) const;

  struct Conn;

private:
  void serve();
  void accept();
  GrpcMockAnswer respond(const ir::MockResponse &r, const std::string &method,
                         const std::string &request,
                         const std::vector<std::pair<std::string, std::string>> &headers) const;

  const ir::Service &svc_;
  MockRunContext ctx_;
  std::string iface_;
  uint16_t port_ = 0;
  int listener_ = -1;
  int wake_ = -1; // an eventfd: stop() ends serve()
  std::thread thread_;
  std::map<int, std::unique_ptr<Conn>> conns_; // by fd; the serving thread's
};

} // namespace fbc::rt
