#include "runtime/clients/tcp_dial.h"

#include "runtime/clients/tls_dial.h"

#include "runtime/trace/trace.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

namespace fbc::rt {

int waitFd(int fd, short events, int64_t deadlineNs, const std::function<bool()> &cancelled) {
  for (;;) {
    if (cancelled && cancelled())
      return -1;
    int64_t leftNs = deadlineNs - monotonicNs();
    if (leftNs <= 0)
      return 0;
    // Rounded up: a wait with under a millisecond left still polls once
    // instead of calling a connect in flight timed out.
    int64_t leftMs = (leftNs + 999999) / 1000000;
    pollfd p{fd, events, 0};
    int rc = poll(&p, 1, static_cast<int>(std::min<int64_t>(leftMs, 50)));
    if (rc > 0)
      return 1;
    if (rc < 0 && errno != EINTR)
      return -1;
  }
}

int dialTcp(const std::string &host, uint16_t port, int64_t deadlineNs,
            const std::function<bool()> &cancelled, std::string &error) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo *res = nullptr;
  std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res); rc != 0) {
    error = gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  error = "connection refused"; // when no address yields a socket
  for (addrinfo *ai = res; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
      continue;
    int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
      int w = waitFd(fd, POLLOUT, deadlineNs, cancelled);
      if (w == 1) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
        rc = err == 0 ? 0 : -1;
        errno = err;
      } else {
        errno = w == 0 ? ETIMEDOUT : ECANCELED;
        rc = -1;
      }
    }
    if (rc == 0)
      break;
    error = errno == ECANCELED ? "cancelled" : std::strerror(errno);
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd >= 0)
    error.clear();
  return fd;
}

int dialForStep(const std::string &host, uint16_t port, int64_t deadlineNs,
                const std::function<bool()> &cancelled, std::string &error) {
  int fd = dialTcp(host, port, deadlineNs, cancelled, error);
  if (fd < 0)
    error = "dial tcp " + host + ":" + std::to_string(port) + ": " + error;
  return fd;
}

std::string sendAll(int fd, std::string_view data, int64_t deadlineNs,
                    const std::function<bool()> &cancelled) {
  size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      int w = waitFd(fd, POLLOUT, deadlineNs, cancelled);
      if (w == 1)
        continue;
      return w == 0 ? "write: i/o timeout" : "cancelled";
    }
    return std::string("write: ") + std::strerror(errno);
  }
  return "";
}

long recvSome(int fd, std::string &out, int64_t deadlineNs, const std::function<bool()> &cancelled,
              std::string &error) {
  for (;;) {
    char buf[16384];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n >= 0) {
      out.append(buf, static_cast<size_t>(n));
      return static_cast<long>(n);
    }
    if (errno == EAGAIN || errno == EINTR) {
      int w = waitFd(fd, POLLIN, deadlineNs, cancelled);
      if (w == 1)
        continue;
      error = w == 0 ? "read: i/o timeout" : "cancelled";
      return -1;
    }
    error = std::string("read: ") + std::strerror(errno);
    return -1;
  }
}

namespace {

// exchangeOnce's greeting before TLS: read in clear until clearGreeting
// finds it whole and fed to `read`; "" or why not. The server sends nothing
// more until the client's handshake, so reading the greeting whole reads
// no TLS byte.
std::string clearGreetingFirst(int fd, int64_t deadlineNs, const std::function<bool()> &cancelled,
                               const ReplyReaderFn &read, std::string_view closedBeforeReply,
                               GreetingLengthFn clearGreeting) {
  std::string greeting, error;
  size_t length = 0;
  while (error.empty() && (length = clearGreeting(greeting)) == 0) {
    if (long n = recvSome(fd, greeting, deadlineNs, cancelled, error); n == 0)
      error = closedBeforeReply;
    else if (n > 0 && greeting.size() > 64 * 1024)
      error = "no greeting in the server's first 64 KiB";
  }
  if (!error.empty())
    return error;
  if (greeting.size() > length)
    return "the server sent bytes after its greeting, before the TLS handshake";
  ReplyState state = read(greeting, error);
  if (error.empty() && state != ReplyState::NeedMore)
    error = state == ReplyState::Failed ? "protocol error"
                                        : "the server's greeting ended the exchange before TLS";
  return error;
}

} // namespace

std::string exchangeOnce(const std::string &host, uint16_t port, std::string_view request,
                         int64_t dialDeadlineNs, int64_t ioTimeoutMs,
                         const std::function<bool()> &cancelled, const ReplyReaderFn &read,
                         std::string_view closedBeforeReply, const TlsClientConfig *tls,
                         GreetingLengthFn clearGreeting) {
  std::string error;
  std::unique_ptr<TlsStream> session;
  std::shared_ptr<TlsContext> context;
  if (tls && !(context = tls->context(error)))
    return error;
  int fd = dialForStep(host, port, dialDeadlineNs, cancelled, error);
  if (fd < 0)
    return error;
  int64_t ioDeadline = monotonicNs() + ioTimeoutMs * 1000000;
  if (context && clearGreeting)
    error = clearGreetingFirst(fd, ioDeadline, cancelled, read, closedBeforeReply, clearGreeting);
  if (context && error.empty()) {
    session = std::make_unique<TlsStream>(context, fd, host);
    error = tlsHandshake(*session, fd, ioDeadline, cancelled);
  }
  if (error.empty())
    error = session ? tlsSendAll(*session, fd, request, ioDeadline, cancelled)
                    : sendAll(fd, request, ioDeadline, cancelled);
  for (ReplyState state = ReplyState::NeedMore; error.empty() && state == ReplyState::NeedMore;) {
    std::string chunk;
    long n = session ? tlsRecvSome(*session, fd, chunk, ioDeadline, cancelled, error)
                     : recvSome(fd, chunk, ioDeadline, cancelled, error);
    if (n == 0)
      error = closedBeforeReply;
    if (n > 0)
      state = read(chunk, error);
    if (state == ReplyState::Failed && error.empty())
      error = "protocol error"; // a reader that failed without a word never reads as a reply
  }
  if (session)
    session->shutdown();
  session.reset();
  close(fd);
  return error;
}

} // namespace fbc::rt
