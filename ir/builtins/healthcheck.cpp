// tcp(addr, timeout=), http(url, timeout=), redis(addr, timeout=),
// postgres(addr, timeout=), kafka_ready(addr, timeout=) and
// ready(timeout=): the healthchecks a service waits for after it starts.
#include "frontend/lib/objects.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/duration.h"
#include "ir/quote.h"

namespace fbc::ir::builtins {

using star::Value;

namespace {

constexpr int64_t kDefaultTimeout = 10 * kSecond;
constexpr int64_t kReadyTimeout = 30 * kSecond;
constexpr int64_t kKafkaTimeout = 120 * kSecond; // a broker takes long to elect its controller

// timeout=: the only keyword of every healthcheck.
struct TimeoutArg {
  Healthcheck &hc;
  std::string_view fn;
};

void readTimeout(TimeoutArg &a, const Arg &arg) {
  a.hc.timeoutNs =
      durationArg(arg.site(), arg.value, arg.at(), std::string(a.fn) + "() bad timeout");
}

constexpr Param<TimeoutArg> kHealthcheckParams[] = {{"timeout", readTimeout}};

void parseTimeout(const CallSite &site, const star::Args &args, std::string_view fn,
                  Healthcheck &hc) {
  TimeoutArg read{hc, fn};
  std::string named = std::string(fn) + "()";
  bindKeywords(BindCall(site, args, {named}), kHealthcheckParams, read);
}

// "localhost:5432", ":5432", "10.0.0.5:6379", "[::1]:80": what the probe
// dials, loopback names as the local host ("").
bool dialAddress(std::string_view written, Address &at) {
  std::string w(written);
  if (w.starts_with(':'))
    w = "localhost" + w;
  if (!splitRemoteHost(w, at.host, at.port) || at.port == 0)
    return false;
  if (at.host == "localhost")
    at.host.clear();
  return true;
}

// The host and port an http[s]:// URL dials (the scheme's port when it names
// none), so the runtime can match it to an interface (and its TLS) without
// parsing the URL again. Left empty when the authority is not host:port.
void urlAddress(std::string_view url, Address &at) {
  size_t scheme = url.find("://");
  std::string_view authority = url.substr(scheme + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  // A port follows the last ':' outside an IPv6 literal's brackets.
  size_t bracket = authority.rfind(']');
  size_t colon = authority.rfind(':');
  bool hasPort =
      colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket);
  std::string withPort(authority);
  if (!hasPort)
    withPort += url.starts_with("https://") ? ":443" : ":80";
  if (!dialAddress(withPort, at))
    at = {};
}

// http()'s URL with a "localhost" host as 127.0.0.1 (Healthcheck::url).
std::string loopbackUrl(std::string url) {
  if (size_t p = url.find("://localhost"); p != std::string::npos)
    url.replace(p + 3, 9, "127.0.0.1");
  return url;
}

Value addressCheck(star::Thread &t, const star::Args &args, const char *fn, HealthcheckKind kind,
                   int64_t defaultTimeout = kDefaultTimeout) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (args.positional.size() != 1)
    site.fail(std::string(fn) + ": got " + std::to_string(args.positional.size()) +
              " arguments, want 1");
  auto *addr = args.positional[0].as<star::String>();
  if (!addr)
    site.fail(site.at(site.positional(0)), std::string(fn) + ": for parameter 1: got " +
                                               typeOf(args.positional[0]) + ", want string");
  auto *hc = t.heap.make<HealthcheckValue>();
  Healthcheck &h = hc->data;
  h.kind = kind;
  h.loc = site.loc();
  h.timeoutNs = defaultTimeout;
  std::string a(addr->view());
  if (a.empty())
    site.fail(site.at(site.positional(0)), std::string(fn) + "() address must not be empty");
  std::string scheme = kind == HealthcheckKind::Kafka ? "kafka" : fn;
  if (kind == HealthcheckKind::Http) {
    h.target = a.rfind("http://", 0) == 0 || a.rfind("https://", 0) == 0 ? a : "http://" + a;
    h.url = loopbackUrl(h.target);
    urlAddress(h.target, h.at);
  } else {
    h.target = a.rfind(scheme + "://", 0) == 0 ? a : scheme + "://" + a;
    if (!dialAddress(std::string_view(h.target).substr(scheme.size() + 3), h.at))
      site.fail(site.at(site.positional(0)),
                std::string(fn) + "(): address " + quote(a) +
                    " needs a host and a port 1-65535 (\"localhost:5432\")");
  }
  parseTimeout(site, args, fn, h);
  return Value::object(hc);
}

} // namespace

Value tcpFn(star::Thread &t, Value, const star::Args &args) {
  return addressCheck(t, args, "tcp", HealthcheckKind::Tcp);
}

Value httpFn(star::Thread &t, Value, const star::Args &args) {
  return addressCheck(t, args, "http", HealthcheckKind::Http);
}

Value redisFn(star::Thread &t, Value, const star::Args &args) {
  return addressCheck(t, args, "redis", HealthcheckKind::Redis);
}

Value postgresFn(star::Thread &t, Value, const star::Args &args) {
  return addressCheck(t, args, "postgres", HealthcheckKind::Postgres);
}

Value kafkaReadyFn(star::Thread &t, Value, const star::Args &args) {
  return addressCheck(t, args, "kafka_ready", HealthcheckKind::Kafka, kKafkaTimeout);
}

Value readyFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)),
              "ready() takes no positional arguments; it uses the service's own interface and "
              "credentials. Pass timeout= if the default is too short");
  auto *hc = t.heap.make<HealthcheckValue>();
  Healthcheck &h = hc->data;
  h.kind = HealthcheckKind::Ready;
  h.target = "ready://";
  h.loc = site.loc();
  h.timeoutNs = kReadyTimeout;
  parseTimeout(site, args, "ready", h);
  return Value::object(hc);
}

} // namespace fbc::ir::builtins
