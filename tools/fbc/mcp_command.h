// `fbc mcp [--bundle-dir DIR]`: the Model Context Protocol server on stdio
// (tools/fbc/mcp/server.h; docs/mcp.md).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct McpOptions {
  std::string bundleDir; // "" = $FBC_BUNDLE_DIR, else the current folder
};

void addMcpOptions(CLI::App &sub, McpOptions &opts);
int runMcp(const McpOptions &opts);

} // namespace fbc::tools
