// `fbc check`: its options and entry point. The checks are backend/check.h;
// this file parses the flags, loads the spec and prints. docs/check.md is
// the user doc.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct CheckOptions {
  std::string spec;
  std::string format = "text";
  bool strict = false;
  int64_t maxInstances = -1; // < 0: no cost gate
};

void addCheckOptions(CLI::App &sub, CheckOptions &opts);

// 0: no error finding (warnings allowed unless --strict); 1: the spec does
// not load, a finding is an error, or bad flags.
int runCheck(const CheckOptions &opts);

} // namespace fbc::tools
