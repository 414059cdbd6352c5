#include "runtime/duration.h"

namespace fbc::rt {
namespace {

// Appends v's last `prec` decimal digits as a fraction (".5"), trailing zeros
// dropped, and returns v with those digits removed.
uint64_t appendFrac(std::string &out, uint64_t v, int prec) {
  std::string digits;
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    int d = static_cast<int>(v % 10);
    print = print || d != 0;
    if (print)
      digits.insert(digits.begin(), static_cast<char>('0' + d));
    v /= 10;
  }
  if (print)
    out += "." + digits;
  return v;
}

} // namespace

std::string formatGoDuration(int64_t ns) {
  if (ns == 0)
    return "0s";
  bool neg = ns < 0;
  uint64_t u = neg ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  std::string out;
  if (u < 1000000000ULL) {
    int prec;
    const char *unit;
    if (u < 1000ULL) {
      prec = 0;
      unit = "ns";
    } else if (u < 1000000ULL) {
      prec = 3;
      unit = "µs";
    } else {
      prec = 6;
      unit = "ms";
    }
    std::string frac;
    uint64_t whole = appendFrac(frac, u, prec);
    out = std::to_string(whole) + frac + unit;
  } else {
    std::string frac;
    uint64_t secs = appendFrac(frac, u, 9);
    out = std::to_string(secs % 60) + frac + "s";
    uint64_t mins = secs / 60;
    if (mins > 0) {
      out = std::to_string(mins % 60) + "m" + out;
      uint64_t hours = mins / 60;
      if (hours > 0)
        out = std::to_string(hours) + "h" + out;
    }
  }
  return neg ? "-" + out : out;
}

} // namespace fbc::rt
