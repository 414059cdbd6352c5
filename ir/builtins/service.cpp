// service(), interface() and op(): the topology of a spec.
#include "frontend/lib/args.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/service_name.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "ir/syscalls.h"

#include <algorithm>
#include <memory>

namespace fbc::ir::builtins {

using star::Value;

namespace {

// Keywords a remote service cannot have (it is not fbc's process), in the
// reference's order.
constexpr std::string_view kNotOnRemote[] = {"seed",  "reset", "reuse",   "volumes",
                                             "ports", "args",  "seccomp", "observe"};

void parseVolumes(const CallSite &site, Service &svc, Value v) {
  auto *d = v.as<star::Dict>();
  const syntax::Expr *lit = site.keywordValue("volumes");
  if (!d)
    site.fail(site.at(lit), "service() volumes must be a dict");
  forEachDictEntry(site, lit, *d, [&](Value key, Value value, Loc at) {
    auto *k = key.as<star::String>();
    auto *val = value.as<star::String>();
    if (!k || !val)
      site.fail(at, "service() volumes must map host paths to container paths (strings), got " +
                        typeOf(key) + ": " + typeOf(value));
    svc.volumes.emplace_back(std::string(k->view()), std::string(val->view()));
  });
}

void parsePorts(const CallSite &site, Service &svc, Value v) {
  auto *d = v.as<star::Dict>();
  const syntax::Expr *lit = site.keywordValue("ports");
  if (!d)
    site.fail(site.at(lit), "service() ports must be a dict {container_port: host_port}");
  forEachDictEntry(site, lit, *d, [&](Value key, Value value, Loc at) {
    if (!key.isInt())
      site.fail(at, "service() ports keys must be integers (container ports)");
    if (!value.isInt())
      site.fail(at, "service() ports values must be integers (host ports)");
    int64_t c = key.isSmallInt() ? key.smallInt() : -1;
    int64_t h = value.isSmallInt() ? value.smallInt() : -1;
    if (c < 1 || c > 65535 || h < 0 || h > 65535)
      site.fail(at, "service() ports: container port must be 1..65535 and host port 0..65535 (0: "
                    "any), got " +
                        star::repr(key) + ": " + star::repr(value));
    svc.ports.emplace_back(c, h);
  });
}

std::shared_ptr<const FunctionRef> callback(const CallSite &site, std::string_view k, Value v) {
  if (!isCallable(v))
    site.fail(site.at(site.keywordValue(k)),
              "service() " + std::string(k) + " must be a callable (function)");
  return std::make_shared<const FunctionRef>(functionRef(v));
}

void parseRemote(const CallSite &site, Service &svc, Value v) {
  Loc at = site.at(site.keywordValue("remote"));
  if (auto *r = valueAs<RemotesValue>(v)) {
    svc.remotes = r->hosts;
    return;
  }
  auto *s = v.as<star::String>();
  if (!s)
    site.fail(at, "service() remote must be a string (host) or remotes({...}), got " + typeOf(v));
  if (s->view().empty())
    site.fail(at,
              "service() remote must be a non-empty string or remotes({...}); got empty string");
  svc.remote = std::string(s->view());
}

// The reference's checks on a remote service (it has no process fbc owns).
void checkRemote(const CallSite &site, const Service &s, const star::Args &args) {
  std::string q = quote(s.name);
  std::string host = !s.remote.empty() ? s.remote : s.remotes.front().second;
  if (!s.healthcheck)
    site.fail("service() " + q +
              " is remote (remote=...) and requires healthcheck= so Faultbox can verify the "
              "upstream is reachable before tests run; declare e.g. healthcheck = http(\"" +
              host + ":<port>/healthz\") or tcp(\"" + host + ":<port>\")");
  for (std::string_view k : kNotOnRemote)
    if (findKeyword(args, k))
      site.fail(site.at(site.keyword(k)),
                "service() " + q + " is remote (remote=...); " + std::string(k) +
                    "= is not supported on remote services because Faultbox does not own their "
                    "lifecycle. Use mock_service() if you need full control, or remove " +
                    std::string(k) + "= and apply protocol-level faults instead");
  if (!s.ops.empty())
    site.fail(site.at(site.keyword("ops")),
              "service() " + q +
                  " is remote (remote=...); ops= is not supported because syscall-level operations "
                  "require process control. Apply protocol-level faults (response/error/slow) at "
                  "the interface instead");
  for (const auto &[iface, h] : s.remotes)
    if (!s.findInterface(iface)) {
      std::vector<std::string> declared;
      for (const Interface &i : s.interfaces)
        declared.push_back(i.name);
      std::sort(declared.begin(), declared.end());
      std::string list = "[";
      for (size_t i = 0; i < declared.size(); ++i)
        list += (i ? " " : "") + declared[i];
      site.fail(site.at(site.keywordValue("remote")),
                "service() " + q + " remotes({...}) references interface " + quote(iface) +
                    " which is not declared on this service; declared interfaces: " + list + "]");
    }
  if (s.interfaces.empty())
    site.fail("service() " + q + " is remote (remote=...) and requires at least one interface()");
  // fbc's: a host it could not dial is an error here, not a failed run.
  std::vector<std::string_view> written;
  if (!s.remote.empty())
    written.push_back(s.remote);
  for (const auto &[iface, h] : s.remotes)
    written.push_back(h);
  for (std::string_view w : written) {
    std::string host;
    int64_t port = 0;
    if (!splitRemoteHost(w, host, port))
      site.fail(site.at(site.keywordValue("remote")),
                "service() " + q + " remote host " + quote(w) +
                    " is not host, host:port or [ipv6]:port with a port 1..65535");
  }
}

// What running `s` needs of the machine (ir/host_needs.h).
void recordNeeds(Service &s) {
  HostNeed n;
  n.subject = "service " + quote(s.name);
  n.loc = s.loc;
  if (s.isContainer()) {
    n.feature = HostFeature::ContainerRuntime;
    n.what = "container services need a container runtime";
    s.needs.push_back(n);
  } else if (s.isRemote()) {
    // fbc runs tests against a remote service (it starts nothing), as long
    // as it knows where each interface is.
    for (const Interface &i : s.interfaces)
      if (!s.address(i)) {
        n.feature = HostFeature::Unbuilt;
        n.what = "remotes({...}) names no host for interface " + quote(i.name) +
                 ", so fbc cannot reach it";
        s.needs.push_back(n);
      }
  }
}

void parseEnv(const CallSite &site, Service &svc, Value v) {
  auto *d = v.as<star::Dict>();
  const syntax::Expr *lit = site.keywordValue("env");
  if (!d)
    site.fail(site.at(lit), "service() env must be a dict");
  forEachDictEntry(site, lit, *d, [&](Value key, Value value, Loc at) {
    auto *k = key.as<star::String>();
    if (!k)
      site.fail(at, "service() env keys must be strings, got " + typeOf(key));
    auto *val = value.as<star::String>();
    if (!val)
      site.fail(at, "service(" + quote(svc.name) + ") env[" + quote(k->view()) +
                        "] must be a string, got " + typeOf(value));
    svc.env.emplace_back(std::string(k->view()), std::string(val->view()));
  });
}

void parseArgsList(const CallSite &site, Service &svc, Value v) {
  std::vector<Value> items;
  const syntax::Expr *lit = site.keywordValue("args");
  if (!listItems(v, items))
    site.fail(site.at(lit), "service() args must be a list");
  for (size_t i = 0; i < items.size(); ++i) {
    auto *s = items[i].as<star::String>();
    if (!s)
      site.fail(site.at(CallSite::element(lit, i)),
                "service() args items must be strings, got " + typeOf(items[i]));
    svc.args.emplace_back(s->view());
  }
}

void parseDependsOn(const CallSite &site, Service &svc, Value v) {
  std::vector<Value> items;
  const syntax::Expr *lit = site.keywordValue("depends_on");
  if (!listItems(v, items))
    site.fail(site.at(lit), "service() depends_on must be a list");
  for (size_t i = 0; i < items.size(); ++i) {
    Loc at = site.at(CallSite::element(lit, i));
    if (auto *dep = valueAs<ServiceValue>(items[i]))
      svc.dependsOn.push_back({dep->data.name, at});
    else if (auto *s = items[i].as<star::String>())
      svc.dependsOn.push_back({std::string(s->view()), at});
    else
      site.fail(at, "depends_on items must be services or strings, got " + typeOf(items[i]));
  }
}

void parseCategories(const CallSite &site, Service &svc, Value v) {
  std::vector<Value> items;
  const syntax::Expr *lit = site.keywordValue("nondeterministic_ok");
  if (!listItems(v, items))
    site.fail(site.at(lit), "service() nondeterministic_ok must be a list, got " + typeOf(v));
  for (size_t i = 0; i < items.size(); ++i) {
    Loc at = site.at(CallSite::element(lit, i));
    auto *s = items[i].as<star::String>();
    if (!s)
      site.fail(at, "service() nondeterministic_ok items must be strings, got " + typeOf(items[i]));
    if (!isDeterminismCategory(s->view()))
      site.fail(at, "service() nondeterministic_ok: unknown category " + quote(s->view()) +
                        " (categories: " + joinNames(determinismCategories()) + ")");
    svc.nondeterministicOk.emplace_back(s->view());
  }
}

void parseOps(const CallSite &site, Service &svc, Value v) {
  auto *d = v.as<star::Dict>();
  const syntax::Expr *lit = site.keywordValue("ops");
  if (!d)
    site.fail(site.at(lit), "service() ops must be a dict, got " + typeOf(v));
  forEachDictEntry(site, lit, *d, [&](Value key, Value value, Loc at) {
    auto *k = key.as<star::String>();
    if (!k)
      site.fail(at, "service() ops keys must be strings, got " + typeOf(key));
    auto *op = valueAs<OpValue>(value);
    if (!op)
      site.fail(at, "service() ops values must be op(), got " + typeOf(value));
    Op o = op->data;
    o.name = std::string(k->view());
    svc.ops.push_back(std::move(o));
  });
  std::sort(svc.ops.begin(), svc.ops.end(),
            [](const Op &a, const Op &b) { return a.name < b.name; });
}

// user="name": a login name as useradd accepts it (the account itself is
// looked up when the service starts: the spec may be planned elsewhere).
void parseUser(const CallSite &site, Service &svc, Value v) {
  Loc at = site.at(site.keywordValue("user"));
  auto *s = v.as<star::String>();
  if (!s)
    site.fail(at, "service() user must be a string (an account name), got " + typeOf(v));
  std::string_view u = s->view();
  auto ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  };
  if (u.empty() || u.size() > 32 || u.front() == '-' || !std::all_of(u.begin(), u.end(), ok) ||
      std::all_of(u.begin(), u.end(), [](char c) { return c >= '0' && c <= '9'; }))
    site.fail(at, "service(" + quote(svc.name) + ") user " + quote(u) +
                      " is not an account name (letters, digits, '_', '-', '.', at most 32, not "
                      "all digits, not starting with '-')");
  svc.user = std::string(u);
}

// One value read per keyword: `at` is the keyword's value in the call.
void readBinaryKw(const CallSite &site, Service &s, Value v, const std::string &prefix) {
  Loc at = site.at(site.keywordValue("binary"));
  auto *bin = v.as<star::String>();
  if (!bin)
    site.fail(at, "service() binary must be a string, got " + typeOf(v));
  if (!s.binary.empty())
    site.fail(at,
              prefix + ": more than one binary: " + quote(s.binary) + " and " + quote(bin->view()));
  s.binary = std::string(bin->view());
}

void readHealthcheckKw(const CallSite &site, Service &s, Value v, const std::string &) {
  if (isNone(v))
    return;
  auto *hc = valueAs<HealthcheckValue>(v);
  if (!hc)
    site.fail(site.at(site.keywordValue("healthcheck")),
              "service() healthcheck must be a tcp(), http(), redis(), postgres(), "
              "kafka_ready() or ready() value, got " +
                  typeOf(v));
  s.healthcheck = hc->data;
}

void readSeccompKw(const CallSite &site, Service &s, Value v, const std::string &) {
  auto *flag = v.as<star::Bool>();
  if (!flag)
    site.fail(site.at(site.keywordValue("seccomp")),
              "service() seccomp must be a bool, got " + typeOf(v));
  s.seccomp = flag->value;
}

void readPidsMaxKw(const CallSite &site, Service &s, Value v, const std::string &) {
  if (!v.isSmallInt() || v.smallInt() < 1 || v.smallInt() > 4194304)
    site.fail(site.at(site.keywordValue("pids_max")),
              "service() pids_max must be an int from 1 to 4194304 (processes and "
              "threads the service may have at once), got " +
                  (v.isInt() ? star::repr(v) : typeOf(v)));
  s.pidsMax = static_cast<uint64_t>(v.smallInt());
}

// image= and build=: a string each.
template <std::string Service::*Field, const char *Name>
void readStringKw(const CallSite &site, Service &s, Value v, const std::string &) {
  auto *str = v.as<star::String>();
  if (!str)
    site.fail(site.at(site.keywordValue(Name)),
              "service() " + std::string(Name) + " must be a string, got " + typeOf(v));
  s.*Field = std::string(str->view());
}
constexpr char kImage[] = "image", kBuild[] = "build", kSeed[] = "seed", kReset[] = "reset";

void readReuseKw(const CallSite &site, Service &s, Value v, const std::string &) {
  auto *flag = v.as<star::Bool>();
  if (!flag)
    site.fail(site.at(site.keywordValue("reuse")), "service() reuse must be a bool");
  s.reuse = flag->value;
}

// seed= and reset=: a callable each.
template <std::shared_ptr<const FunctionRef> Service::*Field, const char *Name>
void readCallbackKw(const CallSite &site, Service &s, Value v, const std::string &) {
  s.*Field = callback(site, Name, v);
}

// What service()'s keyword readers write to.
struct ServiceArgs {
  Service &s;
  const std::string &prefix; // service("name")
};

// A reader of (site, service, value, prefix) as a parameter's.
template <void (*Read)(const CallSite &, Service &, Value, const std::string &)>
void withPrefix(ServiceArgs &a, const Arg &arg) {
  Read(arg.site(), a.s, arg.value, a.prefix);
}
// A reader that needs no prefix.
template <void (*Read)(const CallSite &, Service &, Value)>
void plainKw(ServiceArgs &a, const Arg &arg) {
  Read(arg.site(), a.s, arg.value);
}

void readOtherKeyword(ServiceArgs &a, const Arg &arg);

// service()'s keywords: the reference tool's, in its order (messages list
// them all, including those fbc does not run yet), then fbc's own; each
// with how its value is read. The one list for the binding and the
// messages.
constexpr Param<ServiceArgs> kServiceParams[] = {
    {"binary", withPrefix<readBinaryKw>},
    {"image", withPrefix<readStringKw<&Service::image, kImage>>},
    {"build", withPrefix<readStringKw<&Service::build, kBuild>>},
    {"remote", plainKw<parseRemote>},
    {"healthcheck", withPrefix<readHealthcheckKw>},
    {"env", plainKw<parseEnv>},
    {"args", plainKw<parseArgsList>},
    {"depends_on", plainKw<parseDependsOn>},
    {"volumes", plainKw<parseVolumes>},
    {"ports", plainKw<parsePorts>},
    {"observe", plainKw<parseObserve>},
    {"ops", plainKw<parseOps>},
    {"reuse", withPrefix<readReuseKw>},
    {"seed", withPrefix<readCallbackKw<&Service::seed, kSeed>>},
    {"reset", withPrefix<readCallbackKw<&Service::reset, kReset>>},
    {"seccomp", withPrefix<readSeccompKw>},
    {"nondeterministic_ok", plainKw<parseCategories>},
    {"pids_max", withPrefix<readPidsMaxKw>}, // fbc's: the service's cgroup pids limit (docs/run.md)
    {"user", plainKw<parseUser>},            // fbc's: the account the service runs as (docs/run.md)
    {kOtherKeywords, readOtherKeyword},
};

std::vector<std::string_view> serviceKeywordNames() {
  return paramNames(kServiceParams);
}

// Keywords users reach for that service() does not have, with where what
// they mean is written instead.
constexpr std::pair<std::string_view, std::string_view> kMisplacedKeywords[] = {
    {"cmd", "the command is the binary, positional or binary=, plus args="},
    {"entrypoint", "the command is the binary, positional or binary=, plus args="},
    {"http", "interfaces are positional: service(\"api\", \"/bin/api\", "
             "interface(\"main\", \"http\", 8080)); a healthcheck is "
             "healthcheck=http(\"localhost:8080/health\")"},
    {"tcp", "interfaces are positional: service(\"api\", \"/bin/api\", "
            "interface(\"main\", \"http\", 8080)); a healthcheck is "
            "healthcheck=http(\"localhost:8080/health\")"},
};

// A keyword service() does not take: with a hint when it is one users
// reach for by mistake.
void readOtherKeyword(ServiceArgs &a, const Arg &arg) {
  const CallSite &site = arg.site();
  for (const auto &[name, hint] : kMisplacedKeywords)
    if (name == arg.name)
      site.fail(site.at(site.keyword(name)),
                a.prefix + ": unknown keyword argument " + quote(name) + "; valid: " +
                    joinNames(serviceKeywordNames()) + " (" + std::string(hint) + ")");
  arg.call.failUnknown(arg.name, serviceKeywordNames());
}

} // namespace

Value serviceFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "service");
  if (findKeyword(args, "name"))
    site.fail(site.at(site.keyword("name")),
              "service(): name is the first positional argument - write "
              "service(\"myname\", ...), not name=");
  if (args.positional.empty())
    site.fail("service() requires at least a name");
  auto *name = args.positional[0].as<star::String>();
  if (!name)
    site.fail(site.at(site.positional(0)), "service() name must be a string");
  if (name->view().empty())
    site.fail(site.at(site.positional(0)), "service() name must not be empty");
  checkServiceName(site, site.at(site.positional(0)), "service()", name->view());

  auto *svc = t.heap.make<ServiceValue>();
  Service &s = svc->data;
  s.name = std::string(name->view());
  s.loc = site.loc();
  std::string prefix = "service(" + quote(s.name) + ")";

  for (size_t i = 1; i < args.positional.size(); ++i) {
    Value a = args.positional[i];
    Loc at = site.at(site.positional(i));
    if (auto *bin = a.as<star::String>()) {
      if (!s.binary.empty())
        site.fail(at, prefix + ": more than one binary: " + quote(s.binary) + " and " +
                          quote(bin->view()));
      s.binary = std::string(bin->view());
    } else if (auto *iface = valueAs<InterfaceValue>(a)) {
      if (s.findInterface(iface->data.name))
        site.fail(at, prefix + ": duplicate interface " + quote(iface->data.name));
      s.interfaces.push_back(iface->data);
    } else {
      site.fail(at, "service() positional arg " + std::to_string(i) +
                        " must be a string (binary) or interface(), got " + typeOf(a));
    }
  }

  ServiceArgs read{s, prefix};
  bindKeywords(BindCall(site, args, {prefix}), kServiceParams, read);

  int sources = !s.binary.empty() + !s.image.empty() + !s.build.empty() + s.isRemote();
  if (sources == 0)
    site.fail("service() requires one of: binary (positional or keyword), image=, build=, or "
              "remote=");
  if (sources > 1)
    site.fail("service() accepts only one of: binary, image=, build=, or remote= (got " +
              std::to_string(sources) + ")");
  if (s.isRemote())
    checkRemote(site, s, args);
  // ready() probes the default interface: without one it would probe
  // nothing, and the tests would start before the service listens.
  if (s.healthcheck && s.healthcheck->kind == HealthcheckKind::Ready && !s.defaultInterface())
    site.fail(site.at(site.keywordValue("healthcheck")),
              prefix + ": ready() probes the service's default interface, and it has " +
                  std::to_string(s.interfaces.size()) +
                  " interfaces, none named \"default\"; name one \"default\" or use tcp() or "
                  "http() with an address");
  recordNeeds(s);
  if (ServiceValue *prev = b.findService(s.name))
    site.fail(site.at(site.positional(0)),
              prefix + ": duplicate service name (first declared at " + prev->data.loc.str() + ")");
  b.services.push_back(svc);
  return Value::object(svc);
}

Value interfaceFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  Value name, protocol, port, spec, tls;
  // An unknown keyword in fbc's wording, the rest in Go's.
  bindSlots(BindCall(site, args, {"interface()", UnknownForm::Listed, "interface"}),
            {"name", "protocol", "port", "spec?", "tls?"}, {&name, &protocol, &port, &spec, &tls});
  auto want = [&](Value v, size_t i, const char *param, const char *type) {
    site.fail(site.at(site.param(i, param)), std::string("interface: for parameter ") + param +
                                                 ": got " + typeOf(v) + ", want " + type);
  };
  auto *n = name.as<star::String>();
  if (!n)
    want(name, 0, "name", "string");
  auto *p = protocol.as<star::String>();
  if (!p)
    want(protocol, 1, "protocol", "string");
  if (!port.isInt())
    want(port, 2, "port", "int");
  auto *iface = t.heap.make<InterfaceValue>();
  Interface &i = iface->data;
  i.name = std::string(n->view());
  i.protocol = std::string(p->view());
  i.port = port.isSmallInt() ? port.smallInt() : 0; // a big int is out of range
  i.loc = site.loc();
  std::string prefix = "interface(" + quote(i.name) + ")";
  if (i.name.empty())
    site.fail(site.at(site.param(0, "name")), "interface() name must not be empty");
  if (i.port < 1 || i.port > 65535)
    site.fail(site.at(site.param(2, "port")),
              prefix + ": port must be between 1 and 65535, got " + star::repr(port));
  if (spec && !isNone(spec)) {
    auto *s = spec.as<star::String>();
    if (!s)
      want(spec, 3, "spec", "string");
    i.spec = std::string(s->view());
  }
  if (tls && !isNone(tls)) {
    auto *cert = valueAs<TlsCertValue>(tls);
    if (!cert)
      site.fail(site.at(site.param(4, "tls")), "interface(" + i.name +
                                                   "): tls= must be a tls_cert(...) value, got " +
                                                   typeOf(tls));
    if (const Protocol *p = findProtocol(i.protocol); p && p->tls == TlsStart::None)
      site.fail(site.at(site.param(4, "tls")),
                "interface(" + i.name + "): tls= on a " + i.protocol +
                    " interface: fbc speaks no TLS over datagrams (DTLS)");
    // gRPC over TLS needs ALPN ("h2"), which neither fbc's gRPC step nor its
    // proxy's TLS terminators negotiate: a call would reach the service in
    // clear or fail its handshake, so it is refused where it is written.
    if (const Protocol *p = findProtocol(i.protocol); p && p->http2 == Http2::Grpc)
      site.fail(site.at(site.param(4, "tls")),
                "interface(" + i.name + "): tls= on a " + i.protocol +
                    " interface: fbc speaks gRPC over HTTP/2 in clear (h2c) only; TLS needs "
                    "ALPN, which its gRPC step and proxy do not negotiate yet");
    i.tls = cert->data;
  }
  return Value::object(iface);
}

namespace {

void readOpSyscalls(Op &o, const Arg &arg) {
  const CallSite &site = arg.site();
  std::vector<Value> items;
  if (!listItems(arg.value, items))
    site.fail(arg.at(), "op() syscalls= must be a list of strings, got " + typeOf(arg.value));
  for (size_t i = 0; i < items.size(); ++i) {
    Loc at = site.at(CallSite::element(arg.expr, i));
    auto *s = items[i].as<star::String>();
    if (!s)
      site.fail(at, "op() syscalls items must be strings, got " + typeOf(items[i]));
    if (!isSyscallName(s->view()))
      site.fail(at, "op(): unknown syscall " + quote(s->view()) +
                        "; valid: " + joinNames(syscallKeywords()) + ", any other syscall name");
    o.syscalls.emplace_back(s->view());
  }
}

void readOpPath(Op &o, const Arg &arg) {
  auto *s = arg.value.as<star::String>();
  if (!s)
    arg.site().fail(arg.at(), "op() path= must be a string, got " + typeOf(arg.value));
  o.path = std::string(s->view());
}

constexpr Param<Op> kOpParams[] = {
    {"syscalls", readOpSyscalls, Required, "op() requires syscalls= argument"},
    {"path", readOpPath},
};

} // namespace

Value opFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)), "op() takes only keyword arguments");
  auto *op = t.heap.make<OpValue>();
  Op &o = op->data;
  o.loc = site.loc();
  bindKeywords(BindCall(site, args, {"op()"}), kOpParams, o);
  if (o.syscalls.empty())
    site.fail("op() requires syscalls= argument");
  return Value::object(op);
}

} // namespace fbc::ir::builtins
