// The leaf program's text form read back (ir/leaf_program_print.cpp writes
// it; the format is described there): line by line, against the loaded spec
// whose tests, services and source files it names.
#include "ir/leaf_program.h"

#include "frontend/source/source_manager.h"
#include "ir/host_needs.h"
#include "ir/quote.h"
#include "ir/syscalls.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

namespace fbc::ir {

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
    if (line.starts_with("explore "))
      return explore(r);
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
    if (line.starts_with("  traps ") || line.starts_with("  observes ") ||
        line.starts_with("  holds "))
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
        ok = parseNumber(r.token(), l.probability);
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

  // explore all budget=N settle_ns=N quiet_bound_ns=N
  bool explore(LineReader &r) {
    if (cur_ || out_.explore.policy != ExploreOptions::Policy::None)
      return fail(r.where() + "one explore line, before the tests");
    r.word();
    std::string policy = r.word();
    for (auto p : {ExploreOptions::Policy::All, ExploreOptions::Policy::Sample})
      if (policy == explorePolicyName(p))
        out_.explore.policy = p;
    if (out_.explore.policy == ExploreOptions::Policy::None)
      return fail(r.where() + "explore policy is all or sample, not " + quote(policy));
    if (!r.eatKey("budget") || !parseNumber(r.word(), out_.explore.budget) ||
        out_.explore.budget == 0 || !r.eatKey("settle_ns") ||
        !parseNumber(r.word(), out_.explore.settleNs) || out_.explore.settleNs < 0 ||
        !r.eatKey("quiet_bound_ns") || !parseNumber(r.word(), out_.explore.quietBoundNs) ||
        out_.explore.quietBoundNs <= 0 || !r.atEnd())
      return fail(r.where() + "explore POLICY budget=N settle_ns=N quiet_bound_ns=N");
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
    cur_->holds.resize(services);
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
        double v = 0;
        if (!parseNumber(r.token(), v))
          return fail(r.where() + "bad probability=");
        p.probability = v;
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
        ok = parseNumber(r.token(), c.f);
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
    if (what == "holds" && out_.explore.policy == ExploreOptions::Policy::None)
      return fail(r.where() + "holds without an explore line");
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
    } else if (what == "holds") {
      cur_->holds[*sv] = std::move(nrs);
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

} // namespace fbc::ir
