// `fbc init [--from-compose FILE] [-o spec.star]`: the flags; the spec is
// written by backend/compose_init.h.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct InitOptions {
  std::string fromCompose;
  std::string output; // "" or "-": stdout
};

void addInitOptions(CLI::App &sub, InitOptions &opts);

// 0; 1 when the Compose file cannot be read or translated, or the output
// exists (never overwritten) or cannot be written.
int runInit(const InitOptions &opts);

} // namespace fbc::tools
