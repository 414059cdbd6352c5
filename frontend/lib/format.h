// String formatting: the `%` operator (Go's interpolate). str.format is a
// string method (stringMethods()).
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/value.h"

#include <string_view>

namespace fbc::star {

// format % args. `args` is a tuple (one element per conversion), a mapping
// for %(name)s conversions, or any single value. Conversions: %s %r %d %i
// %o %x %X %e %f %g %E %F %G %c %%, without flags, width or precision.
// Errors use Go's wording ("not enough arguments for format string").
Value formatPercent(Thread &t, std::string_view format, Value args);

// `v` appended as %s / {} converts it (a string as it is, anything else as
// str() prints it; repr: as repr() prints it, strings quoted): the `s` and
// `r` conversions of both `%` and str.format.
void appendConverted(std::string &out, Value v, bool repr);

} // namespace fbc::star
