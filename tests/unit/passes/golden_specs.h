// Every .star file under the golden folders and examples/ (sorted): the
// specs the whole-corpus unit tests walk (leaf invariant, shards).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fbc::testing {

inline std::vector<std::string> goldenSpecs() {
  std::vector<std::string> out;
  for (const char *dir : {FBC_GOLDEN_DIR, FBC_EXAMPLES_DIR})
    for (const auto &e : std::filesystem::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".star")
        out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace fbc::testing
