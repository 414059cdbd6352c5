// The test driver's requests to services (the body's steps): HTTP over
// libcurl and the one-line TCP protocol. Both block the calling (body)
// thread only, and both give up promptly when `cancelled()` turns true
// (a body timeout or an interrupt), so a hung service never hangs fbc.
#pragma once

#include "runtime/clients/tls_dial.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

struct HttpStepRequest {
  std::string method = "GET"; // GET POST PUT PATCH DELETE
  std::string url;            // http://127.0.0.1:8080/path
  std::string body;
  bool hasBody = false;
  std::vector<std::pair<std::string, std::string>> headers;
  int64_t timeoutMs = 30000;
  // An interface(tls=)'s: req.url is https:// and curl trusts its CA.
  std::shared_ptr<const TlsClientConfig> tls;
  bool http2 = false; // HTTP/2 with prior knowledge (an http2 interface)
};

struct HttpStepResponse {
  bool ok = false; // a response arrived (any status)
  long status = 0; // 0 when no response
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers; // names lower-cased, in order
  std::string error;                                        // when !ok
  int64_t durationMs = 0;
};

// A response body is read whole up to this; a longer one is the step's
// error, never a cut body (the reference silently cuts at 64 KiB).
inline constexpr size_t kMaxHttpBody = size_t(64) << 20;

HttpStepResponse httpStep(const HttpStepRequest &req, const std::function<bool()> &cancelled);
// curl's TLS options for an interface(tls=): its CA (or no verification
// with insecure=True) and client certificate. Nothing when `tls` is null.
void setCurlTls(void *curl, const TlsClientConfig *tls);

// A TCP step's reply is one line: at most this many bytes before its newline
// (a service that streams without one would otherwise grow it unbounded).
inline constexpr size_t kMaxTcpReply = 1 << 20;

struct TcpStepResult {
  bool ok = false;
  std::string reply; // the reply line without "\n"
  // "dial tcp ...: connection refused", "read: i/o timeout", "cancelled",
  // "connection closed before a reply line"
  std::string error;
  int64_t durationMs = 0;
};

// Connects to host:port, sends `data` (a "\n" appended if missing) and reads
// one reply line. Dial timeout 5 s, I/O timeout 10 s (the reference's). A
// connection closed before a whole line (up to its "\n") arrived fails.
TcpStepResult tcpStep(const std::string &host, uint16_t port, const std::string &data,
                      const std::function<bool()> &cancelled, const TlsClientConfig *tls = nullptr);

} // namespace fbc::rt
