// Floats: construction and Go-compatible formatting (str(float) and the
// %e %f %g conversions of the % operator).
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"

#include <charconv>
#include <cmath>

namespace fbc::star {

Value makeFloat(Heap &h, double v) {
  return Value::object(h.make<Float>(v));
}

namespace {

// Go prints non-finite floats the same way for every verb.
bool formatNonFinite(double f, std::string &out) {
  if (std::isnan(f))
    out = "nan";
  else if (std::isinf(f))
    out = f > 0 ? "+inf" : "-inf";
  else
    return false;
  return true;
}

// Go's strconv.FormatFloat(f, 'g', -1, 64): the shortest digits that
// round-trip, in exponent form when the decimal exponent is < -4 or >= 6
// (Go uses 6, not the digit count, as the threshold for shortest output),
// with at least two exponent digits.
std::string formatShortestG(double f, char expChar) {
  // to_chars gives the shortest round-trip digits; reformat them.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(r.ptr - buf));
  bool negative = !sci.empty() && sci[0] == '-';
  if (negative)
    sci.remove_prefix(1);
  size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e))
    if (c != '.')
      digits.push_back(c);
  int exp = 0;
  std::string_view expText = sci.substr(e + 1);
  if (!expText.empty() && expText[0] == '+')
    expText.remove_prefix(1);
  std::from_chars(expText.data(), expText.data() + expText.size(), exp);

  std::string out;
  if (negative)
    out.push_back('-');
  if (exp < -4 || exp >= 6) {
    out.push_back(digits[0]);
    if (digits.size() > 1) {
      out.push_back('.');
      out.append(digits, 1);
    }
    out.push_back(expChar);
    out.push_back(exp < 0 ? '-' : '+');
    int a = exp < 0 ? -exp : exp;
    if (a < 10)
      out.push_back('0');
    out.append(std::to_string(a));
    return out;
  }
  int pointPos = exp + 1; // digits before the decimal point
  if (pointPos <= 0) {
    out.append("0.");
    out.append(static_cast<size_t>(-pointPos), '0');
    out.append(digits);
  } else if (static_cast<size_t>(pointPos) >= digits.size()) {
    out.append(digits);
    out.append(static_cast<size_t>(pointPos) - digits.size(), '0');
  } else {
    out.append(digits, 0, static_cast<size_t>(pointPos));
    out.push_back('.');
    out.append(digits, static_cast<size_t>(pointPos));
  }
  return out;
}

// %g and str(): shortest form, plus ".0" when it would read as an int.
std::string formatG(double f, char verb) {
  char expChar = verb == 'G' ? 'E' : 'e';
  std::string s = formatShortestG(f, expChar);
  if (s.find(expChar) == std::string::npos && s.find('.') == std::string::npos)
    s.append(".0");
  return s;
}

} // namespace

std::string floatToString(double f) {
  std::string s;
  if (formatNonFinite(f, s))
    return s;
  return formatG(f, 'g');
}

std::string formatFloat(double f, char verb) {
  std::string s;
  if (formatNonFinite(f, s))
    return s;
  switch (verb) {
  case 'g':
  case 'G':
    return formatG(f, verb);
  case 'e':
  case 'E':
  case 'f': {
    // Six digits after the point; %f prints every integer digit exactly.
    char buf[400];
    auto fmt = verb == 'f' ? std::chars_format::fixed : std::chars_format::scientific;
    auto r = std::to_chars(buf, buf + sizeof buf, f, fmt, 6);
    s.assign(buf, r.ptr);
    if (verb == 'E')
      for (char &c : s)
        if (c == 'e')
          c = 'E';
    return s;
  }
  default:
    // Go hands the verb to strconv.FormatFloat, which does not know 'F'
    // and echoes "%F"; Starlark programs observe exactly that.
    return std::string("%") + verb;
  }
}

// --- Float object --------------------------------------------------------

void Float::repr(Printer &p) const {
  p.write(floatToString(value));
}

uint32_t Float::hash(Thread &) const {
  return numericHash(Value::object(this));
}

} // namespace fbc::star
