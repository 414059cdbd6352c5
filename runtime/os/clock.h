// The one clock the runtime measures with (CLOCK_MONOTONIC, in ns), and the
// saturating deadline arithmetic every wait uses: a deadline for the longest
// accepted delay, --timeout or sleep() must not wrap into the past.
#pragma once

#include <cstdint>

namespace fbc::rt {

int64_t monotonicNs();
// monotonicNs() + ns, saturating at INT64_MAX.
int64_t deadlineAfter(int64_t ns);
int64_t addSaturating(int64_t a, int64_t b);

} // namespace fbc::rt
