// The leaf program's text form (`fbc ir --stage=leaves`): printed for people
// and parsed back (leaf_program_parse.cpp), as LLVM and MLIR test from textual IR. Everything the
// leaf program carries is on a line of its own kind:
//
//   leaves "spec.star"
//   assumption "disk_full"
//     rule service="db" keyword="write" syscalls=pwrite64,write action=deny errno=ENOSPC
//          site_key="db:write" fault="disk_full" rule=spec.star:4:9 at=spec.star:4:3 ...
//     proxy_rule service="db" interface="main" action=error target="select * from t*"
//          site_key="db.main:error" fault="slow" index=0 rule=... at=...  # error(...)
//   test "test_x" kind=def leaves=4
//     axis 0 probability "wal" size=4 max_fires=2  # spec.star:25:27
//       plan size=4 probability=0.5
//       rule_site rule=spec.star:25:27 at=spec.star:25:10 keyword="fsync" service=1
//     traps "db": fsync, pwrite64
//     traps "db" when axis 0 option=1: openat
//     observes "db": getrandom
//     proxy "db.main"
//     call_rule service="db" keyword="write" syscalls=pwrite64,write at=spec.star:30:10 ...
//     needs container "service \"pg\": ..." @spec.star:3:1
//       need subject="service \"pg\"" what="..."
//     leaf "3" digits=[3]          (a view of one leaf: derived, not parsed)
//   total 4
//
// The body is not in it: a leaf program is read against the loaded spec
// whose tests it names.
#include "ir/leaf_program.h"

#include "ir/host_needs.h"
#include "ir/quote.h"
#include "ir/syscalls.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace fbc::ir {

namespace {

std::string locText(const Loc &l) {
  return l.valid() ? l.str() : "-";
}

std::string doubleText(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

std::string constantText(const OptionConstant &c) {
  using K = OptionConstant::Kind;
  switch (c.kind) {
  case K::Opaque:
    return "opaque";
  case K::None:
    return "none";
  case K::Bool:
    return c.i ? "bool 1" : "bool 0";
  case K::Int:
    return "int " + std::to_string(c.i);
  case K::Float:
    return "float " + doubleText(c.f);
  case K::String:
    return "str " + quote(c.s);
  }
  return "opaque";
}

template <typename T, typename F>
void printList(llvm::raw_ostream &os, const std::vector<T> &items, F &&text) {
  os << '[';
  for (size_t i = 0; i < items.size(); ++i)
    os << (i ? ", " : "") << text(items[i]);
  os << ']';
}

void printAxis(llvm::raw_ostream &os, size_t i, const LeafAxis &ax) {
  const PlanAxis &p = ax.plan;
  os << "  axis " << i << ' ' << axisKindName(ax.kind()) << ' ' << quote(ax.name()) << " size=";
  if (ax.known)
    os << ax.size;
  else
    os << "unknown";
  if (ax.kind() == AxisKind::Choose && !p.values.empty()) {
    os << " values=";
    printList(os, p.values, [](const std::string &v) { return quote(v); });
  }
  if (ax.kind() == AxisKind::Probability && p.maxFires)
    os << " max_fires=" << p.maxFires;
  if (ax.kind() == AxisKind::Interleaving) {
    if (p.branches)
      os << " branches=" << p.branches;
    if (!p.policy.empty())
      os << " policy=" << p.policy;
    if (p.fanOut != FanOut::Parallel)
      os << " fan_out=" << fanOutName(p.fanOut);
    if (p.waitsFor)
      os << " waits_for=" << p.waitsFor;
  }
  if (p.loc.valid())
    os << "  # " << p.loc.str();
  os << '\n';
  // What the line above leaves out, for the parser.
  os << "    plan size=" << (p.size ? std::to_string(*p.size) : "none");
  if (p.unknown != UnknownReason::None)
    os << " unknown=" << unknownReasonName(p.unknown);
  if (p.named)
    os << " named";
  if (!p.constants.empty()) {
    os << " constants=";
    printList(os, p.constants, constantText);
  }
  if (!p.sites.empty()) {
    os << " sites=";
    printList(os, p.sites, locText);
  }
  if (p.probability)
    os << " probability=" << doubleText(*p.probability);
  if (!p.fault.empty())
    os << " fault=" << quote(p.fault);
  os << '\n';
  for (const RuleSite &s : p.ruleSites)
    os << "    rule_site rule=" << locText(s.rule) << " at=" << locText(s.at)
       << " keyword=" << quote(s.keyword) << " service=" << s.service << '\n';
}

void printAssignment(llvm::raw_ostream &os, const LeafTest &t, const LeafAssignment &a) {
  os << "  leaf " << quote(a.id()) << " digits=[";
  for (size_t i = 0; i < a.digits.size(); ++i)
    os << (i ? ", " : "") << a.digits[i];
  os << "]\n";
  for (size_t i = 0; i < t.axes.size(); ++i) {
    const LeafAxis &ax = t.axes[i];
    uint64_t d = a.digits[i];
    os << "    " << axisKindName(ax.kind()) << ' ' << quote(ax.name());
    switch (ax.kind()) {
    case AxisKind::Choose:
      os << " option=" << d;
      if (d < ax.plan.values.size())
        os << " value=" << quote(ax.plan.values[d]);
      break;
    case AxisKind::Probability:
      os << " fires=" << fireBits(probabilityVector(d, ax.plan.maxFires));
      break;
    case AxisKind::Interleaving: {
      os << " ordering=" << d;
      if (ax.plan.branches) {
        os << " launch=[";
        std::vector<uint32_t> order = launchOrder(d, ax.plan.branches);
        for (size_t k = 0; k < order.size(); ++k)
          os << (k ? ", " : "") << order[k];
        os << ']';
      }
      break;
    }
    }
    os << '\n';
  }
  os << "    display " << quote(leafDisplayName(t.test->name, a.id(), leafAxesLabel(t, a))) << '\n';
}

// `  traps "db": pwrite64, write, ...`: one service's set by name, sorted.
void printSet(llvm::raw_ostream &os, const char *what, const std::string &service,
              const std::string &when, const std::vector<std::string> &names) {
  if (names.empty())
    return;
  os << "  " << what << ' ' << quote(service) << when << ':';
  for (size_t k = 0; k < names.size(); ++k)
    os << (k ? ", " : " ") << names[k];
  os << '\n';
}

// A trap set by name, sorted by name (the numbers differ between
// architectures, the names do not).
void printTraps(llvm::raw_ostream &os, const std::string &service, const std::string &when,
                const std::vector<int> &nrs) {
  std::vector<std::string> names;
  for (int nr : nrs)
    names.push_back(syscallNameOf(nr));
  std::sort(names.begin(), names.end());
  printSet(os, "traps", service, when, names);
}

// `  rule service="db" keyword="write" syscalls=pwrite64,write action=deny
// errno=EIO ... fault="disk_full" rule=spec.star:4:9 at=spec.star:4:3 site_keyword="write"`:
// one lowered rule, defaults left out.
void printRule(llvm::raw_ostream &os, const Spec &spec, const LoweredRule &r) {
  os << "  rule service=" << quote(spec.services[size_t(r.service)].name)
     << " keyword=" << quote(r.keyword) << " syscalls=";
  for (size_t k = 0; k < r.syscalls.size(); ++k)
    os << (k ? "," : "") << syscallNameOf(r.syscalls[k]);
  os << " action=" << faultActionName(r.action);
  if (r.action == FaultAction::Deny) {
    const ErrnoInfo *e = findErrnoNumber(r.errnoNumber);
    os << " errno=" << (e ? std::string(e->name) : std::to_string(r.errnoNumber));
  }
  if (r.action == FaultAction::Delay)
    os << " delay_ns=" << r.delayNs;
  if (r.probability != 1)
    os << " probability=" << doubleText(r.probability);
  if (r.leafBits)
    os << " leaf_bits=" << r.leafBits;
  if (!r.label.empty())
    os << " label=" << quote(r.label);
  if (!r.pathGlob.empty())
    os << " path=" << quote(r.pathGlob);
  os << " site_key=" << quote(r.siteKey);
  if (!r.fault.empty())
    os << " fault=" << quote(r.fault);
  os << " rule=" << locText(r.site.rule) << " at=" << locText(r.site.at)
     << " site_keyword=" << quote(r.site.keyword) << '\n';
}

// `  call_rule service="db" keyword="fsync" syscalls=fdatasync,fsync
// label="persist" path="/data/*" at=spec.star:12:10 site_keyword="persist"`:
// one rule of a body fault() call's keyword, without the fault's value.
void printCallRule(llvm::raw_ostream &os, const Spec &spec, const LoweredRule &r) {
  os << "  call_rule service=" << quote(spec.services[size_t(r.service)].name)
     << " keyword=" << quote(r.keyword) << " syscalls=";
  for (size_t k = 0; k < r.syscalls.size(); ++k)
    os << (k ? "," : "") << syscallNameOf(r.syscalls[k]);
  if (!r.label.empty())
    os << " label=" << quote(r.label);
  if (!r.pathGlob.empty())
    os << " path=" << quote(r.pathGlob);
  os << " at=" << locText(r.site.at) << " site_keyword=" << quote(r.site.keyword) << '\n';
}

// The rule as written follows as a comment, for the reader (the parser
// finds it in the spec: fault='s rules=[index]).
void printProxyRule(llvm::raw_ostream &os, const Spec &spec, const LoweredProxyRule &r) {
  os << "  proxy_rule service=" << quote(spec.services[size_t(r.service)].name)
     << " interface=" << quote(r.interface) << " action=" << proxyActionName(r.source->action)
     << " target=" << quote(r.target);
  if (r.leafBits)
    os << " leaf_bits=" << r.leafBits;
  os << " site_key=" << quote(r.siteKey);
  if (!r.fault.empty())
    os << " fault=" << quote(r.fault);
  os << " index=" << r.index << " rule=" << locText(r.site.rule) << " at=" << locText(r.site.at)
     << "  # " << r.source->display() << '\n';
}

void printTest(llvm::raw_ostream &os, const Spec &spec, const LeafTest &t,
               std::optional<uint64_t> leaf) {
  os << "\ntest " << quote(t.test->name) << " kind=" << testKindName(t.test->kind)
     << " leaves=" << t.count.str() << '\n';
  for (size_t i = 0; i < t.axes.size(); ++i)
    printAxis(os, i, t.axes[i]);
  // Per service: what its filter traps, then what it only observes; then
  // what the leaves taking one choose() option trap on top.
  for (size_t sv = 0; sv < t.traps.size(); ++sv) {
    printTraps(os, spec.services[sv].name, "", t.traps[sv]);
    if (sv < t.observes.size())
      printSet(os, "observes", spec.services[sv].name, "", t.observes[sv]);
  }
  if (t.dpor) {
    os << "  dpor";
    if (t.dpor->preemptions)
      os << " preemptions=" << *t.dpor->preemptions;
    os << '\n';
  }
  for (size_t sv = 0; sv < t.holds.size(); ++sv)
    if (!t.holds[sv].empty()) {
      std::vector<std::string> names;
      for (int nr : t.holds[sv])
        names.push_back(syscallNameOf(nr));
      std::sort(names.begin(), names.end());
      printSet(os, "holds", spec.services[sv].name, "", names);
    }
  for (const LeafTest::OptionTraps &o : t.optionTraps)
    printTraps(os, spec.services[o.service].name,
               " when axis " + std::to_string(o.axis) + " option=" + std::to_string(o.option),
               o.syscalls);
  for (size_t sv = 0; sv < t.proxies.size(); ++sv)
    for (const std::string &iface : t.proxies[sv])
      os << "  proxy " << quote(spec.services[sv].name + "." + iface) << '\n';
  for (const LoweredRule &r : t.callRules)
    printCallRule(os, spec, r);
  for (const HostNeed &n : t.needs) {
    os << "  needs " << hostFeatureName(n.feature) << ' ' << quote(hostNeedReason(n, ""))
       << n.loc.marker() << '\n';
    os << "    need subject=" << quote(n.subject) << " what=" << quote(n.what)
       << " loc=" << locText(n.loc) << '\n';
  }
  if (!t.fansOut())
    return; // one leaf, the run's single-leaf row (no leaf id)
  uint64_t index = leaf ? *leaf : t.count.value - 1;
  if (index < t.count.value)
    printAssignment(os, t, t.decode(index));
  else
    os << "  leaf " << quote(std::to_string(*leaf)) << " none\n";
}

} // namespace

bool printLeafProgramText(const LeafProgram &p, const LeafPrintOptions &opts, llvm::raw_ostream &os,
                          std::string &err) {
  std::optional<uint64_t> leaf;
  if (opts.leaf) {
    const std::string &s = *opts.leaf;
    bool ok = !s.empty() && s.size() <= 19 && (s == "0" || s[0] != '0') &&
              std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!ok) {
      err = "leaf id " + quote(s) + " is not a leaf index (\"0\" .. \"N-1\")";
      return false;
    }
    leaf = std::stoull(s);
  }
  const LeafTest *only = nullptr;
  if (!opts.test.empty()) {
    only = p.find(opts.test);
    if (!only) {
      err = "no test named " + quote(opts.test);
      return false;
    }
    if (leaf && *leaf >= only->count.value) {
      err = "test " + quote(opts.test) + " has " + only->count.str() + " leaves; no leaf " +
            quote(*opts.leaf);
      return false;
    }
  }
  os << "leaves " << quote(p.spec ? p.spec->path : "") << '\n';
  bool dpor = std::any_of(p.tests.begin(), p.tests.end(),
                          [](const LeafTest &t) { return t.dpor.has_value(); });
  if (p.explore.policy != ExploreOptions::Policy::None || dpor)
    os << "explore " << explorePolicyName(p.explore.policy) << " budget=" << p.explore.budget
       << " settle_ns=" << p.explore.settleNs << " quiet_bound_ns=" << p.explore.quietBoundNs
       << '\n';
  for (const LoweredAssumption &a : p.assumptions) {
    if (only)
      break;
    os << "\nassumption " << quote(a.name) << '\n';
    for (const LoweredRule &r : a.rules)
      printRule(os, *p.spec, r);
    for (const LoweredProxyRule &r : a.proxyRules)
      printProxyRule(os, *p.spec, r);
  }
  for (const LeafTest &t : p.tests)
    if (!only || only == &t)
      printTest(os, *p.spec, t, leaf);
  if (!only)
    os << "\ntotal " << p.total.str() << '\n';
  return true;
}

} // namespace fbc::ir
