#include "runtime/mock/mock_route.h"

#include <llvm/ADT/StringRef.h>

#include <fnmatch.h>

#include <string>
#include <vector>

namespace fbc::rt {

namespace {

// Go's path.Match within one string: '*' and '?' do not cross '/'.
bool glob(const std::string &pattern, const std::string &s) {
  return fnmatch(pattern.c_str(), s.c_str(), FNM_PATHNAME) == 0;
}

std::vector<std::string> segments(std::string_view p) {
  while (!p.empty() && p.front() == '/')
    p.remove_prefix(1);
  while (!p.empty() && p.back() == '/')
    p.remove_suffix(1);
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t slash = p.find('/', start);
    out.emplace_back(p.substr(start, slash == std::string_view::npos ? p.npos : slash - start));
    if (slash == std::string_view::npos)
      return out;
    start = slash + 1;
  }
}

bool matchSegments(const std::vector<std::string> &pat, size_t i, const std::vector<std::string> &s,
                   size_t j) {
  if (i == pat.size())
    return j == s.size();
  if (pat[i] == "**") {
    for (size_t k = j; k <= s.size(); ++k)
      if (matchSegments(pat, i + 1, s, k))
        return true;
    return false;
  }
  if (j == s.size())
    return false;
  if (pat[i] == "*" || pat[i] == s[j] || glob(pat[i], s[j]))
    return matchSegments(pat, i + 1, s, j + 1);
  return false;
}

} // namespace

bool mockRouteMatches(std::string_view pattern, std::string_view method, std::string_view path) {
  size_t sp = pattern.find(' ');
  if (sp == std::string_view::npos)
    return false;
  std::string_view m = pattern.substr(0, sp), p = pattern.substr(sp + 1);
  if (m != "*" && !llvm::StringRef(m).equals_insensitive(method))
    return false;
  if (p.find('*') == std::string_view::npos)
    return p == path || glob(std::string(p), std::string(path));
  return matchSegments(segments(p), 0, segments(path), 0);
}

} // namespace fbc::rt
