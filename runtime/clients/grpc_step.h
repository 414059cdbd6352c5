// The gRPC step (svc.<iface>.call(method=, body=, timeout=)): one unary call
// on a connection of its own, HTTP/2 with prior knowledge spoken by a
// libnghttp2 client session over the deadline-and-cancel socket helpers
// (tcp_dial.h). The request is one message (body=, the protobuf encoding,
// sent as it is); the answer is the call's grpc-status and grpc-message
// (from its trailers, or a trailers-only response) and the reply's first
// message.
#pragma once

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

} // namespace fbc::rt
