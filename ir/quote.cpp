#include "ir/quote.h"

#include "frontend/lib/utf8.h"

namespace fbc::ir {

size_t validUtf8Length(std::string_view s, size_t i) {
  star::utf8::Decoded d = star::utf8::decode(s.substr(i));
  return d.rune == star::utf8::kRuneError && d.size == 1 ? 0 : d.size;
}

std::string quote(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
    case '"':
      out += "\\\"";
      continue;
    case '\\':
      out += "\\\\";
      continue;
    case '\a':
      out += "\\a";
      continue;
    case '\b':
      out += "\\b";
      continue;
    case '\f':
      out += "\\f";
      continue;
    case '\n':
      out += "\\n";
      continue;
    case '\r':
      out += "\\r";
      continue;
    case '\t':
      out += "\\t";
      continue;
    case '\v':
      out += "\\v";
      continue;
    default:
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else if (size_t n = c >= 0x80 ? validUtf8Length(s, i) : 0) {
      out.append(s.substr(i, n));
      i += n - 1;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out + "\"";
}

} // namespace fbc::ir
