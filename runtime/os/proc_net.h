// The sockets of a network namespace as the kernel lists them in
// /proc/<pid>/net/{tcp,tcp6,udp,udp6}: what is bound or listening there,
// read without touching it (a probe that binds or connects to find out can
// take the port from the service at the moment it binds, or be counted as
// its first client).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fbc::rt {

struct ProcSocket {
  std::string localIp; // as the file writes it: "0100007F" (127.0.0.1), 32 digits for IPv6
  uint16_t localPort = 0;
  uint8_t state = 0; // TCP states (0x0A listen); 0x07 for an unconnected UDP socket

  // 127.0.0.1 or ::1.
  bool loopback() const;
};

// The sockets of `file` ("tcp", "tcp6", "udp", "udp6") in the namespace of
// `proc` ("/proc/1234", "/proc/thread-self"); none when it cannot be read.
std::vector<ProcSocket> procNetSockets(const std::string &proc, const char *file);

} // namespace fbc::rt
