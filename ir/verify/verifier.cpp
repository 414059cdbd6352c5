#include "ir/verify/verifier.h"

#include "frontend/lib/spellcheck.h"
#include "ir/quote.h"
#include "ir/syscalls.h"
#include "ir/topology.h"

#include <algorithm>
#include <map>
#include <set>

namespace fbc::ir {

namespace {

class Verifier {
public:
  Verifier(const Spec &spec, frontend::DiagnosticList &diags) : spec_(spec), diags_(diags) {}

  bool run() {
    services();
    dependencies();
    assumptions();
    scenarios();
    matrices();
    tests();
    determinism();
    return errors_ == 0;
  }

private:
  void error(const Loc &loc, std::string msg) {
    diags_.error(loc.file, loc.pos, std::move(msg));
    ++errors_;
  }

  void services() {
    std::map<std::string, const Service *> seen;
    for (const Service &s : spec_.services) {
      std::string what = "service " + quote(s.name);
      if (s.name.empty())
        error(s.loc, "service has an empty name");
      if (auto [it, fresh] = seen.emplace(s.name, &s); !fresh)
        error(s.loc, "duplicate service name " + quote(s.name) + " (first declared at " +
                         it->second->loc.str() + ")");
      int sources =
          !s.binary.empty() + !s.image.empty() + !s.build.empty() + s.isRemote() + bool(s.mock);
      if (sources != 1)
        error(s.loc, what + " has " + std::to_string(sources) +
                         " sources (binary, image, build, remote, mock): want one");
      // The run launches a binary, stands up a mock or dials a remote
      // service; anything else must say what it needs.
      if (s.binary.empty() && !s.mock && !s.isRemote() && s.needs.empty())
        error(s.loc, what + " has no binary and records no host need");
      std::set<std::string> ifaces;
      for (const Interface &i : s.interfaces) {
        if (!ifaces.insert(i.name).second)
          error(i.loc, what + ": duplicate interface " + quote(i.name));
        if (i.port < 1 || i.port > 65535)
          error(i.loc, what + ": interface " + quote(i.name) + " port " + std::to_string(i.port) +
                           " is out of range (1-65535)");
      }
      if (s.healthcheck && s.healthcheck->timeoutNs <= 0)
        error(s.healthcheck->loc, what + ": healthcheck timeout must be positive");
      for (const std::string &c : s.nondeterministicOk)
        if (!isDeterminismCategory(c))
          error(s.loc, what + ": unknown nondeterministic_ok category " + quote(c));
      for (const Op &o : s.ops)
        if (o.syscalls.empty())
          error(o.loc, what + ": op " + quote(o.name) + " has no syscalls");
    }
  }

  void dependencies() {
    std::vector<std::string> names;
    for (const Service &s : spec_.services)
      names.push_back(s.name);
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    bool undeclared = false;
    for (const Service &s : spec_.services)
      for (const Dependency &d : s.dependsOn) {
        if (spec_.findService(d.name))
          continue;
        undeclared = true;
        std::string msg = "service " + quote(s.name) + " depends on " + quote(d.name) +
                          ", which is not a declared service";
        std::vector<std::string> others; // the services it could depend on
        for (const std::string &n : sorted)
          if (n != s.name)
            others.push_back(n);
        std::string_view near = star::nearestName(d.name, others);
        if (!near.empty())
          msg += " (did you mean " + quote(near) + "?)";
        else if (!others.empty())
          msg += " (declared: " + joinSorted(others) + ")";
        else
          msg += " (no other service is declared)";
        error(d.loc, std::move(msg));
      }
    std::vector<std::string> cycle = findCycle(spec_.services);
    if (!cycle.empty()) {
      std::string text;
      for (const std::string &n : cycle) {
        text += text.empty() ? "" : " -> ";
        text += n;
      }
      const Service *first = spec_.findService(cycle[0]);
      Loc loc = first->loc;
      for (const Dependency &d : first->dependsOn)
        if (d.name == cycle[1]) {
          loc = d.loc;
          break;
        }
      error(loc, "dependency cycle: " + text);
      return;
    }
    if (undeclared)
      return;
    // Start order: every service after its dependencies.
    std::map<std::string, size_t> position;
    for (size_t i = 0; i < spec_.services.size(); ++i)
      position.emplace(spec_.services[i].name, i);
    for (size_t i = 0; i < spec_.services.size(); ++i)
      for (const Dependency &d : spec_.services[i].dependsOn)
        if (position[d.name] > i)
          error(spec_.services[i].loc,
                "services are out of dependency order: " + quote(spec_.services[i].name) +
                    " comes before its dependency " + quote(d.name));
  }

  static std::string joinSorted(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &n : names) {
      out += out.empty() ? "" : ", ";
      out += n;
    }
    return out;
  }

  void fault(const Fault &f, const Loc &loc, const std::string &what) {
    switch (f.action) {
    case FaultAction::Deny:
      if (!findErrno(f.errnoName) || findErrno(f.errnoName)->name != f.errnoName)
        error(loc, what + ": unknown errno " + quote(f.errnoName) +
                       "; supported: " + supportedErrnoList());
      else if (findErrno(f.errnoName)->number != f.errnoNumber)
        error(loc, what + ": errno " + quote(f.errnoName) + " carries number " +
                       std::to_string(f.errnoNumber));
      break;
    case FaultAction::Delay:
      if (f.delayNs < 0)
        error(loc, what + ": negative delay");
      break;
    case FaultAction::Allow:
      break;
    }
    if (!(f.probability >= 0 && f.probability <= 1))
      error(loc, what + ": probability must be in [0, 1]");
    if (f.maxFires < 0)
      error(loc, what + ": max_fires must be > 0");
    if (f.maxFires > 0 && f.probability >= 1)
      error(loc, what + ": max_fires= is only meaningful with probability < 1");
    if (f.maxFires > 0 && f.mode != FaultMode::Exhaustive)
      error(loc, what + ": max_fires= requires mode=\"exhaustive\"");
    if (f.mode == FaultMode::Exhaustive && f.maxFires <= 0)
      error(loc, what + ": mode=\"exhaustive\" requires max_fires= > 0");
  }

  void assumptions() {
    std::map<std::string, size_t> seen;
    for (size_t idx = 0; idx < spec_.assumptions.size(); ++idx) {
      const FaultAssumption &a = spec_.assumptions[idx];
      std::string what = "fault assumption " + quote(a.name);
      if (auto [it, fresh] = seen.emplace(a.name, idx); !fresh)
        error(a.loc, "duplicate fault assumption name " + quote(a.name) + " (first declared at " +
                         spec_.assumptions[it->second].loc.str() + ")");
      const Service *target = nullptr;
      if (a.target.valid()) {
        target = spec_.findService(a.target.service);
        if (!target)
          error(a.loc,
                what + " targets " + quote(a.target.service) + ", which is not a declared service");
        else if (!a.target.interface.empty() && !target->findInterface(a.target.interface))
          error(a.loc, what + " targets interface " + quote(a.target.interface) +
                           ", which service " + quote(target->name) + " does not have");
      }
      if (!a.rules.empty() && !a.target.valid())
        error(a.loc, what + " has syscall rules but no target");
      for (const FaultRule &r : a.rules) {
        std::string rw = what + " rule " + quote(r.keyword);
        if (r.syscalls.empty())
          error(r.loc, rw + " covers no syscall");
        if (!r.op.empty()) {
          if (target && !target->findOp(r.op))
            error(r.loc, rw + " names op " + quote(r.op) + ", which the target does not have");
        } else if (!isSyscallName(r.keyword)) {
          error(r.loc, rw + ": " + quote(r.keyword) + " is not a syscall");
        }
        fault(r.fault, r.loc, rw);
      }
      for (const std::string &child : a.faults) {
        auto it = seen.find(child);
        if (it == seen.end() || it->second == idx)
          error(a.loc, what + " composes " + quote(child) +
                           ", which is not a fault assumption declared before it");
      }
    }
  }

  void scenarios() {
    std::set<std::string> seen;
    for (const Scenario &s : spec_.scenarios) {
      if (!seen.insert(s.name).second)
        error(s.loc, "duplicate scenario " + quote(s.name));
      if (s.fn.value.isNull())
        error(s.loc, "scenario " + quote(s.name) + " has no function");
    }
  }

  void expect(const Expect &e, const Loc &loc, const std::string &what) {
    if (e.kind == ExpectKind::Function && e.fn.value.isNull())
      error(loc, what + ": expect has no function");
    if (e.kind == ExpectKind::ErrorWithin && e.withinMs <= 0)
      error(loc, what + ": expect_error_within needs ms > 0");
  }

  void matrices() {
    for (size_t i = 0; i < spec_.matrices.size(); ++i) {
      const Matrix &m = spec_.matrices[i];
      std::string what = "fault_matrix #" + std::to_string(i);
      if (m.index != i)
        error(m.loc, what + " has index " + std::to_string(m.index));
      if (m.scenarios.empty())
        error(m.loc, what + " has no scenarios");
      if (m.faults.empty())
        error(m.loc, what + " has no faults");
      for (const std::string &f : m.faults)
        if (!spec_.findAssumption(f))
          error(m.loc, what + " names fault " + quote(f) + ", which is not a fault assumption");
      auto inMatrix = [&](const MatrixCell &c) {
        bool s = std::any_of(m.scenarios.begin(), m.scenarios.end(),
                             [&](const FunctionRef &f) { return f.name == c.scenario; });
        return s && std::find(m.faults.begin(), m.faults.end(), c.fault) != m.faults.end();
      };
      for (const MatrixOverride &o : m.overrides) {
        if (!inMatrix(o.cell))
          error(o.cell.loc, what + ": override (" + o.cell.scenario + ", " + o.cell.fault +
                                ") is not a cell of the matrix");
        expect(o.expect, o.cell.loc, what);
      }
      for (const MatrixCell &c : m.exclude)
        if (!inMatrix(c))
          error(c.loc, what + ": exclude (" + c.scenario + ", " + c.fault +
                           ") is not a cell of the matrix");
      if (m.defaultExpect)
        expect(*m.defaultExpect, m.loc, what);
    }
  }

  void tests() {
    for (size_t i = 0; i < spec_.tests.size(); ++i) {
      const Test &t = spec_.tests[i];
      std::string what = "test " + quote(t.name);
      if (i > 0 && !(spec_.tests[i - 1].name < t.name))
        error(t.loc, spec_.tests[i - 1].name == t.name
                         ? "duplicate " + what
                         : "tests are not sorted by name: " + what + " follows " +
                               quote(spec_.tests[i - 1].name));
      if (t.name.rfind("test_", 0) != 0)
        error(t.loc, what + ": test names start with \"test_\"");
      if (t.body.value.isNull())
        error(t.loc, what + " has no body");
      for (const std::string &f : t.faults)
        if (!spec_.findAssumption(f))
          error(t.loc, what + " applies " + quote(f) + ", which is not a fault assumption");
      if (t.timeoutNs && *t.timeoutNs <= 0)
        error(t.loc, what + ": timeout must be positive");
      if (t.expect)
        expect(*t.expect, t.loc, what);
      bool isCell = t.kind == TestKind::FaultMatrix;
      if (isCell != t.matrix.has_value())
        error(t.loc, what + (isCell ? " is a matrix cell without a matrix"
                                    : " is not a matrix cell but names a matrix"));
      if (t.matrix) {
        if (*t.matrix >= spec_.matrices.size())
          error(t.loc,
                what + " names matrix #" + std::to_string(*t.matrix) + ", which does not exist");
        else if (t.name != "test_matrix_" + t.cell().scenario + "_" + t.cell().fault)
          error(t.loc, what + " does not match its cell (" + t.cell().scenario + ", " +
                           t.cell().fault + ")");
      }
      if (!isCell && t.kind != TestKind::FaultScenario && !t.faults.empty())
        error(t.loc, what + " of kind " + testKindName(t.kind) + " cannot apply faults");
    }
  }

  void determinism() {
    const Determinism &d = spec_.determinism;
    if (d.level != "L0" && d.level != "L1")
      error(d.loc, "determinism level " + quote(d.level) + " is not L0 or L1");
    if (d.runtime != "default" && d.runtime != "gvisor")
      error(d.loc, "determinism runtime " + quote(d.runtime) + " is not default or gvisor");
    for (const std::string &c : d.allow)
      if (!isDeterminismCategory(c))
        error(d.loc, "unknown determinism allow category " + quote(c));
  }

  const Spec &spec_;
  frontend::DiagnosticList &diags_;
  unsigned errors_ = 0;
};

} // namespace

bool verifySpec(const Spec &spec, frontend::DiagnosticList &diags) {
  return Verifier(spec, diags).run();
}

} // namespace fbc::ir
