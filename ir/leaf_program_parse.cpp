// The leaf program's text form read back (ir/leaf_program_print.cpp writes
// it; the format is described there): line by line, against the loaded spec
// whose tests, services and source files it names.
#include "ir/leaf_program_parse_impl.h"

#include "ir/quote.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace fbc::ir {
namespace leaf_text {

bool LeafTextParser::parse(std::string_view text) {
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
      return fail("test " + quote(spec_.tests[i].name) + " is missing or out of the spec's order");
  if (out_.tests.size() > spec_.tests.size())
    return fail("more tests than the spec has");
  return true;
}

bool LeafTextParser::parseLine(std::string_view line, LineReader &r) {
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
  if (line.starts_with("  proxy_rule "))
    return proxyRule(r);
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
  if (line.starts_with("  call_rule "))
    return callRule(r);
  if (line == "  dpor" || line.starts_with("  dpor "))
    return dpor(r);
  if (line.starts_with("  needs "))
    return needs(r);
  if (line.starts_with("    need "))
    return need(r);
  return fail(r.where() + "unknown line");
}

// explore all budget=N settle_ns=N quiet_bound_ns=N
bool LeafTextParser::explore(LineReader &r) {
  if (cur_ || explore_)
    return fail(r.where() + "one explore line, before the tests");
  explore_ = true;
  r.word();
  std::string policy = r.word();
  bool known = false;
  for (auto p :
       {ExploreOptions::Policy::None, ExploreOptions::Policy::All, ExploreOptions::Policy::Sample})
    if (policy == explorePolicyName(p)) {
      out_.explore.policy = p;
      known = true;
    }
  if (!known)
    return fail(r.where() + "explore policy is none, all or sample, not " + quote(policy));
  if (!r.eatKey("budget") || !parseNumber(r.word(), out_.explore.budget) ||
      out_.explore.budget == 0 || !r.eatKey("settle_ns") ||
      !parseNumber(r.word(), out_.explore.settleNs) || out_.explore.settleNs < 0 ||
      !r.eatKey("quiet_bound_ns") || !parseNumber(r.word(), out_.explore.quietBoundNs) ||
      out_.explore.quietBoundNs <= 0 || !r.atEnd())
    return fail(r.where() + "explore POLICY budget=N settle_ns=N quiet_bound_ns=N");
  return true;
}

// dpor [preemptions=N]
bool LeafTextParser::dpor(LineReader &r) {
  if (cur_->dpor)
    return fail(r.where() + "one dpor line per test");
  if (!explore_)
    return fail(r.where() + "dpor without an explore line");
  r.word();
  LeafTest::Dpor d;
  if (!r.atEnd()) {
    uint32_t n = 0;
    if (!r.eatKey("preemptions") || !parseNumber(r.word(), n) || !r.atEnd())
      return fail(r.where() + "dpor [preemptions=N]");
    d.preemptions = n;
  }
  cur_->dpor = d;
  return true;
}

bool LeafTextParser::header(LineReader &r) {
  r.word();
  if (!r.quoted())
    return fail(r.where() + "leaves needs the spec's path");
  return true;
}

bool LeafTextParser::test(LineReader &r) {
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
bool LeafTextParser::finishTest() {
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

bool LeafTextParser::total(LineReader &r) {
  if (!finishTest())
    return false;
  r.word();
  sawTotal_ = true;
  if (std::string(r.rest()) != out_.total.str())
    return fail(r.where() + "total " + std::string(r.rest()) + " is not the sum of the tests' (" +
                out_.total.str() + ")");
  return true;
}

bool LeafTextParser::loc(const std::string &text, Loc &out, const LineReader &r) {
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

bool LeafTextParser::axis(LineReader &r) {
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
    } else if (key == "fan_out") {
      std::string f = r.token();
      std::optional<FanOut> fan = fanOutOf(f);
      if (!fan)
        return fail(r.where() + "bad fan_out " + quote(f));
      ax.plan.fanOut = *fan;
    } else if (key == "waits_for") {
      if (!parseNumber(r.token(), ax.plan.waitsFor))
        return fail(r.where() + "bad waits_for=");
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

bool LeafTextParser::plan(LineReader &r) {
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

bool LeafTextParser::constants(LineReader &r, std::vector<OptionConstant> &out) {
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

} // namespace leaf_text

bool parseLeafProgramText(std::string_view text, const Spec &spec,
                          const frontend::SourceManager &sources, LeafProgram &out,
                          std::string &err) {
  return leaf_text::LeafTextParser(spec, sources, out, err).parse(text);
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
