#include "ir/quote.h"

#include "frontend/lib/utf8.h"

#include <cctype>
#include <charconv>

namespace fbc::ir {

size_t validUtf8Length(std::string_view s, size_t i) {
  star::utf8::Decoded d = star::utf8::decode(s.substr(i));
  return d.rune == star::utf8::kRuneError && d.size == 1 ? 0 : d.size;
}

std::string starlarkIdentifier(std::string_view name) {
  std::string out;
  for (char c : name)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
    out.insert(out.begin(), '_');
  return out;
}

size_t unquote(std::string_view s, std::string &out) {
  out.clear();
  if (s.empty() || s[0] != '"')
    return 0;
  auto hexDigit = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  for (size_t i = 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"')
      return i + 1;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= s.size())
      return 0;
    switch (s[i]) {
    case '"':
    case '\\':
      out += s[i];
      break;
    case 'a':
      out += '\a';
      break;
    case 'b':
      out += '\b';
      break;
    case 'f':
      out += '\f';
      break;
    case 'n':
      out += '\n';
      break;
    case 'r':
      out += '\r';
      break;
    case 't':
      out += '\t';
      break;
    case 'v':
      out += '\v';
      break;
    case 'x': {
      int hi = i + 2 < s.size() ? hexDigit(s[i + 1]) : -1;
      int lo = i + 2 < s.size() ? hexDigit(s[i + 2]) : -1;
      if (hi < 0 || lo < 0)
        return 0;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
      break;
    }
    default:
      return 0;
    }
  }
  return 0;
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

std::string formatNumber(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, static_cast<size_t>(r.ptr - buf));
}

} // namespace fbc::ir
