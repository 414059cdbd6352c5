// The leaf program's text reader: its line reader and parser class, shared
// by its halves (leaf_program_parse.cpp: the header, tests, axes, plans
// and explore lines; leaf_program_parse_rules.cpp: assumptions, rules,
// rule sets, proxy rules and host needs). Internal to ir/; the interface
// is parseLeafProgramText / readLeafProgramFile in leaf_program.h.
#pragma once

#include "ir/leaf_program.h"

#include "frontend/source/source_manager.h"
#include "ir/quote.h"

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace fbc::ir::leaf_text {

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

class LeafTextParser {
public:
  LeafTextParser(const Spec &spec, const frontend::SourceManager &sources, LeafProgram &out,
                 std::string &err)
      : spec_(spec), sources_(sources), out_(out), err_(err) {}

  bool parse(std::string_view text);

private:
  bool fail(std::string msg) {
    err_ = msg;
    return false;
  }

  bool parseLine(std::string_view line, LineReader &r);

  bool assumption(LineReader &r);

  bool rule(LineReader &r);
  bool ruleFields(LineReader &r, LoweredRule &l);
  bool callRule(LineReader &r);

  // proxy_rule service="s" interface="i" action=A target="t" [leaf_bits=N]
  // site_key="k" fault="f" index=I rule=LOC at=LOC: the rule itself is the
  // spec's (fault f's rules=[I], written at LOC).
  bool proxyRule(LineReader &r);

  // explore all budget=N settle_ns=N quiet_bound_ns=N
  bool explore(LineReader &r);
  // dpor [preemptions=N]
  bool dpor(LineReader &r);

  bool header(LineReader &r);

  bool test(LineReader &r);

  // The test's count is its axes' product; the printed one must agree.
  bool finishTest();

  bool total(LineReader &r);

  bool loc(const std::string &text, Loc &out, const LineReader &r);

  bool axis(LineReader &r);

  bool plan(LineReader &r);

  bool constants(LineReader &r, std::vector<OptionConstant> &out);

  bool ruleSite(LineReader &r);

  std::optional<size_t> service(const std::string &name) const;

  bool set(LineReader &r);

  bool proxy(LineReader &r);

  bool needs(LineReader &r);

  bool need(LineReader &r);

  const Spec &spec_;
  const frontend::SourceManager &sources_;
  LeafProgram &out_;
  std::string &err_;
  LeafTest *cur_ = nullptr;
  bool explore_ = false; // an explore line was read
  std::string printedCount_;
  bool sawTotal_ = false;
};

} // namespace fbc::ir::leaf_text
