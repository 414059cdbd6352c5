// What supervisor_e2e_test.cpp and supervisor_lifecycle_e2e_test.cpp share.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace fbc::rt::e2e {

// Joins pieces with append: GCC 12 reports a false -Wrestrict on
// `"literal" + std::string`.
inline std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts)
    out += p;
  return out;
}

} // namespace fbc::rt::e2e
