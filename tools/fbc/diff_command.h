// `fbc diff A.fb B.fb [--normalize] [--format=text|json]`: the flags; the
// comparison is bundle/diff.h.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct DiffOptions {
  std::string a, b;
  bool normalize = false;
  std::string format = "text";
};

void addDiffOptions(CLI::App &sub, DiffOptions &opts);

// 0: no row changed outcome or trace; 1: some did; 2: a bundle cannot be
// read, or a bad flag.
int runDiff(const DiffOptions &opts);

} // namespace fbc::tools
