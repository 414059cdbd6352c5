// IR service -> ServiceSpec: see launch_config.h.
#include "runtime/supervisor/launch_config.h"

#include "ir/protocols.h"
#include "runtime/os/leaf_isolation.h"

#include "llvm/ADT/StringRef.h"

#include <limits.h>
#include <stdlib.h>

#include <cctype>

namespace fbc::rt {
std::string specDir(const std::string &path) {
  char buf[PATH_MAX];
  std::string abs = realpath(path.c_str(), buf) ? std::string(buf) : path;
  size_t slash = abs.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : abs.substr(0, slash);
}

PgConnParams pgConnParams(const ir::Service &s, const ir::Address &at) {
  PgConnParams p;
  p.host = at.dialHost();
  p.port = static_cast<uint16_t>(at.port);
  for (const auto &[k, v] : s.env) {
    if (k == "POSTGRES_USER")
      p.user = v;
    else if (k == "POSTGRES_PASSWORD")
      p.password = v;
    else if (k == "POSTGRES_DB")
      p.dbname = v;
  }
  return p;
}

MysqlConnParams mysqlConnParams(const ir::Service &s, const ir::Address &at) {
  MysqlConnParams p;
  p.host = at.dialHost();
  p.port = static_cast<uint16_t>(at.port);
  std::string password, rootPassword;
  for (const auto &[k, v] : s.env) {
    if (k == "MYSQL_USER" || k == "MARIADB_USER")
      p.user = v;
    else if (k == "MYSQL_PASSWORD" || k == "MARIADB_PASSWORD")
      password = v;
    else if (k == "MYSQL_ROOT_PASSWORD" || k == "MARIADB_ROOT_PASSWORD")
      rootPassword = v;
    else if (k == "MYSQL_DATABASE" || k == "MARIADB_DATABASE")
      p.database = v;
  }
  p.password = p.user == "root" ? rootPassword : password;
  return p;
}

namespace {

// The probe ready() runs for a protocol whose readiness is `kind`, at `at`
// (in TLS with `tls`, an interface(tls=)'s).
Healthcheck readinessProbe(const ir::Service &s, ir::HealthcheckKind kind, const ir::Address &at,
                           int64_t ms, std::shared_ptr<const TlsClientConfig> tls) {
  auto port = static_cast<uint16_t>(at.port);
  Healthcheck h;
  switch (kind) {
  case ir::HealthcheckKind::Http:
    h = Healthcheck::http((tls ? "https://" : "http://") + at.dialHostPort() + "/", ms);
    break;
  case ir::HealthcheckKind::Redis:
    h = Healthcheck::redis(at.dialHost(), port, ms);
    break;
  case ir::HealthcheckKind::Postgres: {
    PgConnParams p = pgConnParams(s, at);
    p.tls = tls;
    h = Healthcheck::postgres(std::move(p), ms);
    break;
  }
  case ir::HealthcheckKind::Kafka:
    h = Healthcheck::kafka(at.dialHost(), port, ms);
    break;
  case ir::HealthcheckKind::Memcached:
    h = Healthcheck::memcached(at.dialHost(), port, ms);
    break;
  case ir::HealthcheckKind::Nats:
    h = Healthcheck::nats(at.dialHost(), port, ms);
    break;
  case ir::HealthcheckKind::Amqp:
    h = Healthcheck::amqp(at.dialHost(), port, ms);
    break;
  case ir::HealthcheckKind::Grpc:
    h = Healthcheck::grpc(at.dialHost(), port, ms);
    break;
  case ir::HealthcheckKind::Mysql: {
    MysqlConnParams p = mysqlConnParams(s, at);
    p.tls = tls;
    h = Healthcheck::mysql(std::move(p), ms);
    break;
  }
  case ir::HealthcheckKind::Tcp:
  case ir::HealthcheckKind::Ready:
    h = Healthcheck::tcp(at.dialHost(), port, ms);
    break;
  }
  if (h.kind != Healthcheck::Kind::Tcp)
    h.tls = std::move(tls); // a TCP connect is the same with or without TLS
  return h;
}

// The TLS of the interface of `s` reached at `port` (the probe's), or null.
std::shared_ptr<const TlsClientConfig> tlsAtPort(const ir::Service &s, int64_t port,
                                                 const std::string &specDir) {
  for (const ir::Interface &i : s.interfaces)
    if (i.tls && s.addressOrLoopback(i).port == port)
      return tlsClientConfig(*i.tls, specDir);
  return nullptr;
}

// What the service's healthcheck= probes (Kind::None without one).
Healthcheck healthcheckProbe(const ir::Service &s, const std::string &specDir) {
  if (!s.healthcheck)
    return {};
  const ir::Healthcheck &hc = *s.healthcheck;
  int64_t ms = hc.timeoutNs / 1000000;
  switch (hc.kind) {
  case ir::HealthcheckKind::Http: {
    // An https:// URL on a TLS interface's port trusts that interface's CA.
    Healthcheck h = Healthcheck::http(hc.url, ms);
    if (hc.url.starts_with("https://"))
      h.tls = tlsAtPort(s, hc.at.port, specDir);
    return h;
  }
  case ir::HealthcheckKind::Ready:
    // The default interface's protocol says what ready() probes.
    if (const ir::Interface *i = s.defaultInterface()) {
      const ir::Protocol *p = ir::findProtocol(i->protocol);
      Healthcheck h = readinessProbe(s, ir::readinessOf(i->protocol), s.addressOrLoopback(*i), ms,
                                     i->tls ? tlsClientConfig(*i->tls, specDir) : nullptr);
      h.http2 = p && p->http2 == ir::Http2::Plain; // an h2c server may speak nothing else
      return h;
    }
    return {};
  default: // the address the spec named
    return readinessProbe(s, hc.kind, hc.at, ms, tlsAtPort(s, hc.at.port, specDir));
  }
}

} // namespace

Healthcheck healthcheckOf(const ir::Service &s, const std::string &specDir) {
  Healthcheck h = healthcheckProbe(s, specDir);
  if (h.kind != Healthcheck::Kind::None)
    for (const ir::Interface &i : s.interfaces)
      if (const ir::Protocol *p = ir::findProtocol(i.protocol); p && p->datagrams)
        h.datagramPorts.push_back(static_cast<uint16_t>(s.addressOrLoopback(i).port));
  return h;
}

namespace {

const ProxyEndpoint *proxyOf(const std::vector<ProxyEndpoint> &proxies, const std::string &service,
                             const std::string &iface) {
  for (const ProxyEndpoint &p : proxies)
    if (p.serviceName == service && p.interface == iface)
      return &p;
  return nullptr;
}

// How another service sees interface `i` of `o`: host and port of its
// proxy `p` if it has one, else of its address (Service::address()).
std::pair<std::string, std::string> seenAt(const ir::Service &o, const ir::Interface &i,
                                           const ProxyEndpoint *p) {
  if (p)
    return {"127.0.0.1", std::to_string(p->proxyPort)};
  ir::Address at = o.addressOrLoopback(i);
  return {at.spelledHost(), std::to_string(at.port)};
}

// `value` with every "<host>:<port>" of a proxied interface of another
// service (host localhost or 127.0.0.1, or a remote service's host; the
// port not followed by a digit) replaced by the proxy's address, and the
// placeholders resolved.
std::string rewriteEnvValue(std::string value, const ir::Spec &spec, const std::string &self,
                            const std::vector<ProxyEndpoint> &proxies) {
  for (const ProxyEndpoint &p : proxies) {
    if (p.serviceName == self)
      continue;
    std::string to = "127.0.0.1:" + std::to_string(p.proxyPort);
    std::vector<std::string> hosts = {"localhost:", "127.0.0.1:"};
    if (!p.realHost.empty())
      hosts = {ir::Address{p.realHost, p.realPort}.spelledHost() + ":"};
    for (const std::string &host : hosts) {
      std::string from = host + std::to_string(p.realPort);
      for (size_t at = value.find(from); at != std::string::npos; at = value.find(from, at)) {
        size_t end = at + from.size();
        if (end < value.size() && std::isdigit(static_cast<unsigned char>(value[end]))) {
          at = end;
          continue;
        }
        value.replace(at, from.size(), to);
        at += to.size();
      }
    }
  }
  for (const ir::Service &o : spec.services)
    for (const ir::Interface &i : o.interfaces) {
      auto [host, port] = seenAt(o, i, proxyOf(proxies, o.name, i.name));
      std::string tail = o.name + "__" + i.name + "__";
      for (auto [kind, with] : {std::pair<const char *, std::string>{"ADDR", host + ":" + port},
                                {"HOST", host},
                                {"PORT", port}}) {
        std::string ph = std::string("__FB_PROXY_") + kind + "_" + tail;
        for (size_t at = value.find(ph); at != std::string::npos; at = value.find(ph, at)) {
          value.replace(at, ph.size(), with);
          at += with.size();
        }
      }
    }
  return value;
}

} // namespace

ServiceSpec launchConfig(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                         std::vector<int> trapped, const std::vector<ProxyEndpoint> &proxies,
                         const std::string &scratch) {
  ServiceSpec out;
  out.name = s.name;
  out.observe = s.observe;
  std::string bin = s.binary;
  if (bin.find('/') != std::string::npos && bin.front() != '/') {
    while (bin.starts_with("./"))
      bin.erase(0, 2);
    bin = dir + "/" + bin;
  }
  out.launch.binary = bin;
  out.launch.args = s.args;
  if (!scratch.empty())
    for (std::string &a : out.launch.args)
      a = expandScratch(std::move(a), scratch);
  // The reference's discovery variables for every service's interfaces,
  // then the service's own env (which wins).
  for (const ir::Service &o : spec.services)
    for (const ir::Interface &i : o.interfaces) {
      std::string prefix = "FAULTBOX_" + llvm::StringRef(o.name).upper() + "_" +
                           llvm::StringRef(i.name).upper() + "_";
      auto [host, port] =
          seenAt(o, i, o.name == s.name ? nullptr : proxyOf(proxies, o.name, i.name));
      out.launch.env.push_back(prefix + "HOST=" + host);
      out.launch.env.push_back(prefix + "PORT=" + port);
      out.launch.env.push_back(prefix + "ADDR=" + host + ":" + port);
    }
  if (!scratch.empty())
    out.launch.env.push_back("FBC_SCRATCH=" + scratch);
  for (const auto &[k, v] : s.env)
    out.launch.env.push_back(
        k + "=" +
        rewriteEnvValue(scratch.empty() ? v : expandScratch(v, scratch), spec, s.name, proxies));
  out.launch.cwd = dir;
  out.launch.user = s.user;
  out.launch.trapped = std::move(trapped);
  // Where it is reached on loopback (a container: the port ports= maps
  // its interface to), which nothing else may hold when it starts.
  for (const ir::Interface &i : s.interfaces)
    if (i.port > 0 && i.port <= 65535)
      out.ports.push_back(static_cast<uint16_t>(s.addressOrLoopback(i).port));
  for (const ProxyEndpoint &p : proxies)
    if (p.serviceName == s.name)
      out.proxyPorts.push_back(p.proxyPort);
  out.health = healthcheckOf(s, specDir(spec.path));
  if (s.pidsMax)
    out.pidsMax = s.pidsMax;
  return out;
}

} // namespace fbc::rt
