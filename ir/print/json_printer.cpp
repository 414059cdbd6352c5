// The JSON form of ir::Spec (schema_version 1). Every field is always
// present; absent optional values are null, so consumers see one shape.
// Durations are written both as Go strings and as nanoseconds.
#include "ir/print/json_printer_impl.h"

namespace fbc::ir {
namespace json_detail {

void JsonPrinter::print(const Spec &spec) {
  w_.beginObject();
  w_.field("schema_version", int64_t(1));
  w_.field("spec_path", spec.path);
  w_.key("determinism");
  determinism(spec.determinism);
  w_.key("services");
  w_.beginArray();
  for (const Service &s : spec.services)
    service(s);
  w_.endArray();
  w_.key("assumptions");
  w_.beginArray();
  for (const FaultAssumption &a : spec.assumptions)
    assumption(a);
  w_.endArray();
  w_.key("scenarios");
  w_.beginArray();
  for (const Scenario &s : spec.scenarios) {
    w_.beginObject();
    w_.field("name", s.name);
    loc("loc", s.loc);
    w_.key("function");
    function(s.fn);
    w_.endObject();
  }
  w_.endArray();
  w_.key("matrices");
  w_.beginArray();
  for (const Matrix &m : spec.matrices)
    matrix(m);
  w_.endArray();
  w_.key("tests");
  w_.beginArray();
  for (const Test &t : spec.tests)
    test(t);
  w_.endArray();
  if (!spec.clients.empty()) { // left out when the spec declares no client()
    w_.key("clients");
    w_.beginArray();
    for (const Client &c : spec.clients)
      client(c);
    w_.endArray();
  }
  if (!spec.dataFiles.empty()) { // left out when the spec read no data file
    w_.key("data_files");
    w_.beginArray();
    for (const DataFile &d : spec.dataFiles) {
      w_.beginObject(/*inlined=*/true);
      w_.field("builtin", d.builtin);
      w_.field("path", d.path);
      w_.field("bytes", d.bytes);
      loc("loc", d.loc);
      w_.endObject();
    }
    w_.endArray();
  }
  if (!spec.monitors.empty()) { // left out when the spec declares none
    w_.key("monitors");
    w_.beginArray();
    for (const Monitor &m : spec.monitors)
      monitor(m);
    w_.endArray();
  }
  if (!spec.assumes.empty()) {
    w_.key("assumes");
    w_.beginArray();
    for (const Assume &a : spec.assumes)
      assume(a);
    w_.endArray();
  }
  w_.endObject();
  w_.finish();
}

// image=/build=/volumes=/ports=/reuse=/seed=/reset=, remote=, and what
// running the service needs: only the members that are set.
void JsonPrinter::container(const Service &s) {
  if (!s.image.empty())
    w_.field("image", s.image);
  if (!s.build.empty())
    w_.field("build", s.build);
  if (!s.volumes.empty()) {
    w_.key("volumes");
    w_.beginObject();
    for (const auto &[host, path] : s.volumes)
      w_.field(host, path);
    w_.endObject();
  }
  if (!s.ports.empty()) {
    w_.key("ports");
    w_.beginArray();
    for (const auto &[c, h] : s.ports) {
      w_.beginObject(/*inlined=*/true);
      w_.field("container", c);
      w_.field("host", h);
      w_.endObject();
    }
    w_.endArray();
  }
  if (s.reuse)
    w_.field("reuse", true);
  for (const auto &[key, fn] : {std::pair{"seed", s.seed.get()}, {"reset", s.reset.get()}})
    if (fn) {
      w_.key(key);
      function(*fn);
    }
  if (!s.remote.empty())
    w_.field("remote", s.remote);
  if (!s.remotes.empty()) {
    w_.key("remotes");
    w_.beginObject();
    for (const auto &[iface, host] : s.remotes)
      w_.field(iface, host);
    w_.endObject();
  }
  if (!s.needs.empty()) {
    w_.key("needs");
    w_.beginArray();
    for (const HostNeed &n : s.needs) {
      w_.beginObject();
      w_.field("feature", hostFeatureName(n.feature));
      w_.field("what", n.what);
      w_.endObject();
    }
    w_.endArray();
  }
}

void JsonPrinter::client(const Client &c) {
  w_.beginObject();
  w_.field("name", c.name);
  loc("loc", c.loc);
  w_.key("target");
  w_.beginObject(/*inlined=*/true);
  w_.field("service", c.service);
  w_.field("interface", c.interface);
  w_.endObject();
  optionalString("openapi", c.openapi);
  optionalString("descriptors", c.descriptors);
  optionalString("grpc_service", c.grpcService);
  optionalString("base_path", c.basePath);
  pairs("headers", c.headers);
  pairs("rename", c.rename);
  w_.key("before");
  if (c.before)
    function(*c.before);
  else
    w_.null();
  w_.field("validate", c.validate);
  duration("timeout", c.timeoutNs ? std::optional<int64_t>(c.timeoutNs) : std::nullopt);
  w_.key("needs");
  w_.beginArray();
  for (const HostNeed &n : c.needs) {
    w_.beginObject(/*inlined=*/true);
    w_.field("feature", hostFeatureName(n.feature));
    w_.field("what", n.what);
    w_.endObject();
  }
  w_.endArray();
  w_.key("contract");
  if (!c.contract) {
    w_.null();
    w_.endObject();
    return;
  }
  w_.beginObject();
  w_.field("id", c.contract->id());
  w_.key("operations");
  w_.beginArray();
  for (const ContractOperation &op : c.contract->operations) {
    w_.beginObject();
    w_.field("name", op.name);
    w_.field("contract_name", op.contractName);
    w_.field("method", op.method);
    w_.field("path", op.path);
    w_.key("params");
    w_.beginArray();
    for (const ContractParam &p : op.params) {
      w_.beginObject(/*inlined=*/true);
      w_.field("name", p.name);
      w_.field("wire_name", p.wireName);
      w_.field("in", p.in);
      w_.field("required", p.required);
      w_.endObject();
    }
    w_.endArray();
    w_.key("body");
    if (op.acceptsBody) {
      w_.beginObject(/*inlined=*/true);
      w_.field("required", op.bodyRequired);
      w_.field("content_type", op.bodyContentType);
      w_.endObject();
    } else {
      w_.null();
    }
    w_.key("responses");
    w_.beginArray(/*inlined=*/true);
    for (const ContractResponse &r : op.responses)
      w_.value(r.status);
    w_.endArray();
    w_.endObject();
  }
  w_.endArray();
  w_.endObject();
  w_.endObject();
}

void JsonPrinter::determinism(const Determinism &d) {
  w_.beginObject();
  w_.field("level", d.level);
  w_.field("runtime", d.runtime);
  w_.field("strict", d.strict);
  strings("allow", d.allow);
  w_.field("explicit", d.explicitCall);
  loc("loc", d.loc);
  w_.endObject();
}

void JsonPrinter::mockResponse(const MockResponse &r) {
  w_.beginObject();
  w_.field("kind", mockResponseBuiltin(r.kind));
  w_.field("status", r.status);
  w_.field("body", r.body);
  optionalString("content_type", r.contentType);
  w_.key("headers");
  w_.beginObject();
  for (const auto &[k, v] : r.headers)
    w_.field(k, v);
  w_.endObject();
  w_.key("function");
  if (r.kind == MockResponseKind::Dynamic)
    function(r.fn);
  else
    w_.null();
  w_.field("display", r.display());
  loc("loc", r.loc);
  w_.endObject();
}

void JsonPrinter::mockRoutes(std::string_view key, const std::vector<MockRoute> &routes) {
  w_.key(key);
  w_.beginArray();
  for (const MockRoute &r : routes) {
    w_.beginObject();
    w_.field("pattern", r.pattern);
    w_.key("response");
    mockResponse(r.response);
    loc("loc", r.loc);
    w_.endObject();
  }
  w_.endArray();
}

void JsonPrinter::mock(const Mock &m) {
  w_.beginObject();
  mockRoutes("routes", m.routes);
  mockRoutes("overrides", m.overrides);
  w_.key("default");
  if (m.fallback)
    mockResponse(*m.fallback);
  else
    w_.null();
  w_.field("tls", m.tls);
  optionalString("config_json", m.configJson);
  optionalString("openapi", m.openapi);
  optionalString("examples", m.examples);
  optionalString("validate", m.validate);
  optionalString("descriptors", m.descriptors);
  w_.endObject();
}

void JsonPrinter::service(const Service &s) {
  w_.beginObject();
  w_.field("name", s.name);
  loc("loc", s.loc);
  strings("globals", s.globals);
  w_.field("binary", s.binary);
  container(s);
  if (s.mock) { // only on mocks, as pids_max and user only when set
    w_.key("mock");
    mock(*s.mock);
  }
  strings("args", s.args);
  w_.key("env");
  w_.beginObject();
  for (const auto &[k, v] : s.env)
    w_.field(k, v);
  w_.endObject();
  w_.key("interfaces");
  w_.beginArray();
  for (const Interface &i : s.interfaces) {
    w_.beginObject();
    w_.field("name", i.name);
    w_.field("protocol", i.protocol);
    w_.field("port", i.port);
    optionalString("spec", i.spec);
    if (i.tls) {
      const TlsCert &c = *i.tls;
      w_.key("tls");
      w_.beginObject();
      for (auto [k, v] : {std::pair{"proxy_cert", &c.proxyCert},
                          {"proxy_key", &c.proxyKey},
                          {"client_cert", &c.clientCert},
                          {"client_key", &c.clientKey},
                          {"ca", &c.ca}})
        optionalString(k, *v);
      w_.field("insecure", c.insecure);
      w_.endObject();
    }
    loc("loc", i.loc);
    w_.endObject();
  }
  w_.endArray();
  w_.key("healthcheck");
  if (const auto &h = s.healthcheck) {
    w_.beginObject();
    w_.field("kind", healthcheckKindName(h->kind));
    w_.field("target", h->target);
    if (h->kind == HealthcheckKind::Ready)
      w_.field("probe", healthcheckKindName(readyProbe(s)));
    duration("timeout", h->timeoutNs);
    loc("loc", h->loc);
    w_.endObject();
  } else {
    w_.null();
  }
  w_.key("depends_on");
  w_.beginArray();
  for (const Dependency &d : s.dependsOn) {
    w_.beginObject();
    w_.field("name", d.name);
    loc("loc", d.loc);
    w_.endObject();
  }
  w_.endArray();
  w_.field("seccomp", s.seccomp);
  strings("nondeterministic_ok", s.nondeterministicOk);
  if (s.pidsMax)
    w_.field("pids_max", static_cast<int64_t>(s.pidsMax));
  if (!s.user.empty())
    w_.field("user", s.user);
  if (!s.observe.empty()) { // when set, as pids_max and user
    w_.key("observe");
    w_.beginArray();
    for (const ObserveSource &o : s.observe) {
      w_.beginObject(/*inlined=*/true);
      w_.field("stream", o.stream);
      optionalString("decoder", o.decoder);
      optionalString("pattern", o.pattern);
      loc("loc", o.loc);
      w_.endObject();
    }
    w_.endArray();
  }
  w_.key("ops");
  w_.beginArray();
  for (const Op &o : s.ops) {
    w_.beginObject();
    w_.field("name", o.name);
    strings("syscalls", o.syscalls);
    optionalString("path", o.path);
    loc("loc", o.loc);
    w_.endObject();
  }
  w_.endArray();
  w_.endObject();
}

} // namespace json_detail

void printSpecJson(const Spec &spec, llvm::raw_ostream &os) {
  json_detail::JsonPrinter(os).print(spec);
}

} // namespace fbc::ir
