// `fbc ir SPEC [--format=text|json]`: load a spec, verify its IR, print it.
#pragma once

#include <string>

namespace fbc::tools {

struct IrOptions {
  std::string spec;
  std::string format = "text"; // text | json
};

// Returns the process exit code: 0, or 1 on any load or validation error
// (diagnostics on stderr, nothing on stdout).
int runIr(const IrOptions &opts);

} // namespace fbc::tools
