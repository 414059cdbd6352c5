// `fbc exec FILE.star`: run a plain Starlark program in a chosen dialect.
#pragma once

#include <string>
#include <vector>

namespace fbc::tools {

struct ExecOptions {
  std::string file;
  // Dialect features to enable: while, toplevel, globalreassign, recursion.
  std::vector<std::string> allow;
  // "strict" (the default, as specs run) or "full" (every feature on).
  std::string dialect = "strict";
};

// Parses, resolves and runs the file. Diagnostics go to stderr; returns
// the process exit code (0 success, 1 error).
int runExec(const ExecOptions &opts);

} // namespace fbc::tools
