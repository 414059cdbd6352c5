// The Go time text of the conformance runner's `time` module
// (time_module.h): named locations from the tz database through the C
// library (TZ, tzset), the civil time of an instant in a location and back,
// Go's layouts (format and parse) and Go's duration strings.
#include "tests/conformance/time_module.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iterator>
#include <string>
#include <utility>

namespace fbc::conformance::time_lib {

namespace {

// Runs f with the C library's local zone set to `name` (TZ, tzset).
template <class F> auto inZone(std::string_view name, F &&f) {
  const char *old = std::getenv("TZ");
  std::string saved = old ? old : "";
  setenv("TZ", std::string(name).c_str(), 1);
  tzset();
  auto r = f();
  if (old)
    setenv("TZ", saved.c_str(), 1);
  else
    unsetenv("TZ");
  tzset();
  return r;
}

// Seconds and nanoseconds as one count of nanoseconds; false outside the
// years int64 nanoseconds hold (1678-2262: Go's zero time, year 1, is not
// among them).
bool nanosOf(int64_t seconds, int64_t nanos, int64_t &out) {
  int64_t ns;
  return !__builtin_mul_overflow(seconds, kSecond, &ns) && !__builtin_add_overflow(ns, nanos, &out);
}

} // namespace

// --- locations -------------------------------------------------------------

bool validLocation(std::string_view name) {
  if (name == "UTC" || name == "Local")
    return true;
  std::filesystem::path p = std::filesystem::path("/usr/share/zoneinfo") / std::string(name);
  return !name.empty() && name.find("..") == std::string_view::npos &&
         std::filesystem::is_regular_file(p);
}

Civil civilOf(int64_t ns, const std::string &loc, int offsetSeconds) {
  Civil c;
  int64_t sec = ns >= 0 ? ns / kSecond : -((-ns + kSecond - 1) / kSecond);
  c.nanos = ns - sec * kSecond;
  if (loc.empty()) { // a fixed offset from a parsed layout
    std::time_t s = static_cast<std::time_t>(sec + offsetSeconds);
    gmtime_r(&s, &c.tm);
    c.tm.tm_gmtoff = offsetSeconds;
    return c;
  }
  std::time_t s = static_cast<std::time_t>(sec);
  if (loc == "UTC")
    gmtime_r(&s, &c.tm);
  else
    inZone(loc, [&] { return localtime_r(&s, &c.tm); });
  return c;
}

bool instantOf(std::tm tm, int64_t nanos, const std::string &loc, int64_t &out) {
  std::time_t s;
  if (loc == "UTC") {
    s = timegm(&tm);
  } else {
    tm.tm_isdst = -1;
    s = inZone(loc, [&] { return mktime(&tm); });
  }
  return nanosOf(static_cast<int64_t>(s), nanos, out);
}

// --- text ------------------------------------------------------------------

std::string durationString(int64_t d) {
  if (d == 0)
    return "0s";
  bool neg = d < 0;
  uint64_t u = neg ? static_cast<uint64_t>(-(d + 1)) + 1 : static_cast<uint64_t>(d);
  auto frac = [](uint64_t v, int digits, std::string &out) {
    std::string s;
    bool print = false;
    for (int i = 0; i < digits; ++i) {
      int digit = static_cast<int>(v % 10);
      print = print || digit != 0;
      if (print)
        s.insert(s.begin(), static_cast<char>('0' + digit));
      v /= 10;
    }
    if (print)
      out = "." + s + out;
    return v;
  };
  std::string out;
  if (u < static_cast<uint64_t>(kSecond)) {
    const char *unit = "ns";
    int digits = 0;
    if (u >= 1000000) {
      unit = "ms";
      digits = 6;
    } else if (u >= 1000) {
      unit = "µs";
      digits = 3;
    }
    out = unit;
    u = frac(u, digits, out);
    out = std::to_string(u) + out;
  } else {
    out = "s";
    u = frac(u, 9, out);
    out = std::to_string(u % 60) + out;
    u /= 60;
    if (u > 0) {
      out = std::to_string(u % 60) + "m" + out;
      u /= 60;
      if (u > 0)
        out = std::to_string(u) + "h" + out;
    }
  }
  return neg ? "-" + out : out;
}

std::string formatTime(const Time &tm, std::string_view layout) {
  Civil c = tm.civil();
  std::string out;
  auto two = [&](int v) {
    if (v < 10)
      out.push_back('0');
    out += std::to_string(v);
  };
  auto starts = [&](std::string_view tok) { return layout.substr(0, tok.size()) == tok; };
  const std::pair<std::string_view, int> twoDigits[] = {{"01", c.tm.tm_mon + 1},
                                                        {"02", c.tm.tm_mday},
                                                        {"15", c.tm.tm_hour},
                                                        {"04", c.tm.tm_min},
                                                        {"05", c.tm.tm_sec}};
  while (!layout.empty()) {
    auto field = std::find_if(std::begin(twoDigits), std::end(twoDigits),
                              [&](const auto &f) { return starts(f.first); });
    if (field != std::end(twoDigits)) {
      two(field->second);
      layout.remove_prefix(2);
    } else if (starts("2006")) {
      out += std::to_string(c.tm.tm_year + 1900);
      layout.remove_prefix(4);
    } else if (starts(".999999999")) {
      if (c.nanos) {
        std::string digits = std::to_string(c.nanos + kSecond).substr(1);
        digits.erase(digits.find_last_not_of('0') + 1);
        out += "." + digits;
      }
      layout.remove_prefix(10);
    } else if (starts("-0700")) {
      long off = c.tm.tm_gmtoff;
      out.push_back(off < 0 ? '-' : '+');
      off = off < 0 ? -off : off;
      two(static_cast<int>(off / 3600));
      two(static_cast<int>(off / 60 % 60));
      layout.remove_prefix(5);
    } else if (starts("MST")) {
      out += tm.loc == "UTC" ? "UTC" : c.tm.tm_zone ? c.tm.tm_zone : "";
      layout.remove_prefix(3);
    } else if (starts("PM")) {
      out += c.tm.tm_hour >= 12 ? "PM" : "AM";
      layout.remove_prefix(2);
    } else if (starts("3")) {
      int h = c.tm.tm_hour % 12;
      out += std::to_string(h == 0 ? 12 : h);
      layout.remove_prefix(1);
    } else {
      out.push_back(layout[0]);
      layout.remove_prefix(1);
    }
  }
  return out;
}

bool parseTime(std::string_view layout, std::string_view s, const std::string &loc, Time &out) {
  std::tm tm{};
  tm.tm_mday = 1;
  int64_t nanos = 0;
  bool zoned = false;
  int offset = 0;
  auto number = [&](size_t width, int &v) {
    if (s.size() < width)
      return false;
    v = 0;
    for (size_t i = 0; i < width; ++i) {
      if (s[i] < '0' || s[i] > '9')
        return false;
      v = v * 10 + (s[i] - '0');
    }
    s.remove_prefix(width);
    return true;
  };
  auto starts = [&](std::string_view tok) { return layout.substr(0, tok.size()) == tok; };
  while (!layout.empty()) {
    int v;
    if (starts("2006")) {
      if (!number(4, v))
        return false;
      tm.tm_year = v - 1900;
      layout.remove_prefix(4);
    } else if (starts("01") || starts("02") || starts("15") || starts("04") || starts("05")) {
      if (!number(2, v))
        return false;
      int *field = starts("01")   ? &tm.tm_mon
                   : starts("02") ? &tm.tm_mday
                   : starts("15") ? &tm.tm_hour
                   : starts("04") ? &tm.tm_min
                                  : &tm.tm_sec;
      *field = starts("01") ? v - 1 : v;
      layout.remove_prefix(2);
    } else if (starts(".999999999")) {
      layout.remove_prefix(10);
      if (!s.empty() && s[0] == '.') {
        s.remove_prefix(1);
        int64_t scale = kSecond;
        while (!s.empty() && s[0] >= '0' && s[0] <= '9' && scale > 1) {
          scale /= 10;
          nanos += (s[0] - '0') * scale;
          s.remove_prefix(1);
        }
      }
    } else if (starts("Z07:00")) {
      layout.remove_prefix(6);
      zoned = true;
      if (!s.empty() && s[0] == 'Z') {
        s.remove_prefix(1);
      } else {
        if (s.size() < 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':')
          return false;
        int sign = s[0] == '-' ? -1 : 1, h, m;
        s.remove_prefix(1);
        if (!number(2, h))
          return false;
        s.remove_prefix(1);
        if (!number(2, m))
          return false;
        offset = sign * (h * 3600 + m * 60);
      }
    } else {
      if (s.empty() || s[0] != layout[0])
        return false;
      s.remove_prefix(1);
      layout.remove_prefix(1);
    }
  }
  if (!s.empty())
    return false;
  if (zoned) {
    out.loc = offset == 0 ? "UTC" : "";
    out.offset = offset;
    return nanosOf(static_cast<int64_t>(timegm(&tm) - offset), nanos, out.ns);
  }
  out.loc = loc;
  return instantOf(tm, nanos, loc, out.ns);
}

bool parseDuration(std::string_view s, int64_t &out) {
  if (s == "0") {
    out = 0;
    return true;
  }
  bool neg = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+'))
    s.remove_prefix(1);
  if (s.empty())
    return false;
  double total = 0;
  while (!s.empty()) {
    size_t i = 0;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
      ++i;
    if (i == 0)
      return false;
    double v = std::stod(std::string(s.substr(0, i)));
    s.remove_prefix(i);
    size_t j = 0;
    while (j < s.size() && !((s[j] >= '0' && s[j] <= '9') || s[j] == '.'))
      ++j;
    std::string_view unit = s.substr(0, j);
    s.remove_prefix(j);
    double scale = unit == "h"    ? 3600.0 * kSecond
                   : unit == "m"  ? 60.0 * kSecond
                   : unit == "s"  ? 1.0 * kSecond
                   : unit == "ms" ? 1e6
                   : unit == "us" ? 1e3
                   : unit == "ns" ? 1.0
                                  : -1;
    if (scale < 0)
      return false;
    total += v * scale;
  }
  out = static_cast<int64_t>(neg ? -total : total);
  return true;
}

} // namespace fbc::conformance::time_lib
