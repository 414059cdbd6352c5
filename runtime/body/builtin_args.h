// Reading the arguments of the body-time builtins.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/eval/value.h"
#include "ir/spec.h"

#include <string>
#include <string_view>

namespace fbc::rt {

// `v` as a string; otherwise fails with "<what> must be a string, got T".
std::string strArg(star::Thread &t, star::Value v, const std::string &what);
// The keyword argument `name`, or null.
star::Value kwarg(const star::Args &args, std::string_view name);
// Where the running builtin was called from (the '(' of the call, as the
// plan records call sites); invalid outside a Starlark file.
ir::Loc callerLoc(star::Thread &t);

} // namespace fbc::rt
