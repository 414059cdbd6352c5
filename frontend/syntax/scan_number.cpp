// Number literals of the scanner (Go's scanner.scanNumber): decimal,
// 0x / 0o / 0b, the obsolete octal form an error, floats read as Go's
// ParseFloat reads them, and ints too big for int64 kept as text.
#include "frontend/syntax/scanner.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace fbc::syntax {

using frontend::Pos;

namespace {

bool isDigit(char32_t c) {
  return c >= '0' && c <= '9';
}
bool isOctDigit(char32_t c) {
  return c >= '0' && c <= '7';
}
bool isBinDigit(char32_t c) {
  return c == '0' || c == '1';
}
bool isHexDigit(char32_t c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Parses digits in `base` into an int64; false on overflow or a bad digit.
bool parseInt64(llvm::StringRef digits, unsigned base, int64_t &out) {
  if (digits.empty())
    return false;
  uint64_t v = 0;
  for (char ch : digits) {
    unsigned d;
    if (ch >= '0' && ch <= '9')
      d = static_cast<unsigned>(ch - '0');
    else if (ch >= 'a' && ch <= 'f')
      d = static_cast<unsigned>(ch - 'a' + 10);
    else if (ch >= 'A' && ch <= 'F')
      d = static_cast<unsigned>(ch - 'A' + 10);
    else
      return false;
    if (d >= base)
      return false;
    if (v > (uint64_t(INT64_MAX) - d) / base)
      return false;
    v = v * base + d;
  }
  out = static_cast<int64_t>(v);
  return true;
}

} // namespace

// After 0x / 0o / 0b (the letter not yet read): its digits, at least one,
// else `invalid` at `at` (default: right after the letter). The character
// after them.
char32_t Scanner::scanRadixDigits(bool (*isRadixDigit)(char32_t), std::optional<Pos> at,
                                  const char *invalid) {
  readRune();
  char32_t c = peekRune();
  if (!isRadixDigit(c))
    error(at.value_or(pos_), invalid);
  while (isRadixDigit(c)) {
    readRune();
    c = peekRune();
  }
  return c;
}

Tok Scanner::scanNumber(TokenValue &val, char32_t c) {
  Pos start = pos_;
  bool fraction = false, exponent = false;
  auto skipWhile = [&](bool (*pred)(char32_t)) {
    while (pred(c)) {
      readRune();
      c = peekRune();
    }
  };

  if (c == '.') {
    readRune();
    c = peekRune();
    if (!isDigit(c)) {
      finishToken(val);
      return Tok::Dot;
    }
    fraction = true;
  } else if (c == '0') {
    readRune();
    c = peekRune();
    if (c == '.') {
      fraction = true;
    } else if (c == 'x' || c == 'X') {
      c = scanRadixDigits(isHexDigit, start, "invalid hex literal");
    } else if (c == 'o' || c == 'O') {
      c = scanRadixDigits(isOctDigit, std::nullopt, "invalid octal literal");
    } else if (c == 'b' || c == 'B') {
      c = scanRadixDigits(isBinDigit, std::nullopt, "invalid binary literal");
    } else {
      // A float, zero, or the obsolete octal form 0755.
      bool allZeros = true, octal = true;
      while (isDigit(c)) {
        allZeros &= c == '0';
        octal &= c <= '7';
        readRune();
        c = peekRune();
      }
      if (c == '.') {
        fraction = true;
      } else if (c == 'e' || c == 'E') {
        exponent = true;
      } else if (octal && !allZeros) {
        finishToken(val);
        error(pos_, "obsolete form of octal literal; use 0o" + val.raw.drop_front(1).str());
      }
    }
  } else {
    skipWhile(isDigit);
    if (c == '.')
      fraction = true;
    else if (c == 'e' || c == 'E')
      exponent = true;
  }

  if (fraction) {
    readRune(); // '.'
    c = peekRune();
    skipWhile(isDigit);
    if (c == 'e' || c == 'E')
      exponent = true;
  }
  if (exponent) {
    readRune(); // [eE]
    c = peekRune();
    if (c == '+' || c == '-') {
      readRune();
      c = peekRune();
      if (!isDigit(c))
        error(pos_, "invalid float literal");
    }
    skipWhile(isDigit);
  }

  finishToken(val);
  return numberValue(val, start, fraction || exponent);
}

// The value of the number token just scanned (val.raw): a float, or an int
// in its base (an int64, else a big int read from its text).
Tok Scanner::numberValue(TokenValue &val, Pos start, bool isFloat) {
  if (isFloat) {
    // The token is at most digits, '.', 'e' and a sign: strtod in the "C"
    // locale reads it exactly as Go's ParseFloat, except that Go rejects
    // overflow to infinity.
    llvm::SmallString<64> text(val.raw);
    char *endp = nullptr;
    errno = 0;
    val.floatValue = std::strtod(text.c_str(), &endp);
    if (endp != text.end() || std::isinf(val.floatValue))
      error(pos_, "invalid float literal");
    return Tok::Float;
  }

  llvm::StringRef s = val.raw;
  val.bigInt = false;
  bool ok;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    ok = parseInt64(s.drop_front(2), 8, val.intValue); // Go: no big octal literals
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    ok = parseInt64(s.drop_front(2), 2, val.intValue);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    ok = parseInt64(s.drop_front(2), 16, val.intValue) || (val.bigInt = true);
  } else if (s.size() > 1 && s[0] == '0') {
    // Only all-zero digits (or an invalid 08/09) get here: Go reads a
    // leading 0 as octal.
    ok = parseInt64(s.drop_front(1), 8, val.intValue) ||
         (s.find_first_not_of("01234567") == llvm::StringRef::npos && (val.bigInt = true));
  } else {
    ok = parseInt64(s, 10, val.intValue) || (val.bigInt = true);
  }
  if (!ok)
    error(start, "invalid int literal");
  if (val.bigInt)
    val.raw = ctx_.copy(val.raw);
  return Tok::Int;
}

} // namespace fbc::syntax
