// The gRPC step (svc.<iface>.call(method=, body=, timeout=)): one unary call
// on a connection of its own, HTTP/2 with prior knowledge spoken by a
// libnghttp2 client session over the deadline-and-cancel socket helpers
// (tcp_dial.h). The request is one message (body=, the protobuf encoding,
// sent as it is); the answer is the call's grpc-status and grpc-message
// (from its trailers, or a trailers-only response) and the reply's first
// message.
#pragma once

#include "runtime/clients/steps.h"

#include <cstdint>
#include <functional>
#include <string>

namespace fbc::rt {

struct GrpcCallResult {
  // The call ended with a grpc-status; else `error` says why there is none
  // ("dial tcp ...", "read: i/o timeout", "stream reset (code 7)", "HTTP
  // status 404", "no grpc-status").
  bool answered = false;
  int64_t status = -1; // grpc-status
  std::string message; // grpc-message, decoded
  std::string reply;   // the reply's first message
  std::string error;
  int64_t durationMs = 0;
};

// Calls `method` ("/pkg.Service/Method") on host:port with `request` as
// its message, waiting up to `timeoutMs` (also sent as grpc-timeout).
GrpcCallResult grpcCall(const std::string &host, uint16_t port, const std::string &method,
                        const std::string &request, int64_t timeoutMs,
                        const std::function<bool()> &cancelled);

// The call as a gRPC client reports it, the value the gRPC step and a gRPC
// client() return: .status the grpc-status (a call that got none is
// UNAVAILABLE, 14, when the connection failed or closed, DEADLINE_EXCEEDED,
// 4, when the timeout passed, CANCELLED, 1, when the test was), .ok whether
// it is 0, .body the reply's message, .error "<STATUS>: <grpc-message>"
// (the name alone when there is no message) when not ok.
HttpStepResponse grpcResponse(const GrpcCallResult &r, bool cancelled);

} // namespace fbc::rt
