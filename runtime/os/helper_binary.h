// The helper executables the build puts next to fbc's own (fbc-shim,
// fbc-kafka-mock): fbc finds them there, not on PATH, so that a build tree
// and an installed fbc each use their own.
#pragma once

#include <string>
#include <string_view>

namespace fbc::rt {

// Where `name` must be: in the directory of fbc's executable.
std::string helperBinaryPath(std::string_view name);

// helperBinaryPath(name) when it is there and executable, else "" with
// `error` ("<needed> need <name> next to fbc (<path>): it is built with
// fbc") when it is not there or not executable. `needed` says what wants
// it ("syscall rules inside a container").
std::string helperBinary(std::string_view name, std::string_view needed, std::string &error);

} // namespace fbc::rt
