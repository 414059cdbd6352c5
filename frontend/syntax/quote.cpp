#include "frontend/syntax/quote.h"

#include <llvm/ADT/StringExtras.h>

#include <cstdio>

namespace fbc::syntax {

void appendUtf8(llvm::SmallVectorImpl<char> &out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

namespace {

// Parses exactly `digits.size()` hex digits; false if any is not one.
bool parseHex(llvm::StringRef digits, uint32_t &out) {
  out = 0;
  for (char c : digits) {
    if (!llvm::isHexDigit(c))
      return false;
    out = out * 16 + llvm::hexDigitValue(c);
  }
  return true;
}

char singleCharEscape(char c) {
  switch (c) {
  case 'a':
    return '\a';
  case 'b':
    return '\b';
  case 'f':
    return '\f';
  case 'n':
    return '\n';
  case 'r':
    return '\r';
  case 't':
    return '\t';
  case 'v':
    return '\v';
  case '\\':
  case '\'':
  case '"':
    return c;
  default:
    return 0;
  }
}

std::string format(const char *fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

// The escape sequence at the front of `quoted` (a backslash and at least
// one more character), decoded into `buf` and dropped from `quoted`; ""
// when it is valid, else Go's message for it.
std::string decodeEscape(llvm::StringRef &quoted, llvm::SmallVectorImpl<char> &buf) {
  char c = quoted[1];
  if (c == '\n') {
    quoted = quoted.drop_front(2); // escaped line break: both vanish
  } else if (char e = singleCharEscape(c)) {
    buf.push_back(e);
    quoted = quoted.drop_front(2);
  } else if (c >= '0' && c <= '7') {
    unsigned n = static_cast<unsigned>(c - '0');
    quoted = quoted.drop_front(2);
    for (int k = 1; k < 3 && !quoted.empty() && quoted[0] >= '0' && quoted[0] <= '7'; ++k) {
      n = n * 8 + static_cast<unsigned>(quoted[0] - '0');
      quoted = quoted.drop_front(1);
    }
    if (n >= 256)
      return format("invalid escape sequence \\%03o", n);
    buf.push_back(static_cast<char>(n));
  } else if (c == 'x') {
    if (quoted.size() < 4)
      return "truncated escape sequence " + quoted.str();
    uint32_t n;
    if (!parseHex(quoted.substr(2, 2), n))
      return "invalid escape sequence " + quoted.take_front(4).str();
    buf.push_back(static_cast<char>(n));
    quoted = quoted.drop_front(4);
  } else if (c == 'u' || c == 'U') {
    size_t size = c == 'u' ? 6 : 10;
    if (quoted.size() < size)
      return "truncated escape sequence " + quoted.str();
    uint32_t n;
    if (!parseHex(quoted.substr(2, size - 2), n))
      return "invalid escape sequence " + quoted.take_front(size).str();
    if (n > 0x10FFFF)
      return format("code point out of range: %s (max \\U%08x)",
                    quoted.take_front(size).str().c_str(), n);
    if (n >= 0xD800 && n < 0xE000)
      return format("invalid Unicode code point U+%04X", n);
    appendUtf8(buf, n);
    quoted = quoted.drop_front(size);
  } else {
    // Go formats the offending byte with %c, i.e. as the code point of
    // that byte value.
    llvm::SmallString<8> ch;
    appendUtf8(ch, static_cast<unsigned char>(c));
    return "invalid escape sequence \\" + ch.str().str();
  }
  return "";
}

} // namespace

UnquoteResult unquote(llvm::StringRef quoted, llvm::SmallVectorImpl<char> &buf) {
  UnquoteResult r;
  auto fail = [&](std::string msg) {
    r.ok = false;
    r.error = std::move(msg);
    return r;
  };

  bool raw = quoted.consume_front("r");
  r.isBytes = quoted.consume_front("b");
  if (quoted.size() < 2)
    return fail("string literal too short");
  char quote = quoted.front();
  if ((quote != '"' && quote != '\'') || quote != quoted.back())
    return fail("string literal has invalid quotes");
  if (quoted.size() >= 6 && quoted[1] == quote && quoted[2] == quote &&
      quoted.take_front(3) == quoted.take_back(3)) {
    r.triple = true;
    quoted = quoted.drop_front(3).drop_back(3);
  } else {
    quoted = quoted.drop_front(1).drop_back(1);
  }

  // Only backslashes (unless raw) and carriage returns need rewriting.
  llvm::StringRef special = raw ? llvm::StringRef("\r") : llvm::StringRef("\\\r");
  size_t i = quoted.find_first_of(special);
  if (i == llvm::StringRef::npos) {
    r.value = quoted;
    return r;
  }

  buf.clear();
  while (true) {
    buf.append(quoted.begin(), quoted.begin() + std::min(i, quoted.size()));
    quoted = quoted.drop_front(std::min(i, quoted.size()));
    if (quoted.empty())
      break;

    if (quoted[0] == '\r') {
      // \r and \r\n inside a literal both mean a newline.
      buf.push_back('\n');
      quoted = quoted.drop_front(quoted.size() > 1 && quoted[1] == '\n' ? 2 : 1);
    } else if (quoted.size() == 1) {
      return fail("truncated escape sequence \\");
    } else if (std::string error = decodeEscape(quoted, buf); !error.empty()) {
      return fail(std::move(error));
    }
    i = quoted.find_first_of(special);
  }
  r.value = llvm::StringRef(buf.data(), buf.size());
  return r;
}

} // namespace fbc::syntax
