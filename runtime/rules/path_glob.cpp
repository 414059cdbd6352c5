#include "runtime/rules/path_glob.h"

#include <re2/re2.h>

namespace fbc::rt {

namespace {

// The class `[...]` (or `[!...]`, `[^...]`) at g[i] as a re2 class that
// never matches '/', appended to `out`; `i` moves past it. False when the
// class is not closed (the glob matches nothing).
bool bracketClass(std::string_view g, size_t &i, std::string &out) {
  size_t j = i + 1;
  bool negated = j < g.size() && (g[j] == '!' || g[j] == '^');
  if (negated)
    ++j;
  std::string cls;
  bool first = true;
  while (j < g.size() && (g[j] != ']' || first)) {
    char k = g[j];
    if (k == '\\' && j + 1 < g.size())
      k = g[++j];
    else if (k == '-' && !first && j + 1 < g.size() && g[j + 1] != ']') {
      cls += '-';
      ++j;
      first = false;
      continue;
    }
    // Everything else is literal inside the class: escape what re2 reads.
    if (k == '\\' || k == ']' || k == '[' || k == '^' || k == '-')
      cls += '\\';
    cls += k;
    ++j;
    first = false;
  }
  if (j >= g.size())
    return false;
  out += negated ? "[^/" : "[";
  out += cls;
  out += ']';
  i = j + 1;
  return true;
}

} // namespace

std::string globToRegex(std::string_view g, bool &never) {
  never = false;
  std::string out;
  size_t i = 0;
  while (i < g.size()) {
    char c = g[i];
    if (c == '*' && i + 1 < g.size() && g[i + 1] == '*') {
      bool afterSlash = i == 0 || g[i - 1] == '/';
      bool beforeSlash = i + 2 < g.size() && g[i + 2] == '/';
      bool atEnd = i + 2 == g.size();
      if (afterSlash && beforeSlash) {
        out += "(?:.*/)?"; // a/**/b: zero or more whole segments
        i += 3;
      } else if (afterSlash && atEnd && i > 0) {
        out.pop_back(); // drop the '/' already emitted: /data/** matches /data
        out += "(?:/.*)?";
        i += 2;
      } else {
        out += ".*";
        i += 2;
      }
      continue;
    }
    switch (c) {
    case '*':
      out += "[^/]*";
      ++i;
      continue;
    case '?':
      out += "[^/]";
      ++i;
      continue;
    case '\\':
      if (i + 1 == g.size()) {
        never = true;
        return out;
      }
      out += RE2::QuoteMeta(g.substr(i + 1, 1));
      i += 2;
      continue;
    case '[':
      if (!bracketClass(g, i, out)) {
        never = true;
        return out;
      }
      continue;
    case '/':
      out += '/'; // unescaped, so a following `**` can take it back
      ++i;
      continue;
    default:
      out += RE2::QuoteMeta(g.substr(i, 1));
      ++i;
    }
  }
  return out;
}

PathGlob::PathGlob(std::string glob) : glob_(std::move(glob)) {
  if (glob_.empty())
    return;
  std::string re = globToRegex(glob_, never_);
  if (!never_) {
    RE2::Options opts;
    opts.set_log_errors(false);
    re_ = std::make_unique<RE2>(re, opts);
  }
}

PathGlob::PathGlob(PathGlob &&) noexcept = default;
PathGlob &PathGlob::operator=(PathGlob &&) noexcept = default;
PathGlob::~PathGlob() = default;

bool PathGlob::ok(std::string *error) const {
  if (re_ && !re_->ok()) {
    if (error)
      *error = "bad path glob \"" + glob_ + "\": " + re_->error();
    return false;
  }
  return true;
}

bool PathGlob::matches(std::string_view path) const {
  if (glob_.empty())
    return true;
  if (never_ || !re_ || !re_->ok())
    return false;
  if (RE2::FullMatch(path, *re_))
    return true;
  // The reference's directory fallback: `/data/*/` matches `/data/a/f`.
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos)
    return false;
  return RE2::FullMatch(path.substr(0, slash + 1), *re_);
}

} // namespace fbc::rt
