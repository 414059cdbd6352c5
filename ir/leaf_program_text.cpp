// The leaf program's text form (`fbc ir --stage=leaves`): printed for people
// and parsed back, as LLVM and MLIR test from textual IR. Everything the
// leaf program carries is on a line of its own kind:
//
//   leaves "spec.star"
//   assumption "disk_full"
//     rule service="db" keyword="write" syscalls=pwrite64,write action=deny errno=ENOSPC
//          site_key="db:write" fault="disk_full" rule=spec.star:4:9 at=spec.star:4:3 ...
//   test "test_x" kind=def leaves=4
//     axis 0 probability "wal" size=4 max_fires=2  # spec.star:25:27
//       plan size=4 probability=0.5
//       rule_site rule=spec.star:25:27 at=spec.star:25:10 keyword="fsync" service=1
//     traps "db": fsync, pwrite64
//     traps "db" when axis 0 option=1: openat
//     observes "db": getrandom
//     proxy "db.main"
//     needs container "service \"pg\": ..." @spec.star:3:1
//       need subject="service \"pg\"" what="..."
//     leaf "3" digits=[3]          (a view of one leaf: derived, not parsed)
//   total 4
//
// The body is not in it: a leaf program is read against the loaded spec
// whose tests it names.
#include "ir/leaf_program.h"

#include "frontend/source/source_manager.h"
#include "ir/host_needs.h"
#include "ir/quote.h"
#include "ir/syscalls.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
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

void printTest(llvm::raw_ostream &os, const Spec &spec, const LeafTest &t,
               const LeafPrintOptions &opts, std::optional<uint64_t> leaf) {
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
  for (const LeafTest::OptionTraps &o : t.optionTraps)
    printTraps(os, spec.services[o.service].name,
               " when axis " + std::to_string(o.axis) + " option=" + std::to_string(o.option),
               o.syscalls);
  for (size_t sv = 0; sv < t.proxies.size(); ++sv)
    for (const std::string &iface : t.proxies[sv])
      os << "  proxy " << quote(spec.services[sv].name + "." + iface) << '\n';
  for (const HostNeed &n : t.needs) {
    os << "  needs " << hostFeatureName(n.feature) << ' ' << quote(hostNeedReason(n, ""))
       << n.loc.marker() << '\n';
    os << "    need subject=" << quote(n.subject) << " what=" << quote(n.what)
       << " loc=" << locText(n.loc) << '\n';
  }
  (void)opts;
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
  for (const LoweredAssumption &a : p.assumptions) {
    if (only)
      break;
    os << "\nassumption " << quote(a.name) << '\n';
    for (const LoweredRule &r : a.rules)
      printRule(os, *p.spec, r);
  }
  for (const LeafTest &t : p.tests)
    if (!only || only == &t)
      printTest(os, *p.spec, t, opts, leaf);
  if (!only)
    os << "\ntotal " << p.total.str() << '\n';
  return true;
}

// ------------------------------------------------------------------ parser

namespace {

// One line of the text form, read left to right.
class LineReader {
public:
  LineReader(std::string_view line, size_t lineNo) : s_(line), lineNo_(lineNo) {}

  bool atEnd() {
    skipSpaces();
    return i_ >= s_.size() || s_.substr(i_).starts_with("  #") || s_[i_] == '#';
  }
  // The next word (up to a space, '=' or ':').
  std::string word() {
    skipSpaces();
    size_t b = i_;
    while (i_ < s_.size() && s_[i_] != ' ' && s_[i_] != '=' && s_[i_] != ':')
      ++i_;
    return std::string(s_.substr(b, i_ - b));
  }
  bool eat(char c) {
    skipSpaces();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool eatKey(std::string_view key) {
    skipSpaces();
    if (s_.substr(i_).starts_with(key) && s_.substr(i_ + key.size()).starts_with("=")) {
      i_ += key.size() + 1;
      return true;
    }
    return false;
  }
  bool peekKey(std::string &key) {
    skipSpaces();
    size_t e = s_.find('=', i_);
    size_t sp = s_.find(' ', i_);
    if (e == std::string_view::npos || (sp != std::string_view::npos && sp < e))
      return false;
    key = std::string(s_.substr(i_, e - i_));
    return true;
  }
  std::optional<std::string> quoted() {
    skipSpaces();
    std::string out;
    size_t n = unquote(s_.substr(i_), out);
    if (!n)
      return std::nullopt;
    i_ += n;
    return out;
  }
  // A bare token up to a space, ',' or ']'.
  std::string token() {
    skipSpaces();
    size_t b = i_;
    while (i_ < s_.size() && s_[i_] != ' ' && s_[i_] != ',' && s_[i_] != ']')
      ++i_;
    return std::string(s_.substr(b, i_ - b));
  }
  // The text after "  # " (an axis's location), if any.
  std::string comment() const {
    size_t k = s_.find("  # ");
    return k == std::string_view::npos ? "" : std::string(s_.substr(k + 4));
  }
  std::string_view rest() {
    skipSpaces();
    return s_.substr(i_);
  }
  std::string where() const { return "line " + std::to_string(lineNo_) + ": "; }

private:
  void skipSpaces() {
    while (i_ < s_.size() && s_[i_] == ' ')
      ++i_;
  }
  std::string_view s_;
  size_t i_ = 0;
  size_t lineNo_;
};

template <typename T> bool parseNumber(const std::string &s, T &out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

class Parser {
public:
  Parser(const Spec &spec, const frontend::SourceManager &sources, LeafProgram &out,
         std::string &err)
      : spec_(spec), sources_(sources), out_(out), err_(err) {}

  bool parse(std::string_view text) {
    out_ = LeafProgram();
    out_.spec = &spec_;
    size_t lineNo = 0;
    bool inLeafView = false;
    while (!text.empty()) {
      size_t nl = text.find('\n');
      std::string_view line = text.substr(0, nl);
      text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
      ++lineNo;
      if (line.empty())
        continue;
      LineReader r(line, lineNo);
      // A leaf's view (its digits, values, display) is derived: skipped.
      if (line.starts_with("  leaf ")) {
        inLeafView = true;
        continue;
      }
      if (inLeafView && line.starts_with("    "))
        continue;
      inLeafView = false;
      if (!parseLine(line, r))
        return false;
    }
    if (!sawTotal_)
      return fail("no total line");
    if (!finishTest())
      return false;
    // One leaf test per spec test, in the spec's order (the run indexes
    // them alike).
    for (size_t i = 0; i < spec_.tests.size(); ++i)
      if (i >= out_.tests.size() || out_.tests[i].test != &spec_.tests[i])
        return fail("test " + quote(spec_.tests[i].name) +
                    " is missing or out of the spec's order");
    if (out_.tests.size() > spec_.tests.size())
      return fail("more tests than the spec has");
    return true;
  }

private:
  bool fail(std::string msg) {
    err_ = msg;
    return false;
  }

  bool parseLine(std::string_view line, LineReader &r) {
    if (line.starts_with("leaves "))
      return header(r);
    if (line.starts_with("test "))
      return test(r);
    if (line.starts_with("total "))
      return total(r);
    if (line.starts_with("assumption "))
      return assumption(r);
    if (line.starts_with("  rule "))
      return rule(r);
    if (!cur_)
      return fail(r.where() + "a test's line before its test line");
    if (line.starts_with("  axis "))
      return axis(r);
    if (line.starts_with("    plan "))
      return plan(r);
    if (line.starts_with("    rule_site "))
      return ruleSite(r);
    if (line.starts_with("  traps ") || line.starts_with("  observes "))
      return set(r);
    if (line.starts_with("  proxy "))
      return proxy(r);
    if (line.starts_with("  needs "))
      return needs(r);
    if (line.starts_with("    need "))
      return need(r);
    return fail(r.where() + "unknown line");
  }

  bool assumption(LineReader &r) {
    if (cur_)
      return fail(r.where() + "assumptions come before the tests");
    r.word();
    std::optional<std::string> name = r.quoted();
    if (!name)
      return fail(r.where() + "assumption needs a quoted name");
    bool declared = false;
    for (const FaultAssumption &a : spec_.assumptions)
      declared = declared || a.name == *name;
    if (!declared)
      return fail(r.where() + "no fault_assumption " + quote(*name) + " in the spec");
    out_.assumptions.push_back({*name, {}});
    return true;
  }

  bool rule(LineReader &r) {
    if (cur_ || out_.assumptions.empty())
      return fail(r.where() + "a rule line belongs to an assumption");
    LoweredRule l;
    r.word();
    std::optional<std::string> svc = r.eatKey("service") ? r.quoted() : std::nullopt;
    std::optional<size_t> index = svc ? service(*svc) : std::nullopt;
    if (!index)
      return fail(r.where() + "rule needs service= naming a service of the spec");
    l.service = int(*index);
    std::optional<std::string> keyword = r.eatKey("keyword") ? r.quoted() : std::nullopt;
    if (!keyword || !r.eatKey("syscalls"))
      return fail(r.where() + "rule needs keyword= and syscalls=");
    l.keyword = *keyword;
    std::string names = r.word();
    for (size_t b = 0; b < names.size();) {
      size_t e = names.find(',', b);
      std::string n = names.substr(b, e == std::string::npos ? std::string::npos : e - b);
      int nr = syscallNumber(n);
      if (nr < 0)
        return fail(r.where() + "no syscall " + quote(n) + " on this architecture");
      l.syscalls.push_back(nr);
      b = e == std::string::npos ? names.size() : e + 1;
    }
    std::sort(l.syscalls.begin(), l.syscalls.end());
    std::string key;
    while (!r.atEnd() && r.peekKey(key)) {
      r.eatKey(key);
      bool ok = true;
      if (key == "action") {
        std::string a = r.token();
        ok = false;
        for (FaultAction f : {FaultAction::Deny, FaultAction::Delay, FaultAction::Allow})
          if (a == faultActionName(f)) {
            l.action = f;
            ok = true;
          }
      } else if (key == "errno") {
        const ErrnoInfo *e = findErrno(r.token());
        ok = e != nullptr;
        l.errnoNumber = e ? e->number : 0;
      } else if (key == "delay_ns") {
        ok = parseNumber(r.token(), l.delayNs);
      } else if (key == "probability") {
        l.probability = std::strtod(r.token().c_str(), nullptr);
      } else if (key == "leaf_bits") {
        ok = parseNumber(r.token(), l.leafBits);
      } else if (key == "label" || key == "path" || key == "site_key" || key == "fault" ||
                 key == "site_keyword") {
        std::optional<std::string> v = r.quoted();
        ok = v.has_value();
        std::string &field = key == "label"      ? l.label
                             : key == "path"     ? l.pathGlob
                             : key == "site_key" ? l.siteKey
                             : key == "fault"    ? l.fault
                                                 : l.site.keyword;
        field = v.value_or("");
      } else if (key == "rule" || key == "at") {
        if (!loc(r.token(), key == "rule" ? l.site.rule : l.site.at, r))
          return false;
      } else {
        return fail(r.where() + "unknown rule field " + quote(key));
      }
      if (!ok)
        return fail(r.where() + "bad rule field " + quote(key));
    }
    if (!r.atEnd())
      return fail(r.where() + "unexpected " + quote(r.rest()));
    l.site.service = l.service;
    out_.assumptions.back().rules.push_back(std::move(l));
    return true;
  }

  bool header(LineReader &r) {
    r.word();
    if (!r.quoted())
      return fail(r.where() + "leaves needs the spec's path");
    return true;
  }

  bool test(LineReader &r) {
    if (!finishTest())
      return false;
    r.word();
    std::optional<std::string> name = r.quoted();
    const Test *t = nullptr;
    for (const Test &x : spec_.tests)
      if (name && x.name == *name)
        t = &x;
    if (!t)
      return fail(r.where() + "no test " + quote(name.value_or("")) + " in the spec");
    out_.tests.emplace_back();
    cur_ = &out_.tests.back();
    cur_->test = t;
    size_t services = spec_.services.size();
    cur_->traps.resize(services);
    cur_->observes.resize(services);
    cur_->proxies.resize(services);
    if (!r.eatKey("kind") || r.token() != testKindName(t->kind))
      return fail(r.where() + "test " + quote(t->name) + ": kind is not the spec's");
    if (!r.eatKey("leaves"))
      return fail(r.where() + "test needs leaves=");
    printedCount_ = std::string(r.rest());
    return true;
  }

  // The test's count is its axes' product; the printed one must agree.
  bool finishTest() {
    if (!cur_)
      return true;
    cur_->recount();
    if (cur_->count.str() != printedCount_)
      return fail("test " + quote(cur_->test->name) + ": leaves=" + printedCount_ +
                  " is not the product of its axes (" + cur_->count.str() + ")");
    out_.total += cur_->count;
    cur_ = nullptr;
    return true;
  }

  bool total(LineReader &r) {
    if (!finishTest())
      return false;
    r.word();
    sawTotal_ = true;
    if (std::string(r.rest()) != out_.total.str())
      return fail(r.where() + "total " + std::string(r.rest()) + " is not the sum of the tests' (" +
                  out_.total.str() + ")");
    return true;
  }

  bool loc(const std::string &text, Loc &out, const LineReader &r) {
    out = Loc();
    if (text == "-" || text.empty())
      return true;
    size_t c2 = text.rfind(':');
    size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : text.rfind(':', c2 - 1);
    uint32_t line = 0, col = 0;
    if (c1 == std::string::npos || !parseNumber(text.substr(c1 + 1, c2 - c1 - 1), line) ||
        !parseNumber(text.substr(c2 + 1), col))
      return fail(r.where() + "bad location " + quote(text));
    out.file = sources_.find(text.substr(0, c1));
    if (!out.file)
      return fail(r.where() + "no source file " + quote(text.substr(0, c1)));
    out.pos = {line, col};
    return true;
  }

  bool axis(LineReader &r) {
    r.word();
    size_t index = 0;
    if (!parseNumber(r.word(), index) || index != cur_->axes.size())
      return fail(r.where() + "axes must be numbered in order");
    LeafAxis ax;
    std::string kind = r.word();
    if (kind == "choose")
      ax.plan.kind = AxisKind::Choose;
    else if (kind == "probability")
      ax.plan.kind = AxisKind::Probability;
    else if (kind == "interleaving")
      ax.plan.kind = AxisKind::Interleaving;
    else
      return fail(r.where() + "unknown axis kind " + quote(kind));
    std::optional<std::string> name = r.quoted();
    if (!name)
      return fail(r.where() + "an axis needs a quoted name");
    ax.plan.name = *name;
    if (!r.eatKey("size"))
      return fail(r.where() + "an axis needs size=");
    std::string size = r.token();
    ax.known = size != "unknown";
    if (ax.known && !parseNumber(size, ax.size))
      return fail(r.where() + "bad size " + quote(size));
    if (!ax.known)
      ax.size = 1;
    std::string key;
    while (!r.atEnd() && r.peekKey(key)) {
      r.eatKey(key);
      if (key == "values") {
        if (!r.eat('['))
          return fail(r.where() + "values= needs a list");
        while (!r.eat(']')) {
          std::optional<std::string> v = r.quoted();
          if (!v)
            return fail(r.where() + "values= holds quoted strings");
          ax.plan.values.push_back(*v);
          r.eat(',');
        }
      } else if (key == "max_fires") {
        if (!parseNumber(r.token(), ax.plan.maxFires))
          return fail(r.where() + "bad max_fires=");
      } else if (key == "branches") {
        if (!parseNumber(r.token(), ax.plan.branches))
          return fail(r.where() + "bad branches=");
      } else if (key == "policy") {
        ax.plan.policy = r.token();
      } else {
        return fail(r.where() + "unknown axis field " + quote(key));
      }
    }
    if (!r.atEnd())
      return fail(r.where() + "unexpected " + quote(r.rest()));
    if (!loc(r.comment(), ax.plan.loc, r))
      return false;
    cur_->axes.push_back(std::move(ax));
    return true;
  }

  bool plan(LineReader &r) {
    if (cur_->axes.empty())
      return fail(r.where() + "plan line before any axis");
    PlanAxis &p = cur_->axes.back().plan;
    r.word();
    while (!r.atEnd()) {
      std::string key;
      if (!r.peekKey(key)) {
        std::string flag = r.word();
        if (flag != "named")
          return fail(r.where() + "unknown plan flag " + quote(flag));
        p.named = true;
        continue;
      }
      r.eatKey(key);
      if (key == "size") {
        std::string v = r.token();
        uint64_t n = 0;
        if (v != "none" && !parseNumber(v, n))
          return fail(r.where() + "bad plan size " + quote(v));
        if (v != "none")
          p.size = n;
      } else if (key == "unknown") {
        std::string v = r.token();
        bool found = false;
        for (UnknownReason u : {UnknownReason::ComputedOptions, UnknownReason::ComputedMaxFires,
                                UnknownReason::ComputedBranches, UnknownReason::ComputedPolicy,
                                UnknownReason::TooLarge})
          if (v == unknownReasonName(u)) {
            p.unknown = u;
            found = true;
          }
        if (!found)
          return fail(r.where() + "unknown reason " + quote(v));
      } else if (key == "constants") {
        if (!constants(r, p.constants))
          return false;
      } else if (key == "sites") {
        if (!r.eat('['))
          return fail(r.where() + "sites= needs a list");
        while (!r.eat(']')) {
          Loc l;
          std::string t = r.token();
          if (t.empty())
            return fail(r.where() + "sites= list not closed");
          if (!loc(t, l, r))
            return false;
          p.sites.push_back(l);
          r.eat(',');
        }
      } else if (key == "probability") {
        std::string v = r.token();
        p.probability = std::strtod(v.c_str(), nullptr);
      } else if (key == "fault") {
        std::optional<std::string> v = r.quoted();
        if (!v)
          return fail(r.where() + "fault= needs a quoted name");
        p.fault = *v;
      } else {
        return fail(r.where() + "unknown plan field " + quote(key));
      }
    }
    return true;
  }

  bool constants(LineReader &r, std::vector<OptionConstant> &out) {
    using K = OptionConstant::Kind;
    if (!r.eat('['))
      return fail(r.where() + "constants= needs a list");
    while (!r.eat(']')) {
      OptionConstant c;
      std::string kind = r.token();
      bool ok = !kind.empty();
      if (kind == "opaque") {
        c.kind = K::Opaque;
      } else if (kind == "none") {
        c.kind = K::None;
      } else if (kind == "bool" || kind == "int") {
        c.kind = kind == "bool" ? K::Bool : K::Int;
        ok = parseNumber(r.token(), c.i);
      } else if (kind == "float") {
        c.kind = K::Float;
        c.f = std::strtod(r.token().c_str(), nullptr);
      } else if (kind == "str") {
        c.kind = K::String;
        std::optional<std::string> s = r.quoted();
        ok = s.has_value();
        c.s = s.value_or("");
      } else {
        ok = false;
      }
      if (!ok)
        return fail(r.where() + "bad constant " + quote(kind));
      out.push_back(std::move(c));
      r.eat(',');
    }
    return true;
  }

  bool ruleSite(LineReader &r) {
    if (cur_->axes.empty())
      return fail(r.where() + "rule_site before any axis");
    RuleSite s;
    r.word();
    if (!r.eatKey("rule") || !loc(r.token(), s.rule, r))
      return fail(err_.empty() ? r.where() + "rule_site needs rule=" : err_);
    if (!r.eatKey("at") || !loc(r.token(), s.at, r))
      return fail(err_.empty() ? r.where() + "rule_site needs at=" : err_);
    std::optional<std::string> kw = r.eatKey("keyword") ? r.quoted() : std::nullopt;
    if (!kw || !r.eatKey("service") || !parseNumber(r.token(), s.service))
      return fail(r.where() + "rule_site needs keyword= and service=");
    s.keyword = *kw;
    cur_->axes.back().plan.ruleSites.push_back(std::move(s));
    return true;
  }

  std::optional<size_t> service(const std::string &name) const {
    for (size_t s = 0; s < spec_.services.size(); ++s)
      if (spec_.services[s].name == name)
        return s;
    return std::nullopt;
  }

  bool set(LineReader &r) {
    std::string what = r.word();
    std::optional<std::string> name = r.quoted();
    std::optional<size_t> sv = name ? service(*name) : std::nullopt;
    if (!sv)
      return fail(r.where() + "no service " + quote(name.value_or("")));
    std::optional<LeafTest::OptionTraps> option;
    if (r.word() == "when") {
      if (what != "traps")
        return fail(r.where() + "only traps take a when clause");
      option.emplace();
      option->service = *sv;
      if (!parseNumber(r.word(), option->axis) || !r.eatKey("option") ||
          !parseNumber(r.word(), option->option))
        return fail(r.where() + "when axis N option=K");
    }
    if (!r.eat(':'))
      return fail(r.where() + "a set's names follow a ':'");
    // Names are separated by ", " (an observed entry may hold a ',' of its
    // own: open[/dev/random,/dev/urandom]).
    std::vector<std::string> names;
    for (std::string_view rest = r.rest(); !rest.empty();) {
      size_t k = rest.find(", ");
      names.emplace_back(rest.substr(0, k));
      rest = k == std::string_view::npos ? std::string_view() : rest.substr(k + 2);
    }
    if (names.empty())
      return fail(r.where() + "a set holds syscall names");
    if (what == "observes") {
      cur_->observes[*sv] = names;
      return true;
    }
    std::vector<int> nrs;
    for (const std::string &n : names) {
      int nr = syscallNumber(n);
      if (nr < 0 && !n.starts_with("syscall_"))
        return fail(r.where() + "no syscall " + quote(n) + " on this architecture");
      if (nr < 0 && !parseNumber(n.substr(8), nr))
        return fail(r.where() + "bad syscall " + quote(n));
      nrs.push_back(nr);
    }
    std::sort(nrs.begin(), nrs.end());
    if (option) {
      option->syscalls = std::move(nrs);
      cur_->optionTraps.push_back(std::move(*option));
    } else {
      cur_->traps[*sv] = std::move(nrs);
    }
    return true;
  }

  bool proxy(LineReader &r) {
    r.word();
    std::optional<std::string> name = r.quoted();
    size_t dot = name ? name->rfind('.') : std::string::npos;
    std::optional<size_t> sv =
        dot == std::string::npos ? std::nullopt : service(name->substr(0, dot));
    if (!sv)
      return fail(r.where() + "proxy needs \"service.interface\" of the spec");
    cur_->proxies[*sv].push_back(name->substr(dot + 1));
    return true;
  }

  bool needs(LineReader &r) {
    r.word();
    // The feature's name may hold spaces ("container runtime"): up to the
    // quoted reason.
    std::string_view rest = r.rest();
    std::string feature(rest.substr(0, rest.find(" \"")));
    HostNeed n;
    bool found = false;
    for (HostFeature f : {HostFeature::ContainerRuntime, HostFeature::Gvisor, HostFeature::Unbuilt})
      if (feature == hostFeatureName(f)) {
        n.feature = f;
        found = true;
      }
    if (!found)
      return fail(r.where() + "unknown host feature " + quote(feature));
    cur_->needs.push_back(std::move(n));
    return true;
  }

  bool need(LineReader &r) {
    if (cur_->needs.empty())
      return fail(r.where() + "need before its needs line");
    HostNeed &n = cur_->needs.back();
    r.word();
    std::optional<std::string> subject = r.eatKey("subject") ? r.quoted() : std::nullopt;
    std::optional<std::string> what = r.eatKey("what") ? r.quoted() : std::nullopt;
    if (!subject || !what || !r.eatKey("loc"))
      return fail(r.where() + "need subject= what= loc=");
    n.subject = *subject;
    n.what = *what;
    return loc(r.token(), n.loc, r);
  }

  const Spec &spec_;
  const frontend::SourceManager &sources_;
  LeafProgram &out_;
  std::string &err_;
  LeafTest *cur_ = nullptr;
  std::string printedCount_;
  bool sawTotal_ = false;
};

// ------------------------------------------------------------ difference

std::string locDiff(const Loc &a, const Loc &b) {
  return locText(a) == locText(b) ? "" : locText(a) + " vs " + locText(b);
}

std::string axisDifference(const LeafAxis &x, const LeafAxis &y) {
  const PlanAxis &a = x.plan, &b = y.plan;
  auto field = [](const char *name, bool same) { return same ? std::string() : std::string(name); };
  std::string d;
  auto add = [&](std::string s) {
    if (!s.empty() && d.empty())
      d = s;
  };
  add(field("kind", a.kind == b.kind));
  add(field("name", a.name == b.name));
  add(field("size", x.size == y.size && x.known == y.known));
  add(field("plan size", a.size == b.size && a.unknown == b.unknown));
  add(field("loc", locDiff(a.loc, b.loc).empty()));
  add(field("values", a.values == b.values));
  add(field("constants", a.constants == b.constants && a.named == b.named));
  add(field("max_fires", a.maxFires == b.maxFires));
  add(field("probability", a.probability == b.probability && a.fault == b.fault));
  add(field("branches/policy", a.branches == b.branches && a.policy == b.policy));
  bool sites = a.sites.size() == b.sites.size();
  for (size_t i = 0; sites && i < a.sites.size(); ++i)
    sites = locDiff(a.sites[i], b.sites[i]).empty();
  add(field("sites", sites));
  bool rules = a.ruleSites.size() == b.ruleSites.size();
  for (size_t i = 0; rules && i < a.ruleSites.size(); ++i) {
    const RuleSite &r = a.ruleSites[i], &s = b.ruleSites[i];
    rules = locDiff(r.rule, s.rule).empty() && locDiff(r.at, s.at).empty() &&
            r.keyword == s.keyword && r.service == s.service;
  }
  add(field("rule sites", rules));
  return d;
}

} // namespace

bool parseLeafProgramText(std::string_view text, const Spec &spec,
                          const frontend::SourceManager &sources, LeafProgram &out,
                          std::string &err) {
  return Parser(spec, sources, out, err).parse(text);
}

bool readLeafProgramFile(const std::string &path, const Spec &spec,
                         const frontend::SourceManager &sources, LeafProgram &out,
                         std::string &err) {
  constexpr uintmax_t kMaxBytes = 64u << 20;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) ||
      std::filesystem::file_size(path, ec) > kMaxBytes) {
    err = path + ": not a regular file of at most 64 MiB";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    err = path + ": cannot be read";
    return false;
  }
  if (!parseLeafProgramText(text, spec, sources, out, err)) {
    err = path + ": " + err;
    return false;
  }
  return true;
}

std::string leafProgramDifference(const LeafProgram &a, const LeafProgram &b) {
  if (a.assumptions.size() != b.assumptions.size())
    return "assumption count";
  for (size_t i = 0; i < a.assumptions.size(); ++i) {
    const LoweredAssumption &x = a.assumptions[i], &y = b.assumptions[i];
    std::string where = "assumption " + quote(x.name) + ": ";
    if (x.name != y.name || x.rules.size() != y.rules.size())
      return where + "name or rule count";
    for (size_t k = 0; k < x.rules.size(); ++k) {
      const LoweredRule &r = x.rules[k], &s = y.rules[k];
      bool same =
          r.service == s.service && r.keyword == s.keyword && r.syscalls == s.syscalls &&
          r.action == s.action && r.errnoNumber == s.errnoNumber && r.delayNs == s.delayNs &&
          r.probability == s.probability && r.leafBits == s.leafBits && r.label == s.label &&
          r.pathGlob == s.pathGlob && r.siteKey == s.siteKey && r.fault == s.fault &&
          locDiff(r.site.rule, s.site.rule).empty() && locDiff(r.site.at, s.site.at).empty() &&
          r.site.keyword == s.site.keyword && r.site.service == s.site.service;
      if (!same)
        return where + "rule " + std::to_string(k);
    }
  }
  if (a.tests.size() != b.tests.size())
    return std::to_string(a.tests.size()) + " tests vs " + std::to_string(b.tests.size());
  if (a.total.str() != b.total.str())
    return "total " + a.total.str() + " vs " + b.total.str();
  for (size_t i = 0; i < a.tests.size(); ++i) {
    const LeafTest &x = a.tests[i], &y = b.tests[i];
    std::string t = "test " + quote(x.test ? x.test->name : "?") + ": ";
    if (x.test != y.test)
      return t + "another test";
    if (x.axes.size() != y.axes.size())
      return t + "axis count";
    for (size_t k = 0; k < x.axes.size(); ++k)
      if (std::string d = axisDifference(x.axes[k], y.axes[k]); !d.empty())
        return t + "axis " + std::to_string(k) + " " + d;
    if (x.count.str() != y.count.str())
      return t + "count";
    if (x.traps != y.traps)
      return t + "traps";
    if (x.optionTraps.size() != y.optionTraps.size())
      return t + "option traps";
    for (size_t k = 0; k < x.optionTraps.size(); ++k) {
      const LeafTest::OptionTraps &o = x.optionTraps[k], &p = y.optionTraps[k];
      if (o.axis != p.axis || o.option != p.option || o.service != p.service ||
          o.syscalls != p.syscalls)
        return t + "option traps " + std::to_string(k);
    }
    if (x.observes != y.observes)
      return t + "observes";
    if (x.proxies != y.proxies)
      return t + "proxies";
    if (x.needs.size() != y.needs.size())
      return t + "needs";
    for (size_t k = 0; k < x.needs.size(); ++k)
      if (!(x.needs[k] == y.needs[k]) || !locDiff(x.needs[k].loc, y.needs[k].loc).empty())
        return t + "need " + std::to_string(k);
  }
  return "";
}

bool samePlanAxis(const PlanAxis &a, const PlanAxis &b) {
  LeafAxis x, y;
  x.plan = a;
  y.plan = b;
  return axisDifference(x, y).empty();
}

} // namespace fbc::ir
