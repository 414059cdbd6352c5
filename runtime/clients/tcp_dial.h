// Non-blocking TCP connects, writes and reads with a deadline and a cancel
// hook, shared by the healthcheck probes and the TCP and Redis steps.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

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

// dialTcp() as a step reports it: -1 with `error` = "dial tcp
// <host>:<port>: <why>" (the TCP and Redis steps).
int dialForStep(const std::string &host, uint16_t port, int64_t deadlineNs,
                const std::function<bool()> &cancelled, std::string &error);

// Writes all of `data` to the non-blocking fd. "" when done, else
// "write: <strerror>", "write: i/o timeout" or "cancelled".
std::string sendAll(int fd, std::string_view data, int64_t deadlineNs,
                    const std::function<bool()> &cancelled);

// Appends what the non-blocking fd has to `out`, waiting for it until the
// deadline: the number of bytes read, 0 at EOF, -1 with `error` ("read:
// <strerror>", "read: i/o timeout", "cancelled").
long recvSome(int fd, std::string &out, int64_t deadlineNs, const std::function<bool()> &cancelled,
              std::string &error);

// What a reply reader says of the bytes received so far.
enum class ReplyState { NeedMore, Done, Failed };
using ReplyReaderFn = std::function<ReplyState(std::string_view chunk, std::string &error)>;

// One request and its reply over a fresh connection, as the TCP, Redis and
// memcached steps and probes make it: dial host:port by `dialDeadlineNs`
// (dialForStep's error), send `request`, and feed each chunk read to `read`
// until it says Done, or Failed with its error, all within `ioTimeoutMs`.
// "" when Done, else why: the dial's, the write's or the read's error,
// `closedBeforeReply` at EOF, or what `read` set. With `tls` (an
// interface(tls=)), the exchange runs in a TLS session begun at connect,
// verified as tls_dial.h says (the host's name or address); with
// `clearGreeting` too, after the server's greeting, read in clear and fed
// to `read` first (NATS's INFO line): clearGreeting gives the greeting's
// length once it is all there, 0 before.
struct TlsClientConfig;
using GreetingLengthFn = size_t (*)(std::string_view received);
std::string exchangeOnce(const std::string &host, uint16_t port, std::string_view request,
                         int64_t dialDeadlineNs, int64_t ioTimeoutMs,
                         const std::function<bool()> &cancelled, const ReplyReaderFn &read,
                         std::string_view closedBeforeReply = "connection closed before a reply",
                         const TlsClientConfig *tls = nullptr,
                         GreetingLengthFn clearGreeting = nullptr);

} // namespace fbc::rt
