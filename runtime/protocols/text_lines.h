// The line-and-words framing the text protocols share (memcached,
// NATS): a command line ends at "\n" (its "\r" dropped), its words are
// separated by runs of separator characters, and the counts in it are
// decimal sizes.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <string_view>
#include <vector>

namespace fbc::rt {

// The next word of `line` at or after `at`, split at runs of any of
// `separators`; `at` moves past it. False when no word is left.
inline bool nextWord(std::string_view line, size_t &at, std::string_view &word,
                     std::string_view separators) {
  size_t start = line.find_first_not_of(separators, std::min(at, line.size()));
  if (start == std::string_view::npos)
    return false;
  size_t end = std::min(line.find_first_of(separators, start), line.size());
  word = line.substr(start, end - start);
  at = end;
  return true;
}

// The words of `line`, split at runs of any of `separators`.
inline std::vector<std::string_view> lineWords(std::string_view line,
                                               std::string_view separators = " ") {
  std::vector<std::string_view> out;
  size_t at = 0;
  std::string_view word;
  while (nextWord(line, at, word, separators))
    out.push_back(word);
  return out;
}

// The first N words of `line` into `out`, without allocating (a codec's
// per-message parse): how many there are, N + 1 when more than N.
template <size_t N>
size_t lineWords(std::string_view line, std::string_view separators,
                 std::array<std::string_view, N> &out) {
  size_t n = 0, at = 0;
  std::string_view word;
  while (n <= N && nextWord(line, at, word, separators))
    if (n++ < N)
      out[n - 1] = word;
  return n;
}

// The first line of `s`: its text without the line end, and the length
// with it; false when no line end arrived yet.
inline bool firstLine(std::string_view s, std::string_view &line, size_t &length) {
  size_t nl = s.find('\n');
  if (nl == std::string_view::npos)
    return false;
  length = nl + 1;
  line = s.substr(0, nl);
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  return true;
}

// A decimal size, the whole of `s`.
inline bool decimalSize(std::string_view s, size_t &out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

} // namespace fbc::rt
