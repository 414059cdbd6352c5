#include "frontend/lib/utf8.h"

namespace fbc::star::utf8 {

namespace {

constexpr Decoded kInvalid{kRuneError, 1};

bool isContinuation(unsigned char b) {
  return (b & 0xC0) == 0x80;
}

// The valid range of the second byte depends on the first: this rules out
// overlong encodings, surrogates and code points above U+10FFFF.
bool secondByteOk(unsigned char lead, unsigned char b) {
  switch (lead) {
  case 0xE0:
    return b >= 0xA0 && b <= 0xBF;
  case 0xED:
    return b >= 0x80 && b <= 0x9F;
  case 0xF0:
    return b >= 0x90 && b <= 0xBF;
  case 0xF4:
    return b >= 0x80 && b <= 0x8F;
  default:
    return isContinuation(b);
  }
}

} // namespace

Decoded decode(std::string_view s) {
  if (s.empty())
    return {kRuneError, 0};
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  unsigned char b0 = p[0];
  if (b0 < 0x80)
    return {b0, 1};
  unsigned size;
  char32_t r;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    size = 2;
    r = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    size = 3;
    r = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    size = 4;
    r = b0 & 0x07;
  } else {
    return kInvalid;
  }
  if (s.size() < 2 || !secondByteOk(b0, p[1]))
    return kInvalid;
  r = (r << 6) | (p[1] & 0x3F);
  for (unsigned i = 2; i < size; ++i) {
    if (i >= s.size() || !isContinuation(p[i]))
      return kInvalid;
    r = (r << 6) | (p[i] & 0x3F);
  }
  return {r, size};
}

Decoded decodeLast(std::string_view s) {
  if (s.empty())
    return {kRuneError, 0};
  size_t end = s.size();
  size_t start = end - 1;
  if (static_cast<unsigned char>(s[start]) < 0x80)
    return {static_cast<unsigned char>(s[start]), 1};
  // Back up to the lead byte of the last sequence (at most 4 bytes).
  size_t limit = end >= 4 ? end - 4 : 0;
  while (start > limit && isContinuation(static_cast<unsigned char>(s[start])))
    --start;
  Decoded d = decode(s.substr(start));
  if (start + d.size != end)
    return kInvalid;
  return d;
}

size_t countRunes(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++n) {
    if (static_cast<unsigned char>(s[i]) < 0x80)
      ++i;
    else
      i += decode(s.substr(i)).size;
  }
  return n;
}

bool isValid(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    Decoded d = decode(s.substr(i));
    if (d.rune == kRuneError && d.size == 1)
      return false;
    i += d.size;
  }
  return true;
}

void encode(std::string &out, uint32_t r) {
  if (r < 0x80) {
    out.push_back(static_cast<char>(r));
    return;
  }
  if (!isValidRune(r))
    r = kRuneError;
  if (r < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (r >> 6)));
  } else if (r < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (r >> 12)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (r >> 18)));
    out.push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
  }
  out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
}

std::string toValid(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    Decoded d = decode(s.substr(i));
    if (d.rune == kRuneError && d.size == 1)
      encode(out, kRuneError);
    else
      out.append(s.substr(i, d.size));
    i += d.size;
  }
  return out;
}

namespace {

constexpr char kHex[] = "0123456789abcdef";

void appendHexEscape(std::string &out, char kind, uint32_t value, int digits) {
  out.push_back('\\');
  out.push_back(kind);
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    out.push_back(kHex[(value >> shift) & 0xF]);
}

// Escapes one valid code point that is not `quote` or a backslash.
void appendEscapedRune(std::string &out, char32_t r) {
  if (isPrint(r)) {
    encode(out, r);
    return;
  }
  switch (r) {
  case '\a':
    out += "\\a";
    return;
  case '\b':
    out += "\\b";
    return;
  case '\f':
    out += "\\f";
    return;
  case '\n':
    out += "\\n";
    return;
  case '\r':
    out += "\\r";
    return;
  case '\t':
    out += "\\t";
    return;
  case '\v':
    out += "\\v";
    return;
  default:
    break;
  }
  if (r < ' ' || r == 0x7F)
    appendHexEscape(out, 'x', r, 2);
  else if (r < 0x10000)
    appendHexEscape(out, 'u', r, 4);
  else
    appendHexEscape(out, 'U', r, 8);
}

} // namespace

void appendQuoted(std::string &out, std::string_view s, bool bytesLiteral) {
  out.reserve(out.size() + s.size() + 3);
  if (bytesLiteral)
    out.push_back('b');
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    // Fast path: printable ASCII other than the quote and backslash.
    if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\') {
      out.push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    Decoded d = b < 0x80 ? Decoded{b, 1} : decode(s.substr(i));
    if (d.rune == kRuneError && d.size == 1) {
      appendHexEscape(out, 'x', b, 2); // an invalid byte
    } else if (d.rune == '"' || d.rune == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(d.rune));
    } else {
      appendEscapedRune(out, d.rune);
    }
    i += d.size;
  }
  out.push_back('"');
}

std::string quote(std::string_view s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

void appendQuotedRune(std::string &out, char32_t c) {
  if (!isValidRune(c))
    c = kRuneError;
  out.push_back('\'');
  if (c == '\'' || c == '\\') {
    out.push_back('\\');
    out.push_back(static_cast<char>(c));
  } else {
    appendEscapedRune(out, c);
  }
  out.push_back('\'');
}

} // namespace fbc::star::utf8
