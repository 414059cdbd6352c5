// A port of Go's time.ParseDuration and Duration.String (src/time/format.go).
#include "ir/duration.h"

namespace fbc::ir {
namespace {

constexpr uint64_t kMaxMagnitude = uint64_t(1) << 63;

// Go's time.quote: the string in double quotes; quotes and backslashes
// escaped, control bytes and every byte of a non-ASCII character as \xNN.
std::string quote(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c < 0x20 || c >= 0x80) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += static_cast<char>(c);
  }
  return out + "\"";
}

// Leading decimal digits of s; false on overflow.
bool leadingInt(std::string_view &s, uint64_t &x) {
  size_t i = 0;
  x = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (x > kMaxMagnitude / 10)
      return false;
    x = x * 10 + uint64_t(s[i] - '0');
    if (x > kMaxMagnitude)
      return false;
  }
  s.remove_prefix(i);
  return true;
}

// Leading fraction digits: value, scale (10^digits consumed while they fit).
void leadingFraction(std::string_view &s, uint64_t &x, double &scale) {
  size_t i = 0;
  x = 0;
  scale = 1;
  bool overflow = false;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (overflow)
      continue;
    if (x > (kMaxMagnitude - 1) / 10) {
      overflow = true;
      continue;
    }
    uint64_t y = x * 10 + uint64_t(s[i] - '0');
    if (y > kMaxMagnitude) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  s.remove_prefix(i);
}

uint64_t unitNs(std::string_view u) {
  if (u == "ns")
    return 1;
  if (u == "us" || u == "\xC2\xB5s" || u == "\xCE\xBCs") // us, U+00B5 s, U+03BC s
    return 1000;
  if (u == "ms")
    return 1000000;
  if (u == "s")
    return 1000000000;
  if (u == "m")
    return 60ull * 1000000000;
  if (u == "h")
    return 3600ull * 1000000000;
  return 0;
}

} // namespace

std::optional<int64_t> parseDuration(std::string_view orig, std::string &error) {
  std::string_view s = orig;
  auto invalid = [&] {
    error = "time: invalid duration " + quote(orig);
    return std::nullopt;
  };
  uint64_t d = 0;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0")
    return 0;
  if (s.empty())
    return invalid();
  while (!s.empty()) {
    uint64_t v = 0, f = 0;
    double scale = 1;
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9')))
      return invalid();
    size_t before = s.size();
    if (!leadingInt(s, v))
      return invalid();
    bool pre = before != s.size();
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      size_t at = s.size();
      leadingFraction(s, f, scale);
      post = at != s.size();
    }
    if (!pre && !post)
      return invalid();
    size_t i = 0;
    while (i < s.size() && s[i] != '.' && !(s[i] >= '0' && s[i] <= '9'))
      ++i;
    if (i == 0) {
      error = "time: missing unit in duration " + quote(orig);
      return std::nullopt;
    }
    std::string_view u = s.substr(0, i);
    s.remove_prefix(i);
    uint64_t unit = unitNs(u);
    if (unit == 0) {
      error = "time: unknown unit " + quote(u) + " in duration " + quote(orig);
      return std::nullopt;
    }
    if (v > kMaxMagnitude / unit)
      return invalid();
    v *= unit;
    if (f > 0) {
      v += uint64_t(double(f) * (double(unit) / scale));
      if (v > kMaxMagnitude)
        return invalid();
    }
    d += v;
    if (d > kMaxMagnitude)
      return invalid();
  }
  if (neg)
    return d == kMaxMagnitude ? INT64_MIN : -int64_t(d);
  if (d > kMaxMagnitude - 1)
    return invalid();
  return int64_t(d);
}

namespace {

// Writes the fraction of v/10^prec (trailing zeros omitted) into the buffer
// ending at w, and returns v/10^prec.
uint64_t fmtFrac(char *buf, size_t &w, uint64_t v, int prec) {
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    uint64_t digit = v % 10;
    print = print || digit != 0;
    if (print)
      buf[--w] = char('0' + digit);
    v /= 10;
  }
  if (print)
    buf[--w] = '.';
  return v;
}

void fmtInt(char *buf, size_t &w, uint64_t v) {
  if (v == 0) {
    buf[--w] = '0';
    return;
  }
  while (v > 0) {
    buf[--w] = char('0' + v % 10);
    v /= 10;
  }
}

} // namespace

std::string formatDuration(int64_t d) {
  char buf[32];
  size_t w = sizeof buf;
  uint64_t u = uint64_t(d);
  bool neg = d < 0;
  if (neg)
    u = -u;
  if (u < uint64_t(kSecond)) {
    int prec = 0;
    buf[--w] = 's';
    if (u == 0) {
      buf[--w] = '0';
      return std::string(buf + w, sizeof buf - w);
    }
    if (u < 1000) {
      prec = 0;
      buf[--w] = 'n';
    } else if (u < 1000000) {
      prec = 3;
      buf[--w] = '\xB5'; // U+00B5 MICRO SIGN, as Go writes it
      buf[--w] = '\xC2';
    } else {
      prec = 6;
      buf[--w] = 'm';
    }
    u = fmtFrac(buf, w, u, prec);
    fmtInt(buf, w, u);
  } else {
    buf[--w] = 's';
    u = fmtFrac(buf, w, u, 9);
    fmtInt(buf, w, u % 60);
    u /= 60;
    if (u > 0) {
      buf[--w] = 'm';
      fmtInt(buf, w, u % 60);
      u /= 60;
      if (u > 0) {
        buf[--w] = 'h';
        fmtInt(buf, w, u);
      }
    }
  }
  if (neg)
    buf[--w] = '-';
  return std::string(buf + w, sizeof buf - w);
}

} // namespace fbc::ir
