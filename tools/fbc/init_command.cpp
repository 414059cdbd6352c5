#include "tools/fbc/init_command.h"

#include "backend/compose_init.h"
#include "bundle/archive.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fbc::tools {

void addInitOptions(CLI::App &sub, InitOptions &opts) {
  sub.add_option("--from-compose", opts.fromCompose,
                 "translate a docker-compose.yml: one service per Compose service");
  sub.add_option("-o,--output", opts.output, "write the spec here (default: stdout)");
}

int runInit(const InitOptions &opts) {
  std::string spec;
  if (opts.fromCompose.empty()) {
    spec = backend::starterSpec();
  } else {
    std::ifstream in(opts.fromCompose, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fbc init: error: cannot read %s\n", opts.fromCompose.c_str());
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    llvm::Expected<std::string> out = backend::specFromCompose(opts.fromCompose, text.str());
    if (!out) {
      std::fprintf(stderr, "fbc init: error: %s\n", llvm::toString(out.takeError()).c_str());
      return 1;
    }
    spec = std::move(*out);
  }
  if (opts.output.empty() || opts.output == "-") {
    std::fwrite(spec.data(), 1, spec.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  std::error_code ec;
  if (std::filesystem::exists(opts.output, ec)) {
    std::fprintf(stderr, "fbc init: error: %s exists; not overwriting it\n", opts.output.c_str());
    return 1;
  }
  if (llvm::Error err = bundle::writeFileAtomic(opts.output, spec, 0644)) {
    std::fprintf(stderr, "fbc init: error: %s\n", llvm::toString(std::move(err)).c_str());
    return 1;
  }
  std::fprintf(stderr, "Wrote %s\n", opts.output.c_str());
  return 0;
}

} // namespace fbc::tools
