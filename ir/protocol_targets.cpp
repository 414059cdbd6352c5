// The rule-target normalisers: see protocol_targets.h.
#include "ir/protocol_targets.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace fbc::ir {
namespace {

bool isIdentStart(unsigned char c) {
  return std::isalpha(c) || c == '_' || c >= 0x80;
}
bool isIdentChar(unsigned char c) {
  return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}
bool isOpChar(char c, bool pattern) {
  if (c == '*')
    return !pattern;
  return std::string_view("+-/<>=~!@#%^&|`").find(c) != std::string_view::npos;
}

// Skips a literal starting at `i` (a quote char): '...' with '' escapes,
// and backslash escapes when `backslash` (E'...').
size_t skipQuoted(std::string_view s, size_t i, bool backslash) {
  char q = s[i++];
  while (i < s.size()) {
    if (backslash && s[i] == '\\') {
      i += 2;
      continue;
    }
    if (s[i] == q) {
      if (i + 1 < s.size() && s[i + 1] == q) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    ++i;
  }
  return s.size();
}

std::string normalize(std::string_view s, bool pattern) {
  std::vector<std::string> toks;
  int params = 0;
  auto param = [&] {
    toks.emplace_back(1, '$'); // (appended: GCC 12's -Wrestrict misfires on "$" + string)
    toks.back() += std::to_string(++params);
  };
  size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      ++i;
    } else if (s.substr(i, 2) == "--") {
      while (i < n && s[i] != '\n')
        ++i;
    } else if (s.substr(i, 2) == "/*") {
      int depth = 0; // comments nest in PostgreSQL
      do {
        if (s.substr(i, 2) == "/*")
          ++depth, i += 2;
        else if (s.substr(i, 2) == "*/")
          --depth, i += 2;
        else
          ++i;
      } while (i < n && depth > 0);
    } else if (c == '\'') {
      i = skipQuoted(s, i, false);
      param();
    } else if (c == '"') {
      size_t end = skipQuoted(s, i, false);
      toks.emplace_back(s.substr(i, end - i));
      i = end;
    } else if (c == '$' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      for (++i; i < n && std::isdigit(static_cast<unsigned char>(s[i]));)
        ++i;
      param();
    } else if (c == '$') { // $tag$ ... $tag$
      size_t close = s.find('$', i + 1);
      std::string_view tag = close == std::string_view::npos ? "" : s.substr(i, close - i + 1);
      size_t end = tag.empty() ? std::string_view::npos : s.find(tag, close + 1);
      i = end == std::string_view::npos ? n : end + tag.size();
      param();
    } else if (c == '?') {
      ++i;
      param();
    } else if (std::isdigit(c) ||
               (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                       ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      param();
    } else if (isIdentStart(c) || (pattern && c == '*')) {
      size_t start = i;
      while (i < n && (isIdentChar(static_cast<unsigned char>(s[i])) || (pattern && s[i] == '*')))
        ++i;
      std::string word(s.substr(start, i - start));
      for (char &ch : word)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      // E'..', B'..', X'..', N'..': a literal with a one-letter prefix.
      if (i < n && s[i] == '\'' && (word == "e" || word == "b" || word == "x" || word == "n")) {
        i = skipQuoted(s, i, word == "e");
        param();
      } else {
        toks.push_back(std::move(word));
      }
    } else if (s.substr(i, 2) == "::") {
      toks.emplace_back("::");
      i += 2;
    } else if (isOpChar(s[i], pattern)) {
      size_t start = i;
      while (i < n && isOpChar(s[i], pattern) && s.substr(i, 2) != "--" && s.substr(i, 2) != "/*")
        ++i;
      toks.emplace_back(s.substr(start, i - start));
    } else {
      toks.emplace_back(1, s[i++]);
    }
  }
  while (!toks.empty() && toks.back() == ";")
    toks.pop_back();
  std::string out;
  for (size_t k = 0; k < toks.size(); ++k) {
    const std::string &t = toks[k];
    // A call's parenthesis stays on its name: "count(*)", "in($1, $2)".
    bool call = t == "(" && k > 0 &&
                (isIdentStart(static_cast<unsigned char>(toks[k - 1][0])) || toks[k - 1][0] == '"');
    bool tight = k == 0 || call || t == "," || t == ")" || t == ";" || t == "." || t == "::" ||
                 t == "]" || toks[k - 1] == "(" || toks[k - 1] == "." || toks[k - 1] == "::" ||
                 toks[k - 1] == "[";
    if (!tight)
      out += ' ';
    out += t;
  }
  return out;
}

} // namespace

std::string sqlNormalizeQuery(std::string_view sql) {
  return normalize(sql, false);
}

std::string sqlNormalizePattern(std::string_view pattern) {
  return normalize(pattern, true);
}

std::string natsSubjectPattern(std::string_view pattern) {
  std::string out(pattern);
  if (out == ">")
    return "*";
  if (out.size() >= 2 && out.ends_with(".>"))
    out.back() = '*';
  return out;
}

std::string amqpRoutingKeyPattern(std::string_view pattern) {
  std::string out(pattern);
  std::replace(out.begin(), out.end(), '#', '*');
  return out;
}

} // namespace fbc::ir
