// Reading the arguments of the body-time builtins.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/value.h"
#include "ir/spec.h"

#include <string>
#include <string_view>

namespace fbc::rt {

// A body-time builtin or a step called with arguments it does not take: a
// mistake of the body, not the service's, so an error row with its code
// located at the call (ir::builtins::failMistake), not a fail. A keyword it
// does not take is UNKNOWN_KEYWORD; a missing, extra, doubled or ill-typed
// argument, or a value it rejects, BAD_ARGUMENT (BAD_DURATION for a
// duration that does not parse).
[[noreturn]] void failUnknownKeyword(star::Thread &t, std::string msg);
[[noreturn]] void failBadArgument(star::Thread &t, std::string msg);
[[noreturn]] void failBadDuration(star::Thread &t, std::string msg);
// `v` as a string; otherwise failBadArgument("<what> must be a string, got T").
std::string strArg(star::Thread &t, star::Value v, const std::string &what);
// The keyword argument `name`, or null.
star::Value kwarg(const star::Args &args, std::string_view name);
// Where the running builtin was called from (the '(' of the call, as the
// plan records call sites); invalid outside a Starlark file.
ir::Loc callerLoc(star::Thread &t);
// `msg` after callerLoc(), as a body error shows it.
std::string atCaller(star::Thread &t, const std::string &msg);

} // namespace fbc::rt
