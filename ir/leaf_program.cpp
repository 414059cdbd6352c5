#include "ir/leaf_program.h"

#include "ir/host_needs.h"

#include "ir/quote.h"
#include "ir/syscalls.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>

namespace fbc::ir {

LeafAssignment LeafTest::decode(uint64_t index) const {
  LeafAssignment a;
  a.index = index;
  uint64_t rem = index;
  a.digits.reserve(axes.size());
  for (const LeafAxis &ax : axes) {
    uint64_t size = std::max<uint64_t>(1, ax.size);
    a.digits.push_back(rem % size);
    rem /= size;
  }
  return a;
}

std::vector<std::vector<int>> LeafTest::trapsFor(const LeafAssignment &a) const {
  std::vector<std::vector<int>> out = traps;
  for (const OptionTraps &o : optionTraps) {
    if (o.axis >= a.digits.size() || a.digits[o.axis] != o.option || o.service >= out.size())
      continue;
    std::vector<int> &set = out[o.service];
    set.insert(set.end(), o.syscalls.begin(), o.syscalls.end());
    std::sort(set.begin(), set.end());
  }
  return out;
}

bool LeafAxis::isSite(const Loc &loc) const {
  for (const Loc &s : plan->sites)
    if (sameLoc(s, loc))
      return true;
  return false;
}

int LeafTest::findAxis(AxisKind kind, const Loc &loc) const {
  for (size_t a = 0; a < axes.size(); ++a)
    if (axes[a].kind() == kind && axes[a].isSite(loc))
      return int(a);
  return -1;
}

int LeafTest::findAxis(const RuleSite &site) const {
  // A site planned for its own service before one planned for any service.
  int any = -1;
  for (size_t a = 0; a < axes.size(); ++a)
    if (axes[a].kind() == AxisKind::Probability)
      for (const RuleSite &s : axes[a].plan->ruleSites)
        if (ruleSiteMatches(s, site)) {
          if (s.service >= 0)
            return int(a);
          if (any < 0)
            any = int(a);
        }
  return any;
}

void LeafTest::resize(size_t axis, uint64_t size) {
  axes[axis].size = std::max<uint64_t>(1, size);
  axes[axis].known = true;
  recount();
}

void LeafTest::recount() {
  count = Count{1, true};
  for (const LeafAxis &ax : axes)
    count *= Count{std::max<uint64_t>(1, ax.size), ax.known};
}

const LeafTest *LeafProgram::find(std::string_view testName) const {
  for (const LeafTest &t : tests)
    if (t.test->name == testName)
      return &t;
  return nullptr;
}

std::vector<bool> probabilityVector(uint64_t digit, int64_t maxFires) {
  std::vector<bool> v(size_t(std::max<int64_t>(0, maxFires)));
  for (size_t k = 0; k < v.size(); ++k)
    v[k] = k < 64 && ((digit >> k) & 1);
  return v;
}

std::vector<uint32_t> launchOrder(uint64_t k, uint32_t n) {
  std::vector<uint32_t> pool(n), out;
  for (uint32_t i = 0; i < n; ++i)
    pool[i] = i;
  // factorials up to 20! fit 64 bits; beyond that the leading digits are 0.
  std::vector<uint64_t> fact(n + 1, 1);
  bool overflow = false;
  for (uint32_t i = 1; i <= n; ++i) {
    if (fact[i - 1] > UINT64_MAX / i)
      overflow = true;
    fact[i] = overflow ? UINT64_MAX : fact[i - 1] * i;
  }
  if (!overflow && k >= fact[n])
    return pool;
  for (uint32_t i = n; i > 0; --i) {
    uint64_t f = fact[i - 1];
    uint64_t d = f == UINT64_MAX ? 0 : k / f;
    if (f != UINT64_MAX)
      k %= f;
    out.push_back(pool[d]);
    pool.erase(pool.begin() + d);
  }
  return out;
}

namespace {

std::string bits(const std::vector<bool> &v) {
  std::string s;
  for (bool b : v)
    s += b ? '1' : '0';
  return s;
}

std::string basename(const std::string &s) {
  size_t slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

} // namespace

std::string leafLabel(const LeafFields &f) {
  std::string out;
  auto add = [&](const std::string &part) { out += (out.empty() ? "" : ", ") + part; };
  for (const auto &[k, d] : f.choices)
    add(k + "=" + std::to_string(d));
  for (const auto &[k, v] : f.probability)
    add(k + "[" + bits(v) + "]");
  for (const auto &[k, d] : f.interleavings)
    add(basename(k) + "#" + std::to_string(d));
  return out;
}

std::string leafAxesLabel(const LeafTest &t, const LeafAssignment &a) {
  LeafFields f;
  for (size_t i = 0; i < t.axes.size(); ++i) {
    const LeafAxis &ax = t.axes[i];
    uint64_t d = i < a.digits.size() ? a.digits[i] : 0;
    switch (ax.kind()) {
    case AxisKind::Choose:
      f.choices.emplace(ax.name(), d);
      break;
    case AxisKind::Probability:
      f.probability.emplace(ax.name(), probabilityVector(d, ax.plan->maxFires));
      break;
    case AxisKind::Interleaving:
      f.interleavings.emplace(ax.name(), d);
      break;
    }
  }
  return leafLabel(f);
}

std::string leafDisplayName(const std::string &test, const std::string &id,
                            const std::string &label) {
  return test + " [leaf " + id + (label.empty() ? "" : " \u2014 " + label) + "]";
}

namespace {

void printAxis(llvm::raw_ostream &os, size_t i, const LeafAxis &ax) {
  os << "  axis " << i << ' ' << axisKindName(ax.kind()) << ' ' << quote(ax.name()) << " size=";
  if (ax.known)
    os << ax.size;
  else
    os << "unknown";
  if (ax.kind() == AxisKind::Choose && !ax.plan->values.empty()) {
    os << " values=[";
    for (size_t k = 0; k < ax.plan->values.size(); ++k)
      os << (k ? ", " : "") << quote(ax.plan->values[k]);
    os << ']';
  }
  if (ax.kind() == AxisKind::Probability && ax.plan->maxFires)
    os << " max_fires=" << ax.plan->maxFires;
  if (ax.kind() == AxisKind::Interleaving) {
    if (ax.plan->branches)
      os << " branches=" << ax.plan->branches;
    if (!ax.plan->policy.empty())
      os << " policy=" << ax.plan->policy;
  }
  if (ax.plan->loc.valid())
    os << "  # " << ax.plan->loc.str();
  os << '\n';
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
      if (d < ax.plan->values.size())
        os << " value=" << quote(ax.plan->values[d]);
      break;
    case AxisKind::Probability:
      os << " fires=" << bits(probabilityVector(d, ax.plan->maxFires));
      break;
    case AxisKind::Interleaving: {
      os << " ordering=" << d;
      if (ax.plan->branches) {
        os << " launch=[";
        std::vector<uint32_t> order = launchOrder(d, ax.plan->branches);
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

} // namespace

namespace {

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
  for (const LeafTest &t : p.tests) {
    if (only && only != &t)
      continue;
    os << "\ntest " << quote(t.test->name) << " kind=" << testKindName(t.test->kind)
       << " leaves=" << t.count.str() << '\n';
    for (size_t i = 0; i < t.axes.size(); ++i)
      printAxis(os, i, t.axes[i]);
    // Per service: what its filter traps, then what it only observes; then
    // what the leaves taking one choose() option trap on top.
    for (size_t sv = 0; opts.traps && sv < t.traps.size(); ++sv) {
      printTraps(os, p.spec->services[sv].name, "", t.traps[sv]);
      if (sv < t.observes.size())
        printSet(os, "observes", p.spec->services[sv].name, "", t.observes[sv]);
    }
    for (const LeafTest::OptionTraps &o : t.optionTraps)
      if (opts.traps)
        printTraps(os, p.spec->services[o.service].name,
                   " when axis " + std::to_string(o.axis) + " option=" + std::to_string(o.option),
                   o.syscalls);
    for (size_t sv = 0; opts.traps && sv < t.proxies.size(); ++sv)
      for (const std::string &iface : t.proxies[sv])
        os << "  proxy " << quote(p.spec->services[sv].name + "." + iface) << '\n';
    for (const HostNeed &n : t.needs)
      os << "  needs " << hostFeatureName(n.feature) << ' ' << quote(hostNeedReason(n, ""))
         << n.loc.marker() << '\n';
    if (!t.fansOut())
      continue; // one leaf, the run's single-leaf row (no leaf id)
    uint64_t index = leaf ? *leaf : t.count.value - 1;
    if (index < t.count.value)
      printAssignment(os, t, t.decode(index));
    else
      os << "  leaf " << quote(*opts.leaf) << " none\n";
  }
  if (!only)
    os << "\ntotal " << p.total.str() << '\n';
  return true;
}

} // namespace fbc::ir
