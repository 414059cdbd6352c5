// Case conversion and character-class predicates. These are Unicode-aware
// as in Go: each method decodes the string as UTF-8 (an invalid byte reads
// as U+FFFD, and conversions write U+FFFD in its place) and uses Go's
// unicode tables (utf8.h).
#include "frontend/lib/args.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/string_internal.h"
#include "frontend/lib/utf8.h"

#include <string>

namespace fbc::star {

namespace {

bool isASCII(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80)
      return false;
  return true;
}

// Calls f(rune, isFirst) for each code point of s, in order.
template <class F> void forEachRune(std::string_view s, F f) {
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    utf8::Decoded d = b < 0x80 ? utf8::Decoded{b, 1} : utf8::decode(s.substr(i));
    f(d.rune, i == 0);
    i += d.size;
  }
}

// Go's strings.Map with a per-rune mapping: invalid bytes become U+FFFD.
template <class Map> std::string mapRunes(std::string_view s, Map map) {
  std::string out;
  out.reserve(s.size());
  if (isASCII(s)) {
    for (char c : s)
      out.push_back(static_cast<char>(map(static_cast<unsigned char>(c))));
    return out;
  }
  forEachRune(s, [&](char32_t r, bool) { utf8::encode(out, map(r)); });
  return out;
}

std::string lowered(std::string_view s) {
  return mapRunes(s, utf8::toLower);
}
std::string uppered(std::string_view s) {
  return mapRunes(s, utf8::toUpper);
}

Value result(Thread &t, Value self, const std::string &s) {
  return s == receiver(self) ? self : makeString(t.heap, s);
}

bool hasCasedRune(std::string_view s) {
  bool cased = false;
  forEachRune(s, [&](char32_t r, bool) { cased = cased || utf8::isCased(r); });
  return cased;
}

// True if s is non-empty and every code point satisfies pred.
template <class Pred> bool allRunes(std::string_view s, Pred pred) {
  bool ok = !s.empty();
  forEachRune(s, [&](char32_t r, bool) { ok = ok && pred(r); });
  return ok;
}

} // namespace

Value string_lower(Thread &t, Value self, const Args &args) {
  bindNone(t, "lower", args);
  return result(t, self, lowered(receiver(self)));
}

Value string_upper(Thread &t, Value self, const Args &args) {
  bindNone(t, "upper", args);
  return result(t, self, uppered(receiver(self)));
}

Value string_capitalize(Thread &t, Value self, const Args &args) {
  bindNone(t, "capitalize", args);
  std::string out;
  std::string_view s = receiver(self);
  out.reserve(s.size());
  forEachRune(s, [&](char32_t r, bool first) {
    utf8::encode(out, first ? utf8::toTitle(r) : utf8::toLower(r));
  });
  return result(t, self, out);
}

// Python's title(): upper-case (title-case) a code point after an uncased
// one, lower-case it after a cased one.
Value string_title(Thread &t, Value self, const Args &args) {
  bindNone(t, "title", args);
  std::string out;
  std::string_view s = receiver(self);
  out.reserve(s.size());
  bool prevCased = false;
  forEachRune(s, [&](char32_t r, bool) {
    r = prevCased ? utf8::toLower(r) : utf8::toTitle(r);
    prevCased = utf8::isCased(r);
    utf8::encode(out, r);
  });
  return result(t, self, out);
}

Value string_isalnum(Thread &t, Value self, const Args &args) {
  bindNone(t, "isalnum", args);
  return boolean(
      allRunes(receiver(self), [](char32_t r) { return utf8::isLetter(r) || utf8::isDigit(r); }));
}

Value string_isalpha(Thread &t, Value self, const Args &args) {
  bindNone(t, "isalpha", args);
  return boolean(allRunes(receiver(self), utf8::isLetter));
}

Value string_isdigit(Thread &t, Value self, const Args &args) {
  bindNone(t, "isdigit", args);
  return boolean(allRunes(receiver(self), utf8::isDigit));
}

Value string_isspace(Thread &t, Value self, const Args &args) {
  bindNone(t, "isspace", args);
  return boolean(allRunes(receiver(self), utf8::isSpace));
}

Value string_islower(Thread &t, Value self, const Args &args) {
  bindNone(t, "islower", args);
  std::string_view s = receiver(self);
  return boolean(hasCasedRune(s) && lowered(s) == s);
}

Value string_isupper(Thread &t, Value self, const Args &args) {
  bindNone(t, "isupper", args);
  std::string_view s = receiver(self);
  return boolean(hasCasedRune(s) && uppered(s) == s);
}

// Upper- and title-case code points may only follow uncased ones, and
// lower-case ones only cased ones; at least one must be cased.
Value string_istitle(Thread &t, Value self, const Args &args) {
  bindNone(t, "istitle", args);
  bool cased = false, prevCased = false, ok = true;
  forEachRune(receiver(self), [&](char32_t r, bool) {
    if (!ok)
      return;
    if ((r >= 'A' && r <= 'Z') || utf8::isTitle(r)) {
      ok = !prevCased;
      prevCased = cased = true;
    } else if (utf8::isLower(r)) {
      ok = prevCased;
      prevCased = cased = true;
    } else if (utf8::isUpper(r)) {
      ok = false;
    } else {
      prevCased = false;
    }
  });
  return boolean(ok && cased);
}

} // namespace fbc::star
