// gRPC's framing over HTTP/2, shared by the proxy's bridge
// (runtime/proxy/proxy_h2.cpp) and the gRPC steps (runtime/clients/grpc_step.cpp):
// a message is a 5-byte prefix (compressed flag, big-endian length) and its
// bytes; a call ends with trailers grpc-status (0-16) and grpc-message,
// which is percent-encoded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fbc::rt {

// One uncompressed message on the wire.
std::string grpcFrame(std::string_view message);
// The first message of `data` (a call's DATA bytes, in order): true with
// `message` set when a whole one is there.
bool grpcUnframe(std::string_view data, std::string &message);

// grpc-message's encoding: bytes outside printable ASCII, and '%', as %XX.
std::string grpcPercentEncode(std::string_view s);
std::string grpcPercentDecode(std::string_view s);

} // namespace fbc::rt
