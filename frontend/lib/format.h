// String formatting: the `%` operator (Go's interpolate). str.format is a
// string method (stringMethods()).
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/eval/value.h"

#include <string_view>

namespace fbc::star {

// format % args. `args` is a tuple (one element per conversion), a mapping
// for %(name)s conversions, or any single value. Conversions: %s %r %d %i
// %o %x %X %e %f %g %E %F %G %c %%, without flags, width or precision.
// Errors use Go's wording ("not enough arguments for format string").
Value formatPercent(Thread &t, std::string_view format, Value args);

} // namespace fbc::star
