// The `time` module of the conformance runner, the part its two files
// share: time values and durations (time_module.cpp: their operators and
// attributes, and the module's functions) and the Go time text
// (time_layout.cpp: named locations, civil time, Go's layouts and duration
// strings). What the module covers: time_module.cpp.
#pragma once

#include "frontend/lib/value.h"

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::conformance::time_lib {

inline constexpr int64_t kSecond = 1000000000;

// Whether `name` is "UTC", "Local" or a zone of the tz database.
bool validLocation(std::string_view name);

// The broken-down local time of an instant in a location.
struct Civil {
  std::tm tm{};
  int64_t nanos = 0;
};

// The civil time of the instant `ns` in the location `loc`, or at
// `offsetSeconds` east of UTC when `loc` is "" (a fixed offset a layout
// gave).
Civil civilOf(int64_t ns, const std::string &loc, int offsetSeconds);

// The instant of a local time in a location (Go's time.Date); false outside
// the years int64 nanoseconds hold (1678-2262).
bool instantOf(std::tm tm, int64_t nanos, const std::string &loc, int64_t &out);

// A time or a duration: a count of nanoseconds, which decides equality,
// order and hash (a time's location does not: times compare as instants).
class Nanos : public star::Object {
public:
  explicit Nanos(int64_t ns) : star::Object(star::Kind::Host), ns(ns) { frozen_ = true; }
  uint32_t hash(star::Thread &) const override { return static_cast<uint32_t>(ns ^ (ns >> 32)); }
  bool equals(star::Thread &, const star::Object &o, int) const override {
    return static_cast<const Nanos &>(o).ns == ns;
  }
  int compare(star::Thread &, const star::Object &o, int) const override {
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
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override {
    out.insert(out.end(),
               {"hours", "microseconds", "milliseconds", "minutes", "nanoseconds", "seconds"});
  }
  star::Value binary(star::Thread &t, star::BinOp op, star::Value self, star::Value other,
                     bool selfOnLeft) override;
};

class Time final : public Nanos {
public:
  static constexpr bool kNeedsDestroy = true;
  Time(int64_t ns, std::string loc, int offset = 0)
      : Nanos(ns), loc(std::move(loc)), offset(offset) {}
  std::string_view typeName() const override { return "time.time"; }
  void repr(star::Printer &p) const override;
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override {
    out.insert(out.end(), {"day", "format", "hour", "in_location", "minute", "month", "nanosecond",
                           "second", "unix", "unix_nano", "year"});
  }
  star::Value binary(star::Thread &t, star::BinOp op, star::Value self, star::Value other,
                     bool selfOnLeft) override;
  Civil civil() const { return civilOf(ns, loc, offset); }

  std::string loc; // a tz name, or "" for a fixed offset
  int offset;      // seconds east of UTC when loc is ""
};

// Go's Duration.String: "10h0m0s", "1.5s", "100ms", "0s".
std::string durationString(int64_t d);

// Go's time.Format for the tokens time_module.cpp lists.
std::string formatTime(const Time &tm, std::string_view layout);

// Go's time.ParseInLocation for the tokens time_module.cpp lists; false on a
// mismatch.
bool parseTime(std::string_view layout, std::string_view s, const std::string &loc, Time &out);

// Go's time.ParseDuration for the units h m s ms us ns.
bool parseDuration(std::string_view s, int64_t &out);

} // namespace fbc::conformance::time_lib
