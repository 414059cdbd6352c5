// TLS for the step clients and probes: see tls_dial.h.
#include "runtime/clients/tls_dial.h"

#include "runtime/clients/tcp_dial.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

#include <poll.h>

#include <map>
#include <mutex>
#include <tuple>

namespace fbc::rt {
namespace {

std::string resolve(const std::string &path, const std::string &dir) {
  if (path.empty() || llvm::sys::path::is_absolute(path) || dir.empty())
    return path;
  llvm::SmallString<256> joined(dir);
  llvm::sys::path::append(joined, path);
  return std::string(joined.str());
}

// Waits for what the session asked for; "" to go on, else why not.
std::string waitFor(TlsStream::Io io, int fd, int64_t deadlineNs,
                    const std::function<bool()> &cancelled, const char *timedOut) {
  int w = waitFd(fd, io == TlsStream::Io::WantRead ? POLLIN : POLLOUT, deadlineNs, cancelled);
  if (w == 1)
    return "";
  return w == 0 ? timedOut : "cancelled";
}

} // namespace

std::shared_ptr<TlsContext> TlsClientConfig::context(std::string &error) const {
  std::call_once(made_, [&] { context_ = TlsContext::client(ca, insecure, cert, key, error_); });
  if (!context_)
    error = error_;
  return context_;
}

std::shared_ptr<const TlsClientConfig> tlsClientConfig(const ir::TlsCert &c,
                                                       const std::string &specDir) {
  auto config = std::make_shared<TlsClientConfig>();
  config->ca = resolve(c.ca, specDir);
  config->insecure = c.insecure;
  config->cert = resolve(c.clientCert, specDir);
  config->key = resolve(c.clientKey, specDir);
  config->proxyCert = resolve(c.proxyCert, specDir);
  config->proxyKey = resolve(c.proxyKey, specDir);
  // One config per set of files for the process (a run), so its context is
  // made once however many steps, probes and proxies use it.
  static std::mutex mu;
  static std::map<std::tuple<std::string, bool, std::string, std::string, std::string, std::string>,
                  std::shared_ptr<const TlsClientConfig>>
      made;
  std::lock_guard lock(mu);
  return made
      .try_emplace({config->ca, config->insecure, config->cert, config->key, config->proxyCert,
                    config->proxyKey},
                   config)
      .first->second;
}

std::string tlsHandshake(TlsStream &s, int fd, int64_t deadlineNs,
                         const std::function<bool()> &cancelled) {
  for (;;) {
    TlsStream::Io io = s.handshake();
    if (io == TlsStream::Io::Ok)
      return "";
    if (io != TlsStream::Io::WantRead && io != TlsStream::Io::WantWrite)
      return s.error();
    if (std::string why = waitFor(io, fd, deadlineNs, cancelled, "tls handshake: i/o timeout");
        !why.empty())
      return why;
  }
}

std::string tlsSendAll(TlsStream &s, int fd, std::string_view data, int64_t deadlineNs,
                       const std::function<bool()> &cancelled) {
  size_t sent = 0;
  while (sent < data.size()) {
    size_t n = 0;
    TlsStream::Io io = s.write(data.data() + sent, data.size() - sent, n);
    sent += n;
    if (io == TlsStream::Io::Ok)
      continue;
    if (io == TlsStream::Io::Closed)
      return "write: the peer closed the connection";
    if (io == TlsStream::Io::Failed)
      return s.error();
    if (std::string why = waitFor(io, fd, deadlineNs, cancelled, "write: i/o timeout");
        !why.empty())
      return why;
  }
  return "";
}

long tlsRecvSome(TlsStream &s, int fd, std::string &out, int64_t deadlineNs,
                 const std::function<bool()> &cancelled, std::string &error) {
  for (;;) {
    char buf[16384];
    size_t n = 0;
    TlsStream::Io io = s.read(buf, sizeof buf, n);
    if (io == TlsStream::Io::Ok) {
      out.append(buf, n);
      return static_cast<long>(n);
    }
    if (io == TlsStream::Io::Closed)
      return 0;
    if (io == TlsStream::Io::Failed) {
      error = s.error();
      return -1;
    }
    if (std::string why = waitFor(io, fd, deadlineNs, cancelled, "read: i/o timeout");
        !why.empty()) {
      error = why;
      return -1;
    }
  }
}

} // namespace fbc::rt
