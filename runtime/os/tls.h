// TLS sessions over a socket fbc owns, for the fault proxy that terminates
// and re-originates TLS on an interface(tls=tls_cert(...)) and for the step
// clients and probes that speak to such an interface. OpenSSL (libssl.so.3)
// is loaded on first use, as libcurl and libpq are (tls.cpp says why).
//
// Names checked: a client session verifies the peer's chain against the CA
// it was given and the peer's name against `verifyHost`: an IP literal is
// matched against the certificate's IP addresses, anything else against its
// DNS names (and is sent as SNI). A service fbc runs is dialed at
// 127.0.0.1, so its certificate names that address, as it must for any
// client that dials it there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace fbc::rt {

// A configured SSL_CTX: a server's certificate and key, or a client's
// trust (CA file, or none with `insecure`) and optional certificate.
class TlsContext {
public:
  // Null with `error` ("tls: <file>: <OpenSSL's reason>") when a file is
  // unreadable or the key does not match the certificate.
  static std::shared_ptr<TlsContext> server(const std::string &certFile, const std::string &keyFile,
                                            std::string &error);
  // `caFile` "" and !insecure: the system's trust store.
  static std::shared_ptr<TlsContext> client(const std::string &caFile, bool insecure,
                                            const std::string &certFile, const std::string &keyFile,
                                            std::string &error);
  ~TlsContext();
  TlsContext(const TlsContext &) = delete;
  TlsContext &operator=(const TlsContext &) = delete;

  bool isServer() const { return server_; }
  bool verifies() const { return verify_; }
  void *native() const { return ctx_; }

private:
  TlsContext(void *ctx, bool server, bool verify) : ctx_(ctx), server_(server), verify_(verify) {}
  void *ctx_;
  bool server_, verify_;
};

// One TLS session on a non-blocking socket (the caller keeps the fd and
// closes it). Every call does what it can now and says what it waits for.
class TlsStream {
public:
  enum class Io {
    Ok,        // done (read: `n` bytes, n > 0)
    WantRead,  // call again when the fd is readable
    WantWrite, // call again when the fd is writable
    Closed,    // the peer ended the session (close_notify or EOF)
    Failed,    // error() says why
  };
  TlsStream(std::shared_ptr<TlsContext> ctx, int fd, const std::string &verifyHost = "");
  ~TlsStream();
  TlsStream(const TlsStream &) = delete;
  TlsStream &operator=(const TlsStream &) = delete;

  Io handshake();
  bool handshakeDone() const { return done_; }
  Io read(char *buf, size_t cap, size_t &n);
  Io write(const char *buf, size_t len, size_t &n);
  // Sends close_notify, best effort (never waits).
  void shutdown();
  // "tls handshake: certificate verify failed (self-signed certificate)".
  const std::string &error() const { return error_; }

private:
  Io result(int rc, const char *what);
  std::shared_ptr<TlsContext> ctx_;
  void *ssl_ = nullptr;
  bool done_ = false;
  std::string error_;
};

// Whether libssl.so.3 loads (false with `error` naming the package).
bool loadOpenssl(std::string &error);

} // namespace fbc::rt
