#include "ir/spec.h"

#include "ir/host_needs.h"

#include "ir/amqp_reply_codes.h"
#include "ir/duration.h"
#include "ir/protocols.h"
#include "ir/quote.h"

#include <algorithm>

namespace fbc::ir {

std::string Loc::str() const {
  if (!valid())
    return "";
  return file->path() + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col);
}

std::string Loc::marker() const {
  if (!valid())
    return "";
  return (file->path().starts_with('@') ? " " : " @") + str();
}

namespace {
constexpr std::string_view kCategories[] = {kCategoryClock, kCategoryRand, kCategoryDns,
                                            kCategoryNetwork, kCategoryFs};
} // namespace

llvm::ArrayRef<std::string_view> determinismCategories() {
  return kCategories;
}

bool isDeterminismCategory(std::string_view c) {
  return std::find(std::begin(kCategories), std::end(kCategories), c) != std::end(kCategories);
}

const char *healthcheckKindName(HealthcheckKind k) {
  switch (k) {
  case HealthcheckKind::Tcp:
    return "tcp";
  case HealthcheckKind::Http:
    return "http";
  case HealthcheckKind::Ready:
    return "ready";
  case HealthcheckKind::Redis:
    return "redis";
  case HealthcheckKind::Postgres:
    return "postgres";
  case HealthcheckKind::Kafka:
    return "kafka";
  case HealthcheckKind::Memcached:
    return "memcached";
  case HealthcheckKind::Mysql:
    return "mysql";
  case HealthcheckKind::Nats:
    return "nats";
  case HealthcheckKind::Amqp:
    return "amqp";
  case HealthcheckKind::Grpc:
    return "grpc";
  }
  return "tcp";
}

const char *faultActionName(FaultAction a) {
  switch (a) {
  case FaultAction::Deny:
    return "deny";
  case FaultAction::Delay:
    return "delay";
  case FaultAction::Allow:
    return "allow";
  }
  return "deny";
}

const char *proxyActionName(ProxyAction a) {
  switch (a) {
  case ProxyAction::Respond:
    return "response";
  case ProxyAction::Error:
    return "error";
  case ProxyAction::Delay:
    return "delay";
  case ProxyAction::Drop:
    return "drop";
  case ProxyAction::Duplicate:
    return "duplicate";
  }
  return "error";
}

std::string ProxyRule::matchers() const {
  std::string out;
  for (auto [k, v] : {std::pair<std::string_view, const std::string *>{"method", &method},
                      {"path", &path},
                      {"query", &query},
                      {"command", &command},
                      {"key", &key},
                      {"topic", &topic},
                      {"subject", &subject},
                      {"op", &op},
                      {"collection", &collection},
                      {"exchange", &exchange}})
    if (!v->empty())
      out.append(out.empty() ? "" : ", ").append(k).append("=").append(quote(*v));
  return out;
}

std::string ProxyRule::display() const {
  std::string out = std::string(proxyActionName(action)) + "(" + matchers();
  bool first = out.back() == '(';
  auto arg = [&](std::string_view k, const std::string &v) {
    out += first ? "" : ", ";
    first = false;
    out.append(k).append("=").append(v);
  };
  if (errorNumber)
    arg("code", std::to_string(errorNumber));
  if (!code.empty())
    arg("status", quote(code));
  else if (status)
    arg("status", std::to_string(status));
  if (!message.empty())
    arg("message", quote(message));
  if (hasBody)
    arg("body", quote(body));
  if (action == ProxyAction::Delay)
    arg("delay", quote(formatDuration(delayNs)));
  if (reset)
    arg("reset", "True");
  if (perConnection)
    arg("per", "\"connection\"");
  if (probability != 1)
    arg("probability", formatNumber(probability));
  if (maxFires > 0)
    arg("max_fires", std::to_string(maxFires));
  if (mode == FaultMode::Stochastic)
    arg("mode", "\"stochastic\"");
  if (!label.empty())
    arg("label", quote(label));
  return out + ")";
}

namespace {

// A rule's matcher fields, by matcher name.
struct MatcherField {
  std::string_view name;
  const std::string ProxyRule::*field;
};
constexpr MatcherField kMatcherFields[] = {{"method", &ProxyRule::method},
                                           {"path", &ProxyRule::path},
                                           {"query", &ProxyRule::query},
                                           {"command", &ProxyRule::command},
                                           {"key", &ProxyRule::key},
                                           {"topic", &ProxyRule::topic},
                                           {"subject", &ProxyRule::subject},
                                           {"op", &ProxyRule::op},
                                           {"collection", &ProxyRule::collection},
                                           {"exchange", &ProxyRule::exchange}};

// The protocols the proxy answers error()/response() in: "http, redis, ...".
std::string answeringProtocols() {
  std::string out;
  for (const Protocol &p : protocols())
    if (p.framed)
      out.append(out.empty() ? "" : ", ").append(p.name);
  return out;
}

} // namespace

const std::string &ProxyRule::target() const {
  return const_cast<ProxyRule *>(this)->target();
}

std::string &ProxyRule::target() {
  for (std::string *f : {&path, &key, &query, &subject})
    if (!f->empty())
      return *f;
  return topic;
}

std::string proxyRuleMismatch(const ProxyRule &r, std::string_view protocol) {
  const Protocol *p = findProtocol(protocol);
  std::string name(protocol);
  for (const MatcherField &m : kMatcherFields) {
    if ((r.*m.field).empty() || (p && p->accepts(m.name)))
      continue;
    const Protocol *home = nullptr;
    for (const Protocol &q : protocols())
      if (!home && q.accepts(m.name))
        home = &q;
    return std::string(m.name) + "= matches " + std::string(home->name) + " traffic, not " + name +
           "; " + (name.empty() ? "this interface" : name) + " rules take " + matcherList(p);
  }
  if (r.action == ProxyAction::Duplicate && !(p && p->duplicates))
    return "duplicate() re-delivers Kafka, NATS and AMQP messages and UDP datagrams; " + name +
           " traffic has none";
  bool replies = r.action == ProxyAction::Respond || r.action == ProxyAction::Error;
  if (r.errorNumber && !(p && p->errorNumbers))
    return "code=" + std::to_string(r.errorNumber) + " is a MySQL error number; " +
           (name.empty() ? "this interface" : name) + " traffic has none";
  StatusCodes codes = p ? p->statusCodes : StatusCodes::Http;
  if (r.status && codes == StatusCodes::AmqpReply && !findAmqpReplyCode(r.status))
    return "status=" + std::to_string(r.status) + " is no AMQP reply code; " + name +
           " traffic takes " + amqpReplyCodeList();
  if (r.status > 0 && r.status < 100 && codes == StatusCodes::Http)
    return "status=" + std::to_string(r.status) + " is a gRPC status code; " + name +
           " traffic takes an HTTP status (100-599)";
  // The reference answers these itself; fbc cannot yet (proxyRuleGap()).
  if (replies && !(p && (p->framed || p->referenceProxies)))
    return std::string(proxyActionName(r.action)) +
           "() needs a protocol the proxy can answer in (" + answeringProtocols() + "); " + name +
           " traffic can only be delayed or dropped";
  if (r.perConnection && replies)
    return "per=\"connection\" applies to delay() and drop() only";
  return "";
}

std::string proxyRuleGap(const ProxyRule &r, std::string_view protocol) {
  const Protocol *p = findProtocol(protocol);
  if (!p || !p->referenceProxies)
    return "";
  bool replies = r.action == ProxyAction::Respond || r.action == ProxyAction::Error;
  if (r.matchers().empty() && !replies)
    return ""; // delay() / drop() of the raw stream: the TCP relay does that
  return std::string(proxyActionName(r.action)) + "(" + r.matchers() + ") on " +
         std::string(protocol) + " traffic needs a proxy that speaks " + std::string(protocol) +
         ", which fbc does not have (it relays it as TCP)";
}

const char *faultModeName(FaultMode m) {
  switch (m) {
  case FaultMode::None:
    return "";
  case FaultMode::Exhaustive:
    return "exhaustive";
  case FaultMode::Stochastic:
    return "stochastic";
  }
  return "";
}

const char *testKindName(TestKind k) {
  switch (k) {
  case TestKind::Def:
    return "def";
  case TestKind::Scenario:
    return "scenario";
  case TestKind::FaultScenario:
    return "fault_scenario";
  case TestKind::FaultMatrix:
    return "fault_matrix";
  case TestKind::TestBuiltin:
    return "test_builtin";
  }
  return "def";
}

std::string Expect::display() const {
  if (kind == ExpectKind::ErrorWithin)
    return name + "(ms=" + std::to_string(withinMs) + ")";
  if (kind == ExpectKind::Success || kind == ExpectKind::Hang)
    return name + "()";
  return name;
}

const Interface *Service::findInterface(std::string_view n) const {
  for (const Interface &i : interfaces)
    if (i.name == n)
      return &i;
  return nullptr;
}

const Interface *Service::defaultInterface() const {
  return interfaces.size() == 1 ? &interfaces.front() : findInterface("default");
}

namespace {

std::string withPort(const std::string &host, int64_t port) {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

} // namespace

std::string Address::spelled() const {
  return host.empty() ? "localhost:" + std::to_string(port) : withPort(host, port);
}

std::string Address::spelledHost() const {
  if (host.empty())
    return "localhost";
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

std::string Address::dialHostPort() const {
  return withPort(dialHost(), port);
}

bool splitRemoteHost(std::string_view w, std::string &host, int64_t &port) {
  port = 0;
  std::string_view portText;
  if (w.starts_with('[')) { // [v6] or [v6]:port
    size_t close = w.find(']');
    if (close == std::string_view::npos)
      return false;
    host = std::string(w.substr(1, close - 1));
    std::string_view rest = w.substr(close + 1);
    if (rest.empty())
      return !host.empty();
    if (rest.front() != ':')
      return false;
    portText = rest.substr(1);
  } else if (size_t colon = w.rfind(':'); colon == std::string_view::npos) {
    host = std::string(w);
    return !host.empty();
  } else {
    host = std::string(w.substr(0, colon));
    portText = w.substr(colon + 1);
  }
  if (host.empty() || portText.empty() || portText.size() > 5)
    return false;
  for (char c : portText) {
    if (c < '0' || c > '9')
      return false;
    port = port * 10 + (c - '0');
  }
  return port >= 1 && port <= 65535;
}

std::optional<Address> Service::address(const Interface &i) const {
  if (isContainer()) // published on the host port ports= maps it to, else its own
    for (const auto &[inside, host] : ports)
      if (inside == i.port && host != 0)
        return Address{"", host};
  if (!isRemote())
    return Address{"", i.port};
  const std::string *written = &remote;
  if (remote.empty()) {
    written = nullptr;
    for (const auto &[iface, host] : remotes)
      if (iface == i.name)
        written = &host;
    if (!written)
      return std::nullopt;
  }
  Address a;
  if (!splitRemoteHost(*written, a.host, a.port))
    return std::nullopt; // refused at load (service())
  if (a.port == 0)
    a.port = i.port;
  return a;
}

Address Service::addressOrLoopback(const Interface &i) const {
  return address(i).value_or(Address{"", i.port});
}

std::string Service::remoteSource() const {
  if (!remote.empty())
    return "remote=" + quote(remote);
  std::string out = "remote=remotes({";
  for (size_t k = 0; k < remotes.size(); ++k)
    out += (k ? ", " : "") + quote(remotes[k].first) + ": " + quote(remotes[k].second);
  return out + "})";
}

const Op *Service::findOp(std::string_view n) const {
  for (const Op &o : ops)
    if (o.name == n)
      return &o;
  return nullptr;
}

std::vector<std::string> Service::opNames() const {
  std::vector<std::string> out;
  for (const Op &o : ops)
    out.push_back(o.name);
  return out;
}

const Service *Spec::findService(std::string_view n) const {
  ptrdiff_t i =
      serviceIndex_.find(services, n, [](const Service &s) -> std::string_view { return s.name; });
  return i < 0 ? nullptr : &services[size_t(i)];
}

const Client *Spec::findClient(std::string_view n) const {
  for (const Client &c : clients) // a handful: no index
    if (c.name == n)
      return &c;
  return nullptr;
}

const FaultAssumption *Spec::findAssumption(std::string_view n) const {
  ptrdiff_t i = assumptionIndex_.find(
      assumptions, n, [](const FaultAssumption &a) -> std::string_view { return a.name; });
  return i < 0 ? nullptr : &assumptions[size_t(i)];
}

const Test *Spec::findTest(std::string_view n) const {
  auto it = std::lower_bound(tests.begin(), tests.end(), n,
                             [](const Test &t, std::string_view key) { return t.name < key; });
  return it != tests.end() && it->name == n ? &*it : nullptr;
}

} // namespace fbc::ir
