#include "tools/fbc/mcp_command.h"

#include "tools/fbc/mcp/server.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace fbc::tools {

void addMcpOptions(CLI::App &sub, McpOptions &opts) {
  sub.add_option("--bundle-dir", opts.bundleDir,
                 "where run_test writes bundles and whose *.fb are resources (default: "
                 "$FBC_BUNDLE_DIR, else the current folder)");
}

int runMcp(const McpOptions &opts) {
  std::string dir = opts.bundleDir;
  if (dir.empty())
    dir = std::getenv("FBC_BUNDLE_DIR") ? std::getenv("FBC_BUNDLE_DIR") : ".";
  char resolved[PATH_MAX];
  if (!realpath(dir.c_str(), resolved)) {
    std::fprintf(stderr, "fbc mcp: error: bundle folder \"%s\" does not exist\n", dir.c_str());
    return 1;
  }
  return mcp::serve(STDIN_FILENO, STDOUT_FILENO, mcp::ServerOptions{resolved});
}

} // namespace fbc::tools
