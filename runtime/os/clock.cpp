#include "runtime/os/clock.h"

#include <time.h>

namespace fbc::rt {

int64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t addSaturating(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

int64_t deadlineAfter(int64_t ns) {
  return addSaturating(monotonicNs(), ns);
}

} // namespace fbc::rt
