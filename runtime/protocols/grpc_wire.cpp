// gRPC's framing: see grpc_wire.h.
#include "runtime/protocols/grpc_wire.h"

#include <llvm/ADT/StringExtras.h>

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

std::string grpcPercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && llvm::isHexDigit(s[i + 1]) &&
        llvm::isHexDigit(s[i + 2])) {
      out += char(llvm::hexDigitValue(s[i + 1]) * 16 + llvm::hexDigitValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i]; // a malformed escape stays as it is, as gRPC's own decoders do
    }
  }
  return out;
}

} // namespace fbc::rt
