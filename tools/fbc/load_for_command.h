// The first step of `fbc ir`, `fbc plan` and `fbc run`: load the spec and
// print its diagnostics (warnings too) to stderr.
#pragma once

#include "ir/load_spec.h"

#include <memory>
#include <string>

namespace fbc::tools {

// The loaded spec, or null when loading or verification failed (the
// diagnostics are printed either way; the command then exits 1).
std::unique_ptr<ir::LoadedSpec> loadSpecForCommand(const std::string &path);

} // namespace fbc::tools
