// Levenshtein-based spelling suggestions (see spellcheck.h).
#include "frontend/lib/spellcheck.h"

#include <algorithm>
#include <vector>

namespace fbc::star {

namespace {

// Drops underscores and lower-cases ASCII letters. (Go lower-cases any
// Unicode letter; attribute names are ASCII in practice.)
std::string fold(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '_')
      continue;
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  return out;
}

// Edit distance between byte strings, single-row dynamic programming.
size_t levenshtein(std::string_view x, std::string_view y) {
  if (x.size() > y.size())
    std::swap(x, y);
  std::vector<size_t> row(y.size() + 1);
  for (size_t j = 0; j <= y.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= x.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= y.size(); ++j) {
      size_t substitution = prev + (x[i - 1] != y[j - 1]);
      prev = row[j];
      row[j] = std::min({substitution, row[j - 1] + 1, row[j] + 1});
    }
  }
  return row[y.size()];
}

template <class S> std::string_view nearest(std::string_view name, llvm::ArrayRef<S> candidates) {
  std::string x = fold(name);
  std::string_view best;
  size_t bestDistance = (x.size() + 1) / 2; // allow up to 50% typos
  for (const S &c : candidates) {
    size_t d = levenshtein(x, fold(c));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

} // namespace

std::string_view nearestName(std::string_view name, llvm::ArrayRef<std::string> candidates) {
  return nearest(name, candidates);
}

std::string_view nearestName(std::string_view name, llvm::ArrayRef<std::string_view> candidates) {
  return nearest(name, candidates);
}

} // namespace fbc::star
