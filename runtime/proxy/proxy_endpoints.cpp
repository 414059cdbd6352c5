// The proxy's endpoints: a listener (or a datagram relay, or a TLS
// terminator in front) per proxied interface, set up before the loop runs
// (see proxy.h), and the `proxy` events of the rules' decisions.
#include "ir/duration.h"
#include "ir/protocols.h"
#include "runtime/proxy/acceptor.h"
#include "runtime/proxy/proxy.h"
#include "runtime/proxy/proxy_udp.h"
#include "runtime/proxy/tls_bridge.h"
#include "runtime/trace/trace.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fbc::rt {

std::vector<std::pair<std::string, std::string>>
decisionFields(const ProxyEndpoint &ep, const ProxyDecision &d,
               std::vector<std::pair<std::string, std::string>> unit) {
  const ir::ProxyRule &r = *d.rule;
  std::vector<std::pair<std::string, std::string>> f{{"interface", ep.interface},
                                                     {"protocol", ep.protocol}};
  f.insert(f.end(), unit.begin(), unit.end());
  ir::ProxyAction action = d.action.value_or(ir::ProxyAction::Delay);
  std::string name = ir::proxyActionName(action);
  if (action == ir::ProxyAction::Drop && r.reset)
    name = "reset";
  f.emplace_back("action", name);
  if (d.delayNs > 0)
    f.emplace_back("delay", ir::formatDuration(d.delayNs));
  if (action == ir::ProxyAction::Error || action == ir::ProxyAction::Respond)
    f.emplace_back("status", !r.code.empty()                    ? r.code
                             : r.errorNumber                    ? std::to_string(r.errorNumber)
                             : r.status                         ? std::to_string(r.status)
                             : action == ir::ProxyAction::Error ? "error"
                                                                : "ok");
  f.emplace_back("rule", r.display());
  if (!d.label.empty())
    f.emplace_back("label", d.label);
  return f;
}

std::optional<size_t> ProxyHub::add(ProxyEndpoint ep, std::string &error) {
  // The upstream, resolved once: loopback, or a remote service's host
  // (IPv4: the proxy dials with a sockaddr_in).
  in_addr upstream{htonl(INADDR_LOOPBACK)};
  if (!ep.realHost.empty()) {
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    if (int rc = getaddrinfo(ep.realHost.c_str(), nullptr, &hints, &res); rc != 0 || !res) {
      error = "proxy for " + ep.serviceName + "." + ep.interface + ": cannot resolve " +
              ep.realHost + " to an IPv4 address: " + gai_strerror(rc);
      return std::nullopt;
    }
    upstream = reinterpret_cast<sockaddr_in *>(res->ai_addr)->sin_addr;
    freeaddrinfo(res);
  }
  // A datagram protocol's proxy is a UDP relay, never the TCP listener.
  const ir::Protocol *proto = ir::findProtocol(ep.protocol);
  bool datagrams = proto && proto->datagrams;
  int fd =
      socket(AF_INET, (datagrams ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0 ||
      (!datagrams && listen(fd, 512) < 0) ||
      getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) < 0) {
    error = "proxy for " + ep.serviceName + "." + ep.interface + ": " + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return std::nullopt;
  }
  ep.proxyPort = ntohs(a.sin_port);
  size_t index = endpoints_.size();
  std::unique_ptr<TlsTerminator> tls;
  if (ep.tls && !datagrams) {
    // Callers dial the terminator; its clear side is the listener above.
    TlsTerminatorConfig cfg;
    cfg.start = proto ? proto->tls : ir::TlsStart::AtConnect;
    cfg.clearPort = ep.proxyPort;
    cfg.upstream = upstream;
    cfg.upstreamPort = ep.realPort;
    cfg.verifyHost = ep.realHost.empty() ? "127.0.0.1" : ep.realHost;
    cfg.tls = ep.tls;
    cfg.onFailure = [this, index](const std::string &side, const std::string &why) {
      trace_.record(EventType::TlsFailed, endpoints_[index].service,
                    {{"interface", endpoints_[index].interface},
                     {"protocol", endpoints_[index].protocol},
                     {"side", side},
                     {"error", why}});
    };
    tls = TlsTerminator::open(loop_, std::move(cfg), error);
    if (!tls) {
      error = "proxy for " + ep.serviceName + "." + ep.interface + ": " + error;
      ::close(fd);
      return std::nullopt;
    }
    ep.proxyPort = tls->callerPort();
  }
  tls_.push_back(std::move(tls));
  endpoints_.push_back(std::move(ep));
  upstreams_.push_back(upstream);
  if (datagrams) {
    sockaddr_in up{};
    up.sin_family = AF_INET;
    up.sin_addr = upstream;
    up.sin_port = htons(endpoints_[index].realPort);
    datagrams_.push_back(std::make_unique<DatagramRelay>(
        loop_, rules_, index, fd, up, armed_, [this, index](size_t bytes, const ProxyDecision &d) {
          record(index, decisionFields(endpoints_[index], d, {{"bytes", std::to_string(bytes)}}));
        }));
  } else {
    listeners_.push_back(
        std::make_unique<Acceptor>(fd, [this, index](int c) { accept(index, c); }));
  }
  return index;
}

ProxyEndpoint proxyEndpoint(ServiceId id, const ir::Service &svc, const ir::Interface &iface,
                            const ir::Address &at, const std::string &specDir) {
  ProxyEndpoint ep;
  ep.service = id;
  ep.serviceName = svc.name;
  ep.interface = iface.name;
  ep.protocol = iface.protocol;
  ep.realPort = static_cast<uint16_t>(at.port);
  ep.realHost = at.host;
  if (iface.tls)
    ep.tls = tlsClientConfig(*iface.tls, specDir);
  return ep;
}

std::optional<size_t> ProxyHub::find(std::string_view service, std::string_view iface) const {
  for (size_t i = 0; i < endpoints_.size(); ++i)
    if (endpoints_[i].serviceName == service && endpoints_[i].interface == iface)
      return i;
  return std::nullopt;
}

} // namespace fbc::rt
