// `fbc inspect BUNDLE [FILE] [--extract DIR] [--format=text|json]`: a
// bundle's summary, one entry's bytes, or all entries extracted. The logic
// lives in bundle/inspect.h; docs/bundle.md is the user doc.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct InspectOptions {
  std::string bundle;
  std::string file;            // print this entry's bytes
  std::string extract;         // --extract DIR
  std::string format = "text"; // text | json (the summary)
};

void addInspectOptions(CLI::App &sub, InspectOptions &opts);

// 0, or 1 with "fbc inspect: error: ..." on stderr (an unreadable or
// hostile bundle, a missing entry, a failed extraction).
int runInspect(const InspectOptions &opts);

} // namespace fbc::tools
