// Non-blocking TCP connects with a deadline and a cancel hook, shared by the
// tcp() healthcheck probe and the TCP step (svc.<iface>.send()).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace fbc::rt {

// Waits for `events` on fd until `deadlineNs` (monotonicNs()), in short
// slices so that `cancelled()` is seen promptly. 1 ready, 0 timed out,
// -1 cancelled or error.
int waitFd(int fd, short events, int64_t deadlineNs, const std::function<bool()> &cancelled);

// Connects to host:port, trying each resolved address until one connects.
// Returns the connected fd (non-blocking, close-on-exec), or -1 with `error`:
// the resolver's message, strerror() of the last attempt, or "cancelled".
int dialTcp(const std::string &host, uint16_t port, int64_t deadlineNs,
            const std::function<bool()> &cancelled, std::string &error);

} // namespace fbc::rt
