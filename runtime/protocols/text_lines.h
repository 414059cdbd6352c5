// The line-and-words framing the text protocols share (memcached,
// NATS): a command line ends at "\n" (its "\r" dropped), its words are
// separated by runs of separator characters, and the counts in it are
// decimal sizes.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <string_view>
#include <vector>

namespace fbc::rt {

// The words of `line`, split at runs of any of `separators`.
inline std::vector<std::string_view> lineWords(std::string_view line,
                                               std::string_view separators = " ") {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < line.size()) {
    size_t start = line.find_first_not_of(separators, at);
    if (start == std::string_view::npos)
      break;
    size_t end = std::min(line.find_first_of(separators, start), line.size());
    out.push_back(line.substr(start, end - start));
    at = end;
  }
  return out;
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
