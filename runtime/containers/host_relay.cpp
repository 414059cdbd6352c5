// Relays between the host's network and a container's or a leaf's: see
// host_relay.h. Blocking sockets, a thread per connection: a test opens
// few connections through them, and each ends with the relay (its stop
// eventfd wakes every poll).
#include "runtime/containers/host_relay.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/os/clock.h"
#include "runtime/os/leaf_isolation.h"
#include "runtime/os/proc_net.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

namespace fbc::rt::containers {

namespace {

bool parseIpv4(const std::string &host, uint16_t port, sockaddr_in &addr) {
  addr = {};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  return inet_pton(AF_INET, host.c_str(), &addr.sin_addr) == 1;
}

// Copies what `from` has to `to`; false at EOF or on an error.
bool pump(int from, int to) {
  char buf[16384];
  ssize_t n = read(from, buf, sizeof buf);
  if (n <= 0)
    return false;
  for (ssize_t off = 0; off < n;) {
    ssize_t w = send(to, buf + off, static_cast<size_t>(n - off), MSG_NOSIGNAL);
    if (w <= 0)
      return false;
    off += w;
  }
  return true;
}

} // namespace

bool reachableOnGateway(const std::string &gateway, uint16_t port) {
  std::string ignored;
  int fd = dialTcp(gateway, port, monotonicNs() + 200 * 1000000LL, nullptr, ignored);
  if (fd < 0)
    return false;
  close(fd);
  return true;
}

std::unique_ptr<HostRelay> HostRelay::open(const RelayEnds &ends, std::string &error) {
  sockaddr_in addr;
  if (!parseIpv4(ends.listenHost, ends.listenPort, addr)) {
    error = "cannot relay from " + ends.listenHost + ": not an IPv4 address";
    return nullptr;
  }
  std::unique_ptr<HostRelay> r(new HostRelay());
  r->ends_ = ends;
  std::string what = "cannot relay " + ends.listenHost + ":" + std::to_string(ends.listenPort) +
                     " to " + ends.upHost + ":" + std::to_string(ends.upPort) + ": ";
  {
    std::optional<NetnsVisit> visit;
    if (ends.listenNetns >= 0 && !visit.emplace(ends.listenNetns, error).ok()) {
      error = what + error;
      return nullptr;
    }
    r->listenFd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  }
  // The acceptor moves into the upstream's namespace (acceptLoop()), where
  // a failure could not be told to anyone: the move is tried here first.
  if (ends.upNetns >= 0)
    if (NetnsVisit visit(ends.upNetns, error); !visit.ok()) {
      error = what + error;
      return nullptr;
    }
  int one = 1;
  if (r->listenFd_ < 0 ||
      setsockopt(r->listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
      bind(r->listenFd_, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) < 0 ||
      (!ends.readyPid && listen(r->listenFd_, 64) < 0)) {
    error = what + std::strerror(errno);
    return nullptr;
  }
  r->stopFd_ = eventfd(0, EFD_CLOEXEC);
  if (r->stopFd_ < 0) {
    error = std::string("eventfd: ") + std::strerror(errno);
    return nullptr;
  }
  r->acceptor_ = std::thread([p = r.get()] { p->acceptLoop(); });
  return r;
}

HostRelay::~HostRelay() {
  if (stopFd_ >= 0) {
    uint64_t one = 1;
    if (write(stopFd_, &one, sizeof one) != sizeof one) {
    }
  }
  if (acceptor_.joinable())
    acceptor_.join();
  std::vector<std::thread> conns;
  {
    std::lock_guard lock(mu_);
    conns.swap(conns_);
  }
  for (std::thread &t : conns)
    t.join();
  if (listenFd_ >= 0)
    close(listenFd_);
  if (stopFd_ >= 0)
    close(stopFd_);
}

bool listensOutside(int pid, uint16_t port) {
  for (const char *file : {"tcp", "tcp6"})
    for (const ProcSocket &s : procNetSockets("/proc/" + std::to_string(pid), file))
      if (s.state == 0x0A && s.localPort == port && !s.loopback())
        return true;
  return false;
}

bool HostRelay::awaitUpstream() {
  while (!listensOutside(ends_.readyPid, ends_.upPort)) {
    pollfd p = {stopFd_, POLLIN, 0};
    if (poll(&p, 1, 5) > 0) // the service's start is watched every 5 ms
      return false;
  }
  return listen(listenFd_, 64) == 0;
}

void HostRelay::acceptLoop() {
  // Connections to the upstream are made from its namespace (this thread
  // and those it starts are in it).
  if (ends_.upNetns >= 0 && setns(ends_.upNetns, CLONE_NEWNET) < 0)
    return;
  if (ends_.readyPid > 0 && !awaitUpstream())
    return;
  for (;;) {
    pollfd p[2] = {{listenFd_, POLLIN, 0}, {stopFd_, POLLIN, 0}};
    if (poll(p, 2, -1) < 0 && errno != EINTR)
      return;
    if (p[1].revents)
      return;
    if (!(p[0].revents & POLLIN))
      continue;
    int client = accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0)
      continue;
    std::lock_guard lock(mu_);
    conns_.emplace_back([this, client] { relay(client); });
  }
}

void HostRelay::relay(int client) {
  std::string why;
  int up = dialTcp(ends_.upHost, ends_.upPort, monotonicNs() + 5000 * 1000000LL, nullptr, why);
  if (up >= 0) {
    // dialTcp's fd is non-blocking; the copy below waits in poll().
    fcntl(up, F_SETFL, fcntl(up, F_GETFL) & ~O_NONBLOCK);
    bool open[2] = {true, true}; // client -> up, up -> client
    while (open[0] || open[1]) {
      pollfd p[3] = {
          {open[0] ? client : -1, POLLIN, 0}, {open[1] ? up : -1, POLLIN, 0}, {stopFd_, POLLIN, 0}};
      if (poll(p, 3, -1) < 0 && errno != EINTR)
        break;
      if (p[2].revents)
        break;
      for (int side = 0; side < 2; ++side) {
        int from = side == 0 ? client : up, to = side == 0 ? up : client;
        if (open[side] && p[side].revents && !pump(from, to)) {
          open[side] = false;
          shutdown(to, SHUT_WR); // the half-close goes on to the other end
        }
      }
    }
    close(up);
  }
  close(client);
}

std::string rewriteLoopback(std::string_view value,
                            const std::function<std::optional<std::string>(uint16_t)> &to) {
  std::string out;
  size_t i = 0;
  while (i < value.size()) {
    size_t best = std::string_view::npos, hostLen = 0;
    for (std::string_view host : {"localhost:", "127.0.0.1:"})
      if (size_t at = value.find(host, i); at < best) {
        best = at;
        hostLen = host.size();
      }
    if (best == std::string_view::npos)
      break;
    // "notlocalhost:80" or "10.127.0.0.1:80" name another host.
    if (char before = best > 0 ? value[best - 1] : ' ';
        std::isalnum(static_cast<unsigned char>(before)) || before == '.' || before == '-') {
      out.append(value.substr(i, best + hostLen - i));
      i = best + hostLen;
      continue;
    }
    size_t digits = best + hostLen, end = digits;
    while (end < value.size() && end - digits < 6 &&
           std::isdigit(static_cast<unsigned char>(value[end])))
      ++end;
    unsigned long port =
        end > digits ? std::stoul(std::string(value.substr(digits, end - digits))) : 0;
    bool whole = end == value.size() || !std::isdigit(static_cast<unsigned char>(value[end]));
    std::optional<std::string> with =
        whole && port > 0 && port <= 65535 ? to(static_cast<uint16_t>(port)) : std::nullopt;
    out.append(value.substr(i, best - i));
    out.append(with ? *with : std::string(value.substr(best, end - best)));
    i = end;
  }
  out.append(value.substr(std::min(i, value.size())));
  return out;
}

} // namespace fbc::rt::containers
