// The `time` module the recent Go test driver loads for time.star
// (go.starlark.net/lib/time): a host module of the conformance runner only,
// since neither the reference tool nor fbc gives specs a time module. It
// covers what time.star uses: time values (an instant in nanoseconds plus a
// location name, compared as instants), durations (nanoseconds, printed as Go
// prints them), Go layouts made of the tokens 2006 01 02 15 3 04 05 PM,
// fractional seconds .999999999 and the zones Z07:00 / -0700 / MST, and named
// locations from the tz database through the C library (TZ, tzset).
// This file: the values' operators and attributes and the module's
// functions; time_layout.cpp: locations, civil time and the Go time text;
// time_module.h: what the two share.
#include "tests/conformance/time_module.h"
#include "tests/conformance/host_values.h"

#include "frontend/lib/args.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <string>

namespace fbc::conformance {

using namespace fbc::star;

namespace time_lib {
namespace {

Value duration(Thread &t, int64_t ns) {
  return Value::object(t.heap.make<Duration>(ns));
}

Value timeValue(Thread &t, int64_t ns, const Time &like) {
  return Value::object(t.heap.make<Time>(ns, like.loc, like.offset));
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

std::string wantLocation(Thread &t, const char *fn, Value v) {
  if (v.isNull())
    return "UTC";
  std::string loc(wantString(t, fn, "location", v));
  if (!validLocation(loc))
    t.fail(std::string(fn) + ": unknown time zone " + loc);
  return loc;
}

// --- module functions ------------------------------------------------------

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

// --- values' repr and attributes -------------------------------------------

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

void Time::repr(Printer &p) const {
  p.write(formatTime(*this, "2006-01-02 15:04:05.999999999 -0700 MST"));
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

// --- operators -------------------------------------------------------------

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

} // namespace time_lib

Value makeTimeModule(Heap &h) {
  using namespace time_lib;
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
