// gRPC's framing: see grpc_wire.h.
#include "runtime/protocols/grpc_wire.h"

namespace fbc::rt {

std::string grpcFrame(std::string_view message) {
  std::string out(5, '\0');
  auto n = static_cast<uint32_t>(message.size());
  for (int i = 0; i < 4; ++i)
    out[size_t(1 + i)] = char((n >> (24 - 8 * i)) & 0xff);
  out.append(message);
  return out;
}

bool grpcUnframe(std::string_view data, std::string &message) {
  if (data.size() < 5)
    return false;
  uint32_t n = 0;
  for (size_t i = 1; i < 5; ++i)
    n = (n << 8) | static_cast<unsigned char>(data[i]);
  if (data.size() - 5 < n)
    return false;
  message.assign(data.substr(5, n));
  return true;
}

std::string grpcPercentEncode(std::string_view s) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c <= 0x7e && c != '%') {
      out += char(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

namespace {
int hexDigit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}
} // namespace

std::string grpcPercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    int hi = 0, lo = 0;
    if (s[i] == '%' && i + 2 < s.size() && (hi = hexDigit(s[i + 1])) >= 0 &&
        (lo = hexDigit(s[i + 2])) >= 0) {
      out += char(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i]; // a malformed escape stays as it is, as gRPC's own decoders do
    }
  }
  return out;
}

} // namespace fbc::rt
