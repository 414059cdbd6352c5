// The fbc command line. Kept out of main() so tests can drive it in-process.
#pragma once

namespace fbc::tools {

// Parses argv, runs the subcommand and returns the process exit code.
int runFbc(int argc, char **argv);

} // namespace fbc::tools
