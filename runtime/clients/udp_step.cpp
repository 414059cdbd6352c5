// The udp interface's steps: see udp_step.h.
#include "runtime/clients/udp_step.h"

#include "runtime/os/clock.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fbc::rt {

UdpStepResult udpStep(const std::string &host, uint16_t port, const std::string &data,
                      int64_t waitMs, const std::function<bool()> &cancelled) {
  UdpStepResult out;
  int64_t t0 = monotonicNs();
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  auto failed = [&](std::string why) {
    out.error = std::move(why);
    if (fd >= 0)
      close(fd);
    out.durationMs = (monotonicNs() - t0) / 1000000;
    return out;
  };
  if (fd < 0)
    return failed(std::string("socket: ") + std::strerror(errno));
  if (inet_pton(AF_INET, host.c_str(), &to.sin_addr) != 1)
    return failed("udp " + host + ":" + std::to_string(port) + ": not an IPv4 address");
  // Connected: only the address it was sent to answers.
  if (connect(fd, reinterpret_cast<sockaddr *>(&to), sizeof to) < 0)
    return failed(std::string("connect: ") + std::strerror(errno));
  if (send(fd, data.data(), data.size(), 0) != static_cast<ssize_t>(data.size()))
    return failed(std::string("send: ") + std::strerror(errno));
  out.ok = true;
  int64_t deadline = t0 + waitMs * 1000000;
  while (waitMs > 0) {
    if (cancelled && cancelled()) {
      out.ok = false;
      out.error = "cancelled";
      break;
    }
    int64_t left = (deadline - monotonicNs()) / 1000000;
    if (left <= 0)
      break;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 50))) <= 0)
      continue; // a slice: cancellation is checked between them
    char buf[65536];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n >= 0) {
      out.reply = std::string(buf, static_cast<size_t>(n));
      break;
    }
    // ECONNREFUSED: nothing listens there (an ICMP port unreachable); the
    // datagram is lost, as a dropped one is: no reply.
  }
  close(fd);
  out.durationMs = (monotonicNs() - t0) / 1000000;
  return out;
}

} // namespace fbc::rt
