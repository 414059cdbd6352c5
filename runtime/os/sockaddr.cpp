#include "runtime/os/sockaddr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstring>

namespace fbc::rt {

Destination parseSockaddr(const void *data, size_t len) {
  Destination d;
  if (len < sizeof(sa_family_t))
    return d;
  sa_family_t fam;
  std::memcpy(&fam, data, sizeof fam);
  if (fam == AF_INET && len >= sizeof(sockaddr_in)) {
    sockaddr_in in;
    std::memcpy(&in, data, sizeof in);
    d.family = Destination::Family::Inet;
    d.port = ntohs(in.sin_port);
    std::memcpy(d.addr, &in.sin_addr, 4);
    // Connecting to 0.0.0.0 reaches the local host on Linux.
    d.local = d.addr[0] == 127 || in.sin_addr.s_addr == 0;
  } else if (fam == AF_INET6 && len >= sizeof(sockaddr_in6)) {
    sockaddr_in6 in6;
    std::memcpy(&in6, data, sizeof in6);
    d.family = Destination::Family::Inet6;
    d.port = ntohs(in6.sin6_port);
    std::memcpy(d.addr, &in6.sin6_addr, 16);
    const in6_addr &a = in6.sin6_addr;
    d.local = IN6_IS_ADDR_LOOPBACK(&a) || IN6_IS_ADDR_UNSPECIFIED(&a) ||
              (IN6_IS_ADDR_V4MAPPED(&a) &&
               (a.s6_addr[12] == 127 || (a.s6_addr[12] == 0 && a.s6_addr[13] == 0 &&
                                         a.s6_addr[14] == 0 && a.s6_addr[15] == 0)));
  } else if (fam == AF_UNIX) {
    d.family = Destination::Family::Unix;
  } else {
    d.family = Destination::Family::Other;
  }
  return d;
}

std::string Destination::text() const {
  char buf[INET6_ADDRSTRLEN] = {};
  if (family == Family::Inet) {
    inet_ntop(AF_INET, addr, buf, sizeof buf);
    std::string out(buf);
    out += ':';
    out += std::to_string(port);
    return out;
  }
  if (family == Family::Inet6) {
    inet_ntop(AF_INET6, addr, buf, sizeof buf);
    std::string out = "[";
    out += buf;
    out += "]:";
    out += std::to_string(port);
    return out;
  }
  return "";
}

} // namespace fbc::rt
