// The coverage pass: the dependency edges of the topology and the fault
// tests that cover them.
//
// Edges (one per (from, to) pair, sorted by from, then to):
//   depends_on  every declared service a service depends on;
//   env         an env value that references another service: a host equal
//               to its name ("db:5432", "postgres://u@db/x"), or the address
//               of one of its interfaces (ir::Service::address(), what
//               db.main.addr evaluates to): localhost / 127.0.0.1 with the
//               port of a service fbc runs, a remote service's host:port.
//               The protocol is the matched interface's, else the service's
//               first interface's.
// An edge A -> B is covered iff some fault_scenario or fault_matrix cell
// installs an assumption (or a composed one) that targets B or one of B's
// interfaces (its fault tests, by name: the seed's rule), or a plain
// `def test_*` body installs a fault on B through a statically known target
// (its body fault tests; passes/trap_scan.h `faulted`).
#include "ir/composed_assumptions.h"
#include "passes/pass_manager.h"
#include "passes/trap_scan.h"

#include <llvm/ADT/StringMap.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace fbc::passes {
namespace {

bool hostChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
}

struct HostRef {
  std::string host;
  std::optional<int64_t> port;
};

// Host names (and ports) in an env value: runs of host characters, a port
// when ":<digits>" follows; a run followed by "://" is a URL scheme.
std::vector<HostRef> hostRefs(std::string_view value) {
  std::vector<HostRef> out;
  std::string v = llvm::StringRef(value).lower();
  size_t i = 0;
  while (i < v.size()) {
    if (!hostChar(v[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < v.size() && hostChar(v[i]))
      ++i;
    HostRef ref{v.substr(start, i - start), std::nullopt};
    if (i < v.size() && v[i] == ':') {
      if (v.compare(i, 3, "://") == 0)
        continue; // a scheme
      size_t j = i + 1;
      int64_t port = 0;
      while (j < v.size() && std::isdigit(static_cast<unsigned char>(v[j])) && j - i <= 6)
        port = port * 10 + (v[j++] - '0');
      if (j > i + 1)
        ref.port = port;
    }
    out.push_back(std::move(ref));
  }
  return out;
}

const std::string &primaryProtocol(const ir::Service &s) {
  static const std::string none;
  return s.interfaces.empty() ? none : s.interfaces.front().protocol;
}

const ir::Interface *interfaceByPort(const ir::Service &s, int64_t port) {
  for (const ir::Interface &i : s.interfaces)
    if (i.port == port)
      return &i;
  return nullptr;
}

// The dependency edges of a spec, found service by service.
class EdgeFinder {
public:
  explicit EdgeFinder(const ir::Spec &spec) : spec_(spec) {
    for (size_t i = 0; i < spec.services.size(); ++i) {
      byName_.try_emplace(llvm::StringRef(spec.services[i].name).lower(), i);
      for (const ir::Interface &f : spec.services[i].interfaces) {
        std::optional<ir::Address> at = spec.services[i].address(f);
        if (at && at->remote()) {
          byRemote_[{llvm::StringRef(at->host).lower(), at->port}].emplace_back(i, &f);
          continue;
        }
        std::vector<size_t> &v = byPort_[f.port];
        if (v.empty() || v.back() != i)
          v.push_back(i);
      }
    }
  }

  // Every edge, sorted by from, then to.
  std::vector<ir::PlanEdge> edges() {
    for (const ir::Service &s : spec_.services)
      serviceEdges(s);
    // A client is an actor of its own: an edge to the service it calls.
    for (const ir::Client &c : spec_.clients)
      if (const ir::Service *to = spec_.findService(c.service)) {
        const ir::Interface *f = to->findInterface(c.interface);
        ir::PlanEdge e;
        e.from = c.name;
        e.to = to->name;
        e.via = "client";
        e.protocol = f ? f->protocol : primaryProtocol(*to);
        edges_.push_back(std::move(e));
      }
    std::stable_sort(edges_.begin(), edges_.end(),
                     [](const ir::PlanEdge &a, const ir::PlanEdge &b) {
                       return std::tie(a.from, a.to) < std::tie(b.from, b.to);
                     });
    return std::move(edges_);
  }

private:
  void serviceEdges(const ir::Service &s) {
    targets_.clear();
    for (const ir::Dependency &d : s.dependsOn)
      if (const ir::Service *to = spec_.findService(d.name))
        addEdge(s, *to, "depends_on", "", primaryProtocol(*to));
    std::vector<const std::pair<std::string, std::string> *> env;
    for (const auto &kv : s.env)
      env.push_back(&kv);
    std::stable_sort(env.begin(), env.end(), [](auto *a, auto *b) { return a->first < b->first; });
    for (const auto *kv : env)
      for (const HostRef &ref : hostRefs(kv->second))
        envEdge(s, kv->first, ref);
  }

  // An env value's host reference: a loopback port of a service fbc runs,
  // a remote service's host:port, or a service's name.
  void envEdge(const ir::Service &s, const std::string &key, const HostRef &ref) {
    if ((ref.host == "localhost" || ref.host == "127.0.0.1") && ref.port) {
      auto it = byPort_.find(*ref.port);
      if (it == byPort_.end())
        return;
      for (size_t o : it->second) {
        const ir::Service &to = spec_.services[o];
        addEdge(s, to, "env", key, interfaceByPort(to, *ref.port)->protocol);
      }
      return;
    }
    if (auto r = ref.port ? byRemote_.find({ref.host, *ref.port}) : byRemote_.end();
        r != byRemote_.end()) {
      for (auto [o, f] : r->second)
        addEdge(s, spec_.services[o], "env", key, f->protocol);
      return;
    }
    auto it = byName_.find(ref.host);
    if (it == byName_.end())
      return;
    const ir::Service &to = spec_.services[it->second];
    const ir::Interface *f = ref.port ? interfaceByPort(to, *ref.port) : nullptr;
    addEdge(s, to, "env", key, f ? f->protocol : primaryProtocol(to));
  }

  void addEdge(const ir::Service &from, const ir::Service &to, std::string via, std::string envKey,
               std::string protocol) {
    if (&from == &to || std::find(targets_.begin(), targets_.end(), &to) != targets_.end())
      return;
    targets_.push_back(&to);
    ir::PlanEdge e;
    e.from = from.name;
    e.to = to.name;
    e.via = std::move(via);
    e.envKey = std::move(envKey);
    e.protocol = std::move(protocol);
    edges_.push_back(std::move(e));
  }

  const ir::Spec &spec_;
  llvm::StringMap<size_t> byName_; // lower-case name -> service
  // Loopback port -> the services fbc runs there; a remote (lower-case
  // host, port) -> its interfaces.
  std::map<int64_t, std::vector<size_t>> byPort_;
  std::map<std::pair<std::string, int64_t>, std::vector<std::pair<size_t, const ir::Interface *>>>
      byRemote_;
  std::vector<ir::PlanEdge> edges_;
  std::vector<const ir::Service *> targets_; // the current service's, for de-duplication
};

// Service -> the fault_scenario / fault_matrix tests that fault it
// (composed assumptions flattened), in test order.
llvm::StringMap<std::vector<std::string>> faultTestsByService(const ir::Spec &spec) {
  llvm::StringMap<std::vector<std::string>> targetsOf; // assumption -> services
  llvm::StringMap<std::vector<std::string>> out;
  for (const ir::Test &t : spec.tests) {
    if (t.kind != ir::TestKind::FaultScenario && t.kind != ir::TestKind::FaultMatrix)
      continue;
    for (const std::string &f : t.faults) {
      auto it = targetsOf.find(f);
      if (it == targetsOf.end()) {
        std::vector<std::string> services;
        for (const ir::FaultAssumption *a : ir::composedAssumptions(spec, f))
          if (a->target.valid())
            services.push_back(a->target.service);
        it = targetsOf.try_emplace(f, std::move(services)).first;
      }
      for (const std::string &svc : it->second) {
        std::vector<std::string> &v = out[svc];
        if (v.empty() || v.back() != t.name)
          v.push_back(t.name);
      }
    }
  }
  return out;
}

// Service -> the plain `def test_*` tests that fault it in their body.
llvm::StringMap<std::vector<std::string>> bodyFaultTestsByService(const ir::Spec &spec) {
  llvm::StringMap<std::vector<std::string>> out;
  for (const ir::Test &t : spec.tests)
    if (t.kind == ir::TestKind::Def)
      for (const std::string &svc : scanTraps(spec, t).faulted)
        out[svc].push_back(t.name);
  return out;
}

} // namespace

void runCoveragePass(const ir::Spec &spec, ir::Plan &plan) {
  ir::PlanCoverage &cov = plan.coverage;
  cov = ir::PlanCoverage{};
  cov.computed = true;
  llvm::StringMap<std::vector<std::string>> faultTests = faultTestsByService(spec);
  llvm::StringMap<std::vector<std::string>> bodyFaultTests = bodyFaultTestsByService(spec);
  std::set<std::string> covered, all;
  for (ir::PlanEdge &e : EdgeFinder(spec).edges()) {
    // Sorted and unique as built: tests are visited in name order, and a
    // test is appended once per service.
    if (auto it = faultTests.find(e.to); it != faultTests.end())
      e.faultTests = it->second;
    if (auto b = bodyFaultTests.find(e.to); b != bodyFaultTests.end())
      e.bodyFaultTests = b->second;
    if (!e.covered())
      ++cov.uncovered;
    if (!e.protocol.empty()) {
      all.insert(e.protocol);
      if (e.covered())
        covered.insert(e.protocol);
    }
    cov.edges.push_back(std::move(e));
  }
  cov.coveredProtocols.assign(covered.begin(), covered.end());
  for (const std::string &p : all)
    if (!covered.count(p))
      cov.uncoveredProtocols.push_back(p);
}

} // namespace fbc::passes
