// The destination of a connect/sendto, parsed from the raw sockaddr bytes
// read out of the target: enough to tell whether it is one of a service's
// ports on this machine, and to print it in the trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fbc::rt {

struct Destination {
  enum class Family : uint8_t { None, Inet, Inet6, Unix, Other };
  Family family = Family::None;
  uint16_t port = 0;     // host order
  uint8_t addr[16] = {}; // 4 bytes for Inet, 16 for Inet6
  bool local = false;    // 127.0.0.0/8, ::1, ::ffff:127.x, 0.0.0.0 or ::
  bool valid() const { return family == Family::Inet || family == Family::Inet6; }
  // "127.0.0.1:6379", "[::1]:6379", "" when not an inet address.
  std::string text() const;
};

// Parses `len` bytes of a struct sockaddr.
Destination parseSockaddr(const void *data, size_t len);

} // namespace fbc::rt
