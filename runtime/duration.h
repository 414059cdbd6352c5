// Durations in nanoseconds, printed as Go's time.Duration.String() does
// ("500ms", "1.5s", "1m30s"), because the reference's `delay(...)` trace
// decisions use that form.
#pragma once

#include <cstdint>
#include <string>

namespace fbc::rt {

std::string formatGoDuration(int64_t ns);

} // namespace fbc::rt
