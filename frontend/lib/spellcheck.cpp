// Edit-distance spelling suggestions (see spellcheck.h).
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

// Edit distance between byte strings: insertions, deletions, substitutions
// and transpositions of two adjacent bytes each count 1 (the optimal string
// alignment distance; Go's spell package counts a swap as 2, so "sned" was
// 2 edits from "send" and too far for a 4-letter name). Three rolling rows.
size_t editDistance(std::string_view x, std::string_view y) {
  if (x.size() > y.size())
    std::swap(x, y);
  std::vector<size_t> before(y.size() + 1), prev(y.size() + 1), row(y.size() + 1);
  for (size_t j = 0; j <= y.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= x.size(); ++i) {
    std::swap(before, prev);
    std::swap(prev, row);
    row[0] = i;
    for (size_t j = 1; j <= y.size(); ++j) {
      size_t d = std::min({prev[j - 1] + (x[i - 1] != y[j - 1]), row[j - 1] + 1, prev[j] + 1});
      if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
        d = std::min(d, before[j - 2] + 1);
      row[j] = d;
    }
  }
  return row[y.size()];
}

template <class S> std::string_view nearest(std::string_view name, llvm::ArrayRef<S> candidates) {
  std::string x = fold(name);
  std::string_view best;
  size_t bestDistance = (x.size() + 1) / 2; // allow up to 50% typos
  for (const S &c : candidates) {
    size_t d = editDistance(x, fold(c));
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

std::string noFieldMessage(std::string_view type, std::string_view name,
                           llvm::ArrayRef<std::string> names) {
  std::string msg = std::string(type) + " has no ." + std::string(name) + " field or method";
  std::string_view suggestion = nearestName(name, names);
  if (!suggestion.empty())
    msg += " (did you mean ." + std::string(suggestion) + "?)";
  return msg;
}

} // namespace fbc::star
