// TLS over OpenSSL, loaded on first use: see tls.h.
//
// libssl.so.3 is dlopen()ed the first time a TLS interface needs it, for
// pq_loader.cpp's reason: linked, OpenSSL would cost every fbc process
// resident memory although only a run with interface(tls=) uses it. The
// functions are called through a struct of pointers, never defined under
// their own names: libcurl, libpq and libmariadb load the same libssl and
// must not bind to forwarders of ours. libcrypto's few functions are found
// through libssl's handle (dlsym searches its dependencies).
#include "runtime/os/tls.h"

#include "frontend/support/lazy_library.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

#include <cerrno>
#include <cstring>

namespace {

#define FBC_OPENSSL_FUNCTIONS(X)                                                                   \
  X(const SSL_METHOD *, TLS_server_method, (void), ())                                             \
  X(const SSL_METHOD *, TLS_client_method, (void), ())                                             \
  X(SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *m), (m))                                            \
  X(void, SSL_CTX_free, (SSL_CTX * c), (c))                                                        \
  X(uint64_t, SSL_CTX_set_options, (SSL_CTX * c, uint64_t o), (c, o))                              \
  X(long, SSL_CTX_ctrl, (SSL_CTX * c, int cmd, long l, void *p), (c, cmd, l, p))                   \
  X(int, SSL_CTX_use_certificate_chain_file, (SSL_CTX * c, const char *f), (c, f))                 \
  X(int, SSL_CTX_use_PrivateKey_file, (SSL_CTX * c, const char *f, int t), (c, f, t))              \
  X(int, SSL_CTX_check_private_key, (const SSL_CTX *c), (c))                                       \
  X(int, SSL_CTX_load_verify_locations, (SSL_CTX * c, const char *f, const char *d), (c, f, d))    \
  X(int, SSL_CTX_set_default_verify_paths, (SSL_CTX * c), (c))                                     \
  X(void, SSL_CTX_set_verify, (SSL_CTX * c, int m, SSL_verify_cb cb), (c, m, cb))                  \
  X(SSL *, SSL_new, (SSL_CTX * c), (c))                                                            \
  X(void, SSL_free, (SSL * s), (s))                                                                \
  X(int, SSL_set_fd, (SSL * s, int fd), (s, fd))                                                   \
  X(void, SSL_set_accept_state, (SSL * s), (s))                                                    \
  X(void, SSL_set_connect_state, (SSL * s), (s))                                                   \
  X(long, SSL_ctrl, (SSL * s, int cmd, long l, void *p), (s, cmd, l, p))                           \
  X(int, SSL_set1_host, (SSL * s, const char *h), (s, h))                                          \
  X(X509_VERIFY_PARAM *, SSL_get0_param, (SSL * s), (s))                                           \
  X(int, X509_VERIFY_PARAM_set1_ip_asc, (X509_VERIFY_PARAM * p, const char *ip), (p, ip))          \
  X(int, SSL_do_handshake, (SSL * s), (s))                                                         \
  X(int, SSL_read, (SSL * s, void *b, int n), (s, b, n))                                           \
  X(int, SSL_write, (SSL * s, const void *b, int n), (s, b, n))                                    \
  X(int, SSL_shutdown, (SSL * s), (s))                                                             \
  X(int, SSL_get_error, (const SSL *s, int rc), (s, rc))                                           \
  X(long, SSL_get_verify_result, (const SSL *s), (s))                                              \
  X(const char *, X509_verify_cert_error_string, (long n), (n))                                    \
  X(unsigned long, ERR_get_error, (void), ())                                                      \
  X(void, ERR_clear_error, (void), ())                                                             \
  X(void, ERR_error_string_n, (unsigned long e, char *b, size_t n), (e, b, n))

struct Openssl {
  FBC_OPENSSL_FUNCTIONS(FBC_LAZY_POINTER)
};

Openssl fns;
constinit fbc::support::LazyLibrary lib("libssl.so.3", "libssl3");

void bindAll(fbc::support::LazyLibrary &l) {
  FBC_OPENSSL_FUNCTIONS(FBC_LAZY_BIND)
}

// OpenSSL's reason for the last failure on this thread ("" if none), and
// the queue emptied.
std::string lastError() {
  std::string text;
  while (unsigned long e = fns.ERR_get_error()) {
    char buf[256];
    fns.ERR_error_string_n(e, buf, sizeof buf);
    // "error:0A000086:SSL routines::certificate verify failed": the reason
    // after the last colon is what a reader needs.
    std::string_view s(buf);
    size_t colon = s.rfind(':');
    text = std::string(colon == std::string_view::npos ? s : s.substr(colon + 1));
  }
  return text;
}

} // namespace

namespace fbc::rt {

bool loadOpenssl(std::string &error) {
  return lib.load(bindAll, error);
}

namespace {

// A new SSL_CTX of `method`'s, set up as every session of fbc's wants it:
// an EOF without close_notify is the end of the stream (as a clear
// connection's), and partial writes from a buffer that may move between
// retries (the proxy's). Null with `error`.
SSL_CTX *newContext(const SSL_METHOD *method, std::string &error) {
  SSL_CTX *c = fns.SSL_CTX_new(method);
  if (!c) {
    error = "tls: " + lastError();
    return nullptr;
  }
  fns.SSL_CTX_set_options(c, SSL_OP_IGNORE_UNEXPECTED_EOF);
  fns.SSL_CTX_ctrl(c, SSL_CTRL_MODE,
                   SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, nullptr);
  return c;
}

// The certificate (chain) and its key, checked to match; false with `error`.
bool useCertificate(SSL_CTX *c, const std::string &certFile, const std::string &keyFile,
                    std::string &error) {
  if (fns.SSL_CTX_use_certificate_chain_file(c, certFile.c_str()) != 1) {
    error = "tls: certificate " + certFile + ": " + lastError();
    return false;
  }
  if (fns.SSL_CTX_use_PrivateKey_file(c, keyFile.c_str(), SSL_FILETYPE_PEM) != 1 ||
      fns.SSL_CTX_check_private_key(c) != 1) {
    error = "tls: key " + keyFile + ": " + lastError();
    return false;
  }
  return true;
}

} // namespace

std::shared_ptr<TlsContext> TlsContext::server(const std::string &certFile,
                                               const std::string &keyFile, std::string &error) {
  if (!loadOpenssl(error))
    return nullptr;
  SSL_CTX *c = newContext(fns.TLS_server_method(), error);
  if (!c)
    return nullptr;
  std::shared_ptr<TlsContext> ctx(new TlsContext(c, true, false));
  return useCertificate(c, certFile, keyFile, error) ? ctx : nullptr;
}

std::shared_ptr<TlsContext> TlsContext::client(const std::string &caFile, bool insecure,
                                               const std::string &certFile,
                                               const std::string &keyFile, std::string &error) {
  if (!loadOpenssl(error))
    return nullptr;
  SSL_CTX *c = newContext(fns.TLS_client_method(), error);
  if (!c)
    return nullptr;
  std::shared_ptr<TlsContext> ctx(new TlsContext(c, false, !insecure));
  if (!insecure) {
    bool ok = caFile.empty() ? fns.SSL_CTX_set_default_verify_paths(c) == 1
                             : fns.SSL_CTX_load_verify_locations(c, caFile.c_str(), nullptr) == 1;
    if (!ok) {
      error = "tls: ca " + caFile + ": " + lastError();
      return nullptr;
    }
    fns.SSL_CTX_set_verify(c, SSL_VERIFY_PEER, nullptr);
  }
  if (!certFile.empty() && !useCertificate(c, certFile, keyFile, error))
    return nullptr;
  return ctx;
}

TlsContext::~TlsContext() {
  fns.SSL_CTX_free(static_cast<SSL_CTX *>(ctx_));
}

TlsStream::TlsStream(std::shared_ptr<TlsContext> ctx, int fd, const std::string &verifyHost)
    : ctx_(std::move(ctx)) {
  SSL *s = fns.SSL_new(static_cast<SSL_CTX *>(ctx_->native()));
  ssl_ = s;
  if (!s) {
    error_ = "tls: " + lastError();
    return;
  }
  fns.SSL_set_fd(s, fd);
  if (ctx_->isServer()) {
    fns.SSL_set_accept_state(s);
    return;
  }
  fns.SSL_set_connect_state(s);
  if (verifyHost.empty())
    return;
  in6_addr ip;
  bool literal = inet_pton(AF_INET, verifyHost.c_str(), &ip) == 1 ||
                 inet_pton(AF_INET6, verifyHost.c_str(), &ip) == 1;
  if (literal) {
    if (ctx_->verifies())
      fns.X509_VERIFY_PARAM_set1_ip_asc(fns.SSL_get0_param(s), verifyHost.c_str());
  } else {
    fns.SSL_ctrl(s, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
                 const_cast<char *>(verifyHost.c_str()));
    if (ctx_->verifies())
      fns.SSL_set1_host(s, verifyHost.c_str());
  }
}

TlsStream::~TlsStream() {
  if (ssl_)
    fns.SSL_free(static_cast<SSL *>(ssl_));
}

TlsStream::Io TlsStream::result(int rc, const char *what) {
  SSL *s = static_cast<SSL *>(ssl_);
  switch (fns.SSL_get_error(s, rc)) {
  case SSL_ERROR_NONE:
    return Io::Ok;
  case SSL_ERROR_WANT_READ:
    return Io::WantRead;
  case SSL_ERROR_WANT_WRITE:
    return Io::WantWrite;
  case SSL_ERROR_ZERO_RETURN:
    return Io::Closed;
  case SSL_ERROR_SYSCALL:
    if (errno == 0 || errno == EPIPE) {
      fns.ERR_clear_error();
      return Io::Closed;
    }
    error_ = std::string(what) + ": " + std::strerror(errno);
    fns.ERR_clear_error();
    return Io::Failed;
  default: {
    std::string why = lastError();
    long verify = fns.SSL_get_verify_result(s);
    if (verify != X509_V_OK)
      why += std::string(" (") + fns.X509_verify_cert_error_string(verify) + ")";
    error_ = std::string(what) + ": " + (why.empty() ? "failed" : why);
    return Io::Failed;
  }
  }
}

TlsStream::Io TlsStream::handshake() {
  if (!ssl_)
    return Io::Failed;
  if (done_)
    return Io::Ok;
  fns.ERR_clear_error();
  errno = 0;
  int rc = fns.SSL_do_handshake(static_cast<SSL *>(ssl_));
  if (rc == 1) {
    done_ = true;
    return Io::Ok;
  }
  Io r = result(rc, "tls handshake");
  if (r == Io::Closed) {
    error_ = "tls handshake: the peer closed the connection";
    return Io::Failed;
  }
  return r;
}

TlsStream::Io TlsStream::read(char *buf, size_t cap, size_t &n) {
  n = 0;
  fns.ERR_clear_error();
  errno = 0;
  int rc = fns.SSL_read(static_cast<SSL *>(ssl_), buf, static_cast<int>(cap));
  if (rc > 0) {
    n = size_t(rc);
    return Io::Ok;
  }
  return result(rc, "tls read");
}

TlsStream::Io TlsStream::write(const char *buf, size_t len, size_t &n) {
  n = 0;
  if (len == 0)
    return Io::Ok;
  fns.ERR_clear_error();
  errno = 0;
  int rc = fns.SSL_write(static_cast<SSL *>(ssl_), buf, static_cast<int>(len));
  if (rc > 0) {
    n = size_t(rc);
    return Io::Ok;
  }
  return result(rc, "tls write");
}

void TlsStream::shutdown() {
  if (ssl_ && done_) {
    fns.ERR_clear_error();
    fns.SSL_shutdown(static_cast<SSL *>(ssl_));
    fns.ERR_clear_error();
  }
}

} // namespace fbc::rt
