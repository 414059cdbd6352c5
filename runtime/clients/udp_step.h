// The udp interface's steps: one datagram to the interface's address, and
// (send) the first datagram that comes back within the timeout.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace fbc::rt {

struct UdpStepResult {
  bool ok = false;                  // sent (and, when waited for, a reply or none in time)
  std::optional<std::string> reply; // the reply datagram; none when none came in time
  std::string error;                // "send: ...", "connect: ...", "cancelled"
  int64_t durationMs = 0;
};

// Sends `data` as one datagram to host:port (IPv4) from a socket of its
// own; with `waitMs` > 0 waits that long for the first datagram back (a
// datagram lost on the way, or never answered, is no reply: not an error).
UdpStepResult udpStep(const std::string &host, uint16_t port, const std::string &data,
                      int64_t waitMs, const std::function<bool()> &cancelled);

} // namespace fbc::rt
