// `fbc mcp`: a Model Context Protocol server over stdio (docs/mcp.md).
// JSON-RPC 2.0, one message per line on stdin and stdout: initialize, ping,
// tools/list, tools/call (tools.h), resources/list, resources/read,
// resources/templates/list (run bundles), notifications/cancelled. A
// tools/call runs on its own thread, so the server keeps answering (ping,
// cancellation) during a long run; malformed input gets a JSON-RPC error,
// never a crash.
#pragma once

#include <string>

namespace fbc::tools::mcp {

struct ServerOptions {
  std::string bundleDir; // run_test's bundles; resources/list lists its *.fb
};

// Serves until `inFd` ends and every call in flight has answered; 0.
int serve(int inFd, int outFd, const ServerOptions &opts);

// The protocol versions served, newest first (initialize answers the
// client's when it is one of them, else the newest).
extern const char *const kProtocolVersions[4];

} // namespace fbc::tools::mcp
