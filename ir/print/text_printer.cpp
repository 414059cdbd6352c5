// The text form of ir::Spec. Layout (docs/ir.md has the full grammar):
//
//   spec "checkout.star"
//
//   determinism level=L1 runtime=default strict=true allow=[]  # default
//
//   service db @checkout.star:12:6 {
//     binary "/usr/bin/db"
//     interface main postgres 5432 @checkout.star:12:30
//     ...
//   }
//
// One entity per block, blank line between blocks, `@file:line:col` at the
// end of every line that has a source location, fields in a fixed order,
// empty or default fields left out.
#include "ir/contract.h"
#include "ir/duration.h"
#include "ir/host_needs.h"
#include "ir/mock.h"
#include "ir/print/print.h"
#include "ir/protocols.h"
#include "ir/quote.h"

#include <llvm/Support/raw_ostream.h>

#include <charconv>

namespace fbc::ir {

namespace {

// A name as is when it is a plain word, else quoted.
std::string name(std::string_view s) {
  bool plain = !s.empty();
  for (char c : s)
    plain &= (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '-' || c == '.';
  return plain ? std::string(s) : quote(s);
}

std::string nameList(const std::vector<std::string> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ", " : "";
    out += name(items[i]);
  }
  return out + "]";
}

std::string stringList(const std::vector<std::string> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ", " : "";
    out += quote(items[i]);
  }
  return out + "]";
}

std::string at(const Loc &loc) {
  return loc.marker();
}

std::string cell(const MatrixCell &c) {
  std::string out = "(";
  out.append(name(c.scenario)).append(", ").append(name(c.fault)).append(")");
  return out;
}

std::string fault(const Fault &f) {
  std::string out = faultActionName(f.action);
  if (f.action == FaultAction::Deny)
    out += " " + f.errnoName;
  else if (f.action == FaultAction::Delay)
    out += " " + formatDuration(f.delayNs);
  if (f.action != FaultAction::Allow && f.probability != 1)
    out += " probability=" + formatNumber(f.probability);
  if (f.maxFires > 0)
    out += " max_fires=" + std::to_string(f.maxFires);
  if (f.mode != FaultMode::None)
    out += std::string(" mode=") + faultModeName(f.mode);
  if (!f.label.empty())
    out += " label=" + quote(f.label);
  if (!f.path.empty())
    out += " path=" + quote(f.path);
  return out;
}

// tls_cert(...) as written, its set fields only: "tls_cert(ca=\"ca.pem\")".
std::string tlsText(const TlsCert &c) {
  std::string out;
  for (auto [k, v] : {std::pair{"proxy_cert", &c.proxyCert},
                      {"proxy_key", &c.proxyKey},
                      {"client_cert", &c.clientCert},
                      {"client_key", &c.clientKey},
                      {"ca", &c.ca}})
    if (!v->empty())
      out += std::string(out.empty() ? "" : ", ") + k + "=" + quote(*v);
  if (c.insecure)
    out += std::string(out.empty() ? "" : ", ") + "insecure=True";
  return "tls_cert(" + out + ")";
}

class TextPrinter {
public:
  explicit TextPrinter(llvm::raw_ostream &os) : os_(os) {}

  void print(const Spec &spec) {
    os_ << "spec " << quote(spec.path) << "\n";
    determinism(spec.determinism);
    if (!spec.dataFiles.empty()) {
      os_ << "\n";
      for (const DataFile &d : spec.dataFiles)
        os_ << "data " << d.builtin << " " << quote(d.path) << " bytes=" << d.bytes << at(d.loc)
            << "\n";
    }
    for (const Service &s : spec.services)
      service(s);
    spec_ = &spec;
    for (size_t i = 0; i < spec.monitors.size(); ++i)
      monitor(uint32_t(i), spec.monitors[i]);
    if (!spec.assumes.empty()) {
      os_ << "\n";
      for (const Assume &a : spec.assumes)
        os_ << "assume " << assumeText(a) << at(a.loc) << "\n";
    }
    for (const Client &c : spec.clients)
      client(c);
    for (const FaultAssumption &a : spec.assumptions)
      assumption(a);
    for (const Scenario &s : spec.scenarios) {
      os_ << "\nscenario " << name(s.name) << at(s.loc) << " {\n";
      line("fn " + name(s.fn.name) + at(s.fn.loc));
      os_ << "}\n";
    }
    for (const Matrix &m : spec.matrices)
      matrix(m);
    for (const Test &t : spec.tests)
      test(t);
  }

private:
  void line(const std::string &text) { os_ << "  " << text << "\n"; }

  void determinism(const Determinism &d) {
    os_ << "\ndeterminism level=" << d.level << " runtime=" << d.runtime
        << " strict=" << (d.strict ? "true" : "false") << " allow=" << nameList(d.allow);
    if (d.explicitCall)
      os_ << at(d.loc) << "\n";
    else
      os_ << "  # default: determinism() not called\n";
  }

  void service(const Service &s) {
    os_ << "\nservice " << name(s.name) << at(s.loc) << " {\n";
    if (!s.globals.empty())
      line("globals " + nameList(s.globals));
    if (s.mock)
      mock(*s.mock, /*beforeInterfaces=*/true);
    if (!s.binary.empty())
      line("binary " + quote(s.binary));
    if (!s.image.empty())
      line("image " + quote(s.image));
    if (!s.build.empty())
      line("build " + quote(s.build));
    if (!s.remote.empty())
      line("remote " + quote(s.remote));
    for (const auto &[iface, host] : s.remotes)
      line("remote " + name(iface) + " " + quote(host));
    for (const auto &[host, path] : s.volumes)
      line("volume " + quote(host) + " = " + quote(path));
    for (const auto &[c, h] : s.ports)
      line("port " + std::to_string(c) + " = " + std::to_string(h));
    if (s.reuse)
      line("reuse true");
    if (s.seed)
      line("seed " + name(s.seed->name) + at(s.seed->loc));
    if (s.reset)
      line("reset " + name(s.reset->name) + at(s.reset->loc));
    if (!s.args.empty())
      line("args " + stringList(s.args));
    for (const auto &[k, v] : s.env)
      line("env " + quote(k) + " = " + quote(v));
    for (const Interface &i : s.interfaces) {
      std::string text =
          "interface " + name(i.name) + " " + name(i.protocol) + " " + std::to_string(i.port);
      if (!i.spec.empty())
        text += " spec=" + quote(i.spec);
      if (i.tls)
        text += " tls=" + tlsText(*i.tls);
      line(text + at(i.loc));
    }
    if (const auto &h = s.healthcheck) {
      std::string probe;
      if (h->kind == HealthcheckKind::Ready)
        probe = std::string(" probe=") + healthcheckKindName(readyProbe(s));
      line(std::string("healthcheck ") + healthcheckKindName(h->kind) + " " + quote(h->target) +
           probe + " timeout=" + formatDuration(h->timeoutNs) + at(h->loc));
    }
    for (const Dependency &d : s.dependsOn)
      line("depends_on " + name(d.name) + at(d.loc));
    if (!s.seccomp)
      line("seccomp false");
    if (!s.nondeterministicOk.empty())
      line("nondeterministic_ok " + nameList(s.nondeterministicOk));
    if (s.pidsMax)
      line("pids_max " + std::to_string(s.pidsMax));
    if (!s.user.empty())
      line("user " + quote(s.user));
    for (const ObserveSource &o : s.observe) {
      std::string text = "observe " + o.stream;
      if (!o.decoder.empty())
        text += " decoder=" + o.decoder;
      if (!o.pattern.empty())
        text += " pattern=" + quote(o.pattern);
      line(text + at(o.loc));
    }
    for (const Op &o : s.ops) {
      std::string text = "op " + name(o.name) + " syscalls=" + nameList(o.syscalls);
      if (!o.path.empty())
        text += " path=" + quote(o.path);
      line(text + at(o.loc));
    }
    for (const HostNeed &n : s.needs)
      line(std::string("needs ") + hostFeatureName(n.feature) + " " + quote(n.what));
    if (s.mock)
      mock(*s.mock, /*beforeInterfaces=*/false);
    os_ << "}\n";
  }

  void client(const Client &c) {
    os_ << "\nclient " << name(c.name) << at(c.loc) << " {\n";
    line("target " + name(c.service) + "." + name(c.interface));
    if (!c.openapi.empty())
      line("openapi " + quote(c.openapi));
    if (!c.descriptors.empty())
      line("descriptors " + quote(c.descriptors));
    if (!c.grpcService.empty())
      line("grpc_service " + quote(c.grpcService));
    if (!c.basePath.empty())
      line("base_path " + quote(c.basePath));
    for (const auto &[k, v] : c.headers)
      line("header " + quote(k) + " = " + quote(v));
    for (const auto &[k, v] : c.rename)
      line("rename " + quote(k) + " = " + quote(v));
    if (c.before)
      line("before " + name(c.before->name) + at(c.before->loc));
    line("validate " + c.validate);
    if (c.timeoutNs)
      line("timeout " + formatDuration(c.timeoutNs));
    for (const HostNeed &n : c.needs)
      line(std::string("needs ") + hostFeatureName(n.feature) + " " + quote(n.what));
    if (c.contract) {
      line("contract " + quote(c.contract->id()));
      for (const ContractOperation &op : c.contract->operations)
        line("operation " + name(op.name) + " " + quote(op.wire()) + " " + quote(op.signature()) +
             " contract_name=" + quote(op.contractName));
    }
    os_ << "}\n";
  }

  // A mock's "mock" line where a service has its binary, its routes and
  // settings after the service's own fields.
  void mock(const Mock &m, bool beforeInterfaces) {
    if (beforeInterfaces) {
      line("mock");
      return;
    }
    for (const MockRoute &r : m.routes)
      line("route " + quote(r.pattern) + " -> " + r.response.display() + at(r.loc));
    for (const MockRoute &r : m.overrides)
      line("override " + quote(r.pattern) + " -> " + r.response.display() + at(r.loc));
    if (m.fallback)
      line("default " + m.fallback->display() + at(m.fallback->loc));
    if (m.tls)
      line("tls true");
    if (!m.configJson.empty())
      line("config " + quote(m.configJson));
    for (auto [k, v] : {std::pair<const char *, const std::string *>{"openapi", &m.openapi},
                        {"examples", &m.examples},
                        {"validate", &m.validate},
                        {"descriptors", &m.descriptors}})
      if (!v->empty())
        line(std::string(k) + " " + quote(*v));
  }

  // "[#0 name, #2 other]": monitors by their index in the spec.
  std::string monitors(const std::vector<uint32_t> &idx) const {
    std::vector<std::string> items;
    for (uint32_t i : idx)
      items.push_back("#" + std::to_string(i) + " " + name(spec_->monitors[i].name));
    return "[" + joinWords(items) + "]";
  }

  static std::string joinWords(const std::vector<std::string> &items) {
    std::string out;
    for (const std::string &s : items)
      out.append(out.empty() ? "" : ", ").append(s);
    return out;
  }

  static std::string assumeText(const Assume &a) {
    return a.constant ? (a.value ? "True" : "False") : name(a.fn.name);
  }

  void monitor(uint32_t i, const Monitor &m) {
    os_ << "\nmonitor #" << i << " " << name(m.name) << at(m.loc) << " {\n";
    line("on " + m.on.display() + at(m.on.loc));
    line("state_init " + m.stateInitText);
    if (m.update)
      line("update " + name(m.update->name) + at(m.update->loc));
    if (m.check)
      line("check " + name(m.check->name) + at(m.check->loc));
    line(m.claimed ? "scope claimed" : "scope spec");
    os_ << "}\n";
  }

  void temporal(const char *field, const Temporal &x) {
    line(std::string(field) + " " + x.display() + at(x.loc));
  }

  void assumption(const FaultAssumption &a) {
    os_ << "\nassumption " << name(a.name);
    if (a.target.valid()) {
      os_ << " target=" << name(a.target.service);
      if (!a.target.interface.empty())
        os_ << "." << name(a.target.interface);
    }
    os_ << at(a.loc) << " {\n";
    if (!a.description.empty())
      line("description " + quote(a.description));
    for (const FaultRule &r : a.rules) {
      std::string text = "rule " + name(r.keyword);
      if (!r.op.empty())
        text += " op";
      text += " -> " + nameList(r.syscalls) + ": " + fault(r.fault);
      line(text + at(r.loc));
    }
    for (const ProxyRule &r : a.proxyRules)
      line("proxy " + r.display() + at(r.loc));
    for (const PacketRule &r : a.packetRules)
      line("packet " + r.display() + at(r.loc));
    if (!a.faults.empty())
      line("faults " + nameList(a.faults));
    if (!a.monitors.empty())
      line("monitors " + monitors(a.monitors));
    os_ << "}\n";
  }

  void expect(const char *field, const Expect &e) {
    Loc loc = e.kind == ExpectKind::Function ? e.fn.loc : e.loc;
    line(std::string(field) + " " + e.display() + at(loc));
  }

  void matrix(const Matrix &m) {
    os_ << "\nmatrix #" << m.index << at(m.loc) << " {\n";
    std::vector<std::string> scenarios;
    for (const FunctionRef &f : m.scenarios)
      scenarios.push_back(f.name);
    line("scenarios " + nameList(scenarios));
    line("faults " + nameList(m.faults));
    if (m.defaultExpect)
      expect("default_expect", *m.defaultExpect);
    for (const MatrixOverride &o : m.overrides)
      line("override " + cell(o.cell) + " expect=" + o.expect.display() + at(o.cell.loc));
    for (const MatrixCell &c : m.exclude)
      line("exclude " + cell(c) + at(c.loc));
    if (m.requireFaultsFire)
      line("require_faults_fire true");
    if (!m.monitors.empty())
      line("monitors " + monitors(m.monitors));
    os_ << "}\n";
  }

  void test(const Test &t) {
    os_ << "\ntest " << name(t.name) << " " << testKindName(t.kind) << at(t.loc) << " {\n";
    line("body " + name(t.body.name) + at(t.body.loc));
    if (t.setup)
      line("setup " + name(t.setup->name) + at(t.setup->loc));
    if (t.matrix)
      line("matrix #" + std::to_string(*t.matrix) + " " + cell(t.cell()));
    if (!t.faults.empty())
      line("faults " + nameList(t.faults));
    if (t.expect)
      expect("expect", *t.expect);
    if (t.timeoutNs)
      line("timeout " + formatDuration(*t.timeoutNs));
    if (t.requireFaultsFire)
      line("require_faults_fire true");
    if (const TestTemporal *x = t.temporal.get()) {
      if (!x->monitors.empty() && !t.matrix) // a cell's are its matrix's
        line("monitors " + monitors(x->monitors));
      if (x->expect)
        temporal("expect", *x->expect);
      if (x->terminateWhen)
        temporal("terminate_when", *x->terminateWhen);
      if (!x->assumes.empty()) {
        std::vector<std::string> items;
        for (const Assume &a : x->assumes)
          items.push_back(assumeText(a));
        line("assume [" + joinWords(items) + "]" + at(x->assumes[0].loc));
      }
    }
    os_ << "}\n";
  }

  llvm::raw_ostream &os_;
  const Spec *spec_ = nullptr;
};

} // namespace

void printSpecText(const Spec &spec, llvm::raw_ostream &os) {
  TextPrinter(os).print(spec);
}

} // namespace fbc::ir
