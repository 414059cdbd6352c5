// The `time` module the recent Go test driver loads for time.star
// (go.starlark.net/lib/time): a host module of the conformance runner only,
// since neither the reference tool nor fbc gives specs a time module. It
// covers what time.star uses: time values (an instant in nanoseconds plus a
// location name, compared as instants), durations (nanoseconds, printed as Go
// prints them), Go layouts made of the tokens 2006 01 02 15 3 04 05 PM,
// fractional seconds .999999999 and the zones Z07:00 / -0700 / MST, and named
// locations from the tz database through the C library (TZ, tzset).
#include "tests/conformance/host_values.h"

#include "frontend/lib/args.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

namespace fbc::conformance {

using namespace fbc::star;

namespace {

constexpr int64_t kSecond = 1000000000;

// --- locations -------------------------------------------------------------

bool validLocation(std::string_view name) {
  if (name == "UTC" || name == "Local")
    return true;
  std::filesystem::path p = std::filesystem::path("/usr/share/zoneinfo") / std::string(name);
  return !name.empty() && name.find("..") == std::string_view::npos &&
         std::filesystem::is_regular_file(p);
}

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

// The broken-down local time of an instant in a location.
struct Civil {
  std::tm tm{};
  int64_t nanos = 0;
};

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

// The instant of a local time in a location (Go's time.Date).
// Seconds and nanoseconds as one count of nanoseconds; false outside the
// years int64 nanoseconds hold (1678-2262: Go's zero time, year 1, is not
// among them).
bool nanosOf(int64_t seconds, int64_t nanos, int64_t &out) {
  int64_t ns;
  return !__builtin_mul_overflow(seconds, kSecond, &ns) && !__builtin_add_overflow(ns, nanos, &out);
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

// --- values ----------------------------------------------------------------

// A time or a duration: a count of nanoseconds, which decides equality,
// order and hash (a time's location does not: times compare as instants).
class Nanos : public Object {
public:
  explicit Nanos(int64_t ns) : Object(Kind::Host), ns(ns) { frozen_ = true; }
  uint32_t hash(Thread &) const override { return static_cast<uint32_t>(ns ^ (ns >> 32)); }
  bool equals(Thread &, const Object &o, int) const override {
    return static_cast<const Nanos &>(o).ns == ns;
  }
  int compare(Thread &, const Object &o, int) const override {
    int64_t y = static_cast<const Nanos &>(o).ns;
    return (ns > y) - (ns < y);
  }
  int64_t ns;
};

class Duration final : public Nanos {
public:
  static constexpr bool kNeedsDestroy = false;
  explicit Duration(int64_t ns) : Nanos(ns) {}
  std::string_view typeName() const override { return "time.duration"; }
  void repr(Printer &p) const override;
  Value attr(Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override {
    out.insert(out.end(),
               {"hours", "microseconds", "milliseconds", "minutes", "nanoseconds", "seconds"});
  }
  Value binary(Thread &t, BinOp op, Value self, Value other, bool selfOnLeft) override;
};

class Time final : public Nanos {
public:
  static constexpr bool kNeedsDestroy = true;
  Time(int64_t ns, std::string loc, int offset = 0)
      : Nanos(ns), loc(std::move(loc)), offset(offset) {}
  std::string_view typeName() const override { return "time.time"; }
  void repr(Printer &p) const override;
  Value attr(Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override {
    out.insert(out.end(), {"day", "format", "hour", "in_location", "minute", "month", "nanosecond",
                           "second", "unix", "unix_nano", "year"});
  }
  Value binary(Thread &t, BinOp op, Value self, Value other, bool selfOnLeft) override;
  Civil civil() const { return civilOf(ns, loc, offset); }

  std::string loc; // a tz name, or "" for a fixed offset
  int offset;      // seconds east of UTC when loc is ""
};

Value duration(Thread &t, int64_t ns) {
  return Value::object(t.heap.make<Duration>(ns));
}

// Go's Duration.String: "10h0m0s", "1.5s", "100ms", "0s".
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

void Duration::repr(Printer &p) const {
  p.write(durationString(ns));
}

Value Duration::attr(Thread &t, std::string_view name) {
  double f = static_cast<double>(ns);
  if (name == "hours")
    return makeFloat(t.heap, f / (3600.0 * kSecond));
  if (name == "minutes")
    return makeFloat(t.heap, f / (60.0 * kSecond));
  if (name == "seconds")
    return makeFloat(t.heap, f / kSecond);
  if (name == "milliseconds")
    return makeInt(t.heap, ns / 1000000);
  if (name == "microseconds")
    return makeInt(t.heap, ns / 1000);
  if (name == "nanoseconds")
    return makeInt(t.heap, ns);
  return Value();
}

// --- layouts -------------------------------------------------------------

// Go's time.Format for the tokens listed at the top.
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

void Time::repr(Printer &p) const {
  p.write(formatTime(*this, "2006-01-02 15:04:05.999999999 -0700 MST"));
}

// Go's time.ParseInLocation for the tokens listed at the top; false on a
// mismatch.
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

// Go's time.ParseDuration for the units h m s ms us ns.
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

// --- operators -------------------------------------------------------------

Value timeValue(Thread &t, int64_t ns, const Time &like) {
  return Value::object(t.heap.make<Time>(ns, like.loc, like.offset));
}

Value Duration::binary(Thread &t, BinOp op, Value, Value other, bool selfOnLeft) {
  auto zero = [&](bool z) {
    if (z)
      t.fail("division by zero");
  };
  if (other.isObject() && other.obj()->typeName() == "time.duration") {
    int64_t o = static_cast<Duration *>(other.obj())->ns;
    int64_t x = selfOnLeft ? ns : o, y = selfOnLeft ? o : ns;
    switch (op) {
    case BinOp::Add:
      return duration(t, x + y);
    case BinOp::Sub:
      return duration(t, x - y);
    case BinOp::Div:
      zero(y == 0);
      return makeFloat(t.heap, static_cast<double>(x) / static_cast<double>(y));
    case BinOp::FloorDiv:
      zero(y == 0);
      return makeInt(t.heap, x / y);
    default:
      return Value();
    }
  }
  if (other.isObject() && other.obj()->typeName() == "time.time" && op == BinOp::Add)
    return other.obj()->binary(t, op, other, Value::object(this), true);
  if (other.isInt()) {
    int64_t n = 0;
    toInt64(other, n);
    if (op == BinOp::Mul)
      return duration(t, ns * n);
    if (op == BinOp::Div && selfOnLeft) {
      zero(n == 0);
      return duration(t, ns / n);
    }
    if (op == BinOp::Div)
      t.fail("unsupported operation");
  }
  if (Float *f = other.as<Float>()) {
    if (op == BinOp::Div && selfOnLeft) {
      zero(f->value == 0);
      return duration(t, static_cast<int64_t>(static_cast<double>(ns) / f->value));
    }
    if (op == BinOp::Mul)
      return duration(t, static_cast<int64_t>(static_cast<double>(ns) * f->value));
  }
  return Value();
}

Value Time::binary(Thread &t, BinOp op, Value, Value other, bool selfOnLeft) {
  if (!other.isObject())
    return Value();
  std::string_view type = other.obj()->typeName();
  if (type == "time.duration") {
    int64_t d = static_cast<Duration *>(other.obj())->ns;
    if (op == BinOp::Add)
      return timeValue(t, ns + d, *this);
    if (op == BinOp::Sub && selfOnLeft)
      return timeValue(t, ns - d, *this);
  }
  if (type == "time.time" && op == BinOp::Sub) {
    int64_t y = static_cast<Time *>(other.obj())->ns;
    return duration(t, selfOnLeft ? ns - y : y - ns);
  }
  return Value();
}

// --- methods and attributes ----------------------------------------------

Value timeFormat(Thread &t, Value self, const Args &args) {
  Value layout;
  bindPositional(t, "format", args, 1, {&layout});
  return makeString(
      t.heap, formatTime(*static_cast<Time *>(self.obj()), wantString(t, "format", "1", layout)));
}

Value timeInLocation(Thread &t, Value self, const Args &args) {
  Value name;
  bindPositional(t, "in_location", args, 1, {&name});
  std::string loc(wantString(t, "in_location", "1", name));
  if (!validLocation(loc))
    t.fail("in_location: unknown time zone " + loc);
  return Value::object(t.heap.make<Time>(static_cast<Time *>(self.obj())->ns, loc));
}

Value Time::attr(Thread &t, std::string_view name) {
  if (name == "format")
    return Value::object(t.heap.make<Builtin>("format", timeFormat, Value::object(this)));
  if (name == "in_location")
    return Value::object(t.heap.make<Builtin>("in_location", timeInLocation, Value::object(this)));
  if (name == "unix")
    return makeInt(t.heap, ns >= 0 ? ns / kSecond : -((-ns + kSecond - 1) / kSecond));
  if (name == "unix_nano")
    return makeInt(t.heap, ns);
  Civil c = civil();
  if (name == "year")
    return makeInt(t.heap, c.tm.tm_year + 1900);
  if (name == "month")
    return makeInt(t.heap, c.tm.tm_mon + 1);
  if (name == "day")
    return makeInt(t.heap, c.tm.tm_mday);
  if (name == "hour")
    return makeInt(t.heap, c.tm.tm_hour);
  if (name == "minute")
    return makeInt(t.heap, c.tm.tm_min);
  if (name == "second")
    return makeInt(t.heap, c.tm.tm_sec);
  if (name == "nanosecond")
    return makeInt(t.heap, c.nanos);
  return Value();
}

std::string wantLocation(Thread &t, const char *fn, Value v) {
  if (v.isNull())
    return "UTC";
  std::string loc(wantString(t, fn, "location", v));
  if (!validLocation(loc))
    t.fail(std::string(fn) + ": unknown time zone " + loc);
  return loc;
}

Value timeNow(Thread &t, Value, const Args &args) {
  bindNone(t, "time.now", args);
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return Value::object(
      t.heap.make<Time>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count(), "UTC"));
}

Value timeParseTime(Thread &t, Value, const Args &args) {
  Value x, format, location;
  bindArgs(t, "time.parse_time", args, {"x", "format?", "location?"}, {&x, &format, &location});
  std::string_view layout =
      format ? wantString(t, "time.parse_time", "format", format) : "2006-01-02T15:04:05Z07:00";
  std::string loc = wantLocation(t, "time.parse_time", location);
  std::string_view s = wantString(t, "time.parse_time", "x", x);
  Time *r = t.heap.make<Time>(0, loc);
  if (!parseTime(layout, s, loc, *r))
    t.fail("time.parse_time: cannot parse \"" + std::string(s) + "\" as \"" + std::string(layout) +
           "\"");
  return Value::object(r);
}

Value timeFromTimestamp(Thread &t, Value, const Args &args) {
  Value sec, nsec;
  bindPositional(t, "time.from_timestamp", args, 1, {&sec, &nsec});
  int64_t s = wantInt(t, "time.from_timestamp", "1", sec);
  int64_t n = nsec ? wantInt(t, "time.from_timestamp", "2", nsec) : 0;
  return Value::object(t.heap.make<Time>(s * kSecond + n, "UTC"));
}

Value timeParseDuration(Thread &t, Value, const Args &args) {
  Value d;
  bindPositional(t, "time.parse_duration", args, 1, {&d});
  std::string_view s = wantString(t, "time.parse_duration", "1", d);
  int64_t ns;
  if (!parseDuration(s, ns))
    t.fail("time.parse_duration: invalid duration \"" + std::string(s) + "\"");
  return duration(t, ns);
}

Value timeIsValidTimezone(Thread &t, Value, const Args &args) {
  Value name;
  bindPositional(t, "time.is_valid_timezone", args, 1, {&name});
  return boolean(validLocation(wantString(t, "time.is_valid_timezone", "1", name)));
}

// time(*, year, month, day, hour, minute, second, nanosecond, location).
Value timeTime(Thread &t, Value, const Args &args) {
  if (!args.positional.empty())
    t.fail("time.time: unexpected positional arguments");
  Value v[8];
  bindArgs(t, "time.time", args,
           {"year?", "month?", "day?", "hour?", "minute?", "second?", "nanosecond?", "location?"},
           {&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]});
  auto field = [&](int i, const char *name, int64_t dflt) {
    return v[i] ? wantInt(t, "time.time", name, v[i]) : dflt;
  };
  std::tm tm{};
  tm.tm_year = static_cast<int>(field(0, "year", 1970) - 1900);
  tm.tm_mon = static_cast<int>(field(1, "month", 1) - 1);
  tm.tm_mday = static_cast<int>(field(2, "day", 1));
  tm.tm_hour = static_cast<int>(field(3, "hour", 0));
  tm.tm_min = static_cast<int>(field(4, "minute", 0));
  tm.tm_sec = static_cast<int>(field(5, "second", 0));
  std::string loc = wantLocation(t, "time.time", v[7]);
  int64_t ns;
  if (!instantOf(tm, field(6, "nanosecond", 0), loc, ns))
    t.fail("time.time: the runner's time module holds only the years 1678-2262");
  return Value::object(t.heap.make<Time>(ns, loc));
}

} // namespace

Value makeTimeModule(Heap &h) {
  Module *m = h.make<Module>("time");
  auto add = [&](const char *name, const char *qualified, BuiltinFn fn) {
    m->members.emplace_back(name, Value::object(h.make<Builtin>(qualified, fn)));
  };
  add("from_timestamp", "time.from_timestamp", timeFromTimestamp);
  add("is_valid_timezone", "time.is_valid_timezone", timeIsValidTimezone);
  add("now", "time.now", timeNow);
  add("parse_duration", "time.parse_duration", timeParseDuration);
  add("parse_time", "time.parse_time", timeParseTime);
  add("time", "time.time", timeTime);
  m->members.emplace_back("nanosecond", Value::object(h.make<Duration>(1)));
  m->members.emplace_back("microsecond", Value::object(h.make<Duration>(1000)));
  m->members.emplace_back("millisecond", Value::object(h.make<Duration>(1000000)));
  m->members.emplace_back("second", Value::object(h.make<Duration>(kSecond)));
  m->members.emplace_back("minute", Value::object(h.make<Duration>(60 * kSecond)));
  m->members.emplace_back("hour", Value::object(h.make<Duration>(3600 * kSecond)));
  std::sort(m->members.begin(), m->members.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  m->freeze();
  return Value::object(m);
}

} // namespace fbc::conformance
