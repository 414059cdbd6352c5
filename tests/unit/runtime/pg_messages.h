// PostgreSQL wire messages (protocol 3.0) for the unit tests of its codec
// and of the proxy in front of it (proto_postgres_test, proxy_delay_test):
// the frontend messages libpq sends, and any message by type and body.
#pragma once

// GCC 12 reports "literal" + std::string as overlapping memcpy under -O3
// (a false positive, GCC bug 105329); every builder here uses it, and the
// tests that include this header build their messages the same way.
#pragma GCC diagnostic ignored "-Wrestrict"

#include <cstdint>
#include <string>

namespace fbc::rt::pgmsg {

inline std::string be32(uint32_t v) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8)
    out += static_cast<char>((v >> shift) & 0xff);
  return out;
}

// A message: type, length, body.
inline std::string msg(char type, const std::string &body) {
  return std::string(1, type) + be32(static_cast<uint32_t>(body.size() + 4)) + body;
}

inline std::string cstr(const std::string &s) {
  return s + '\0';
}

inline std::string sslRequest() {
  return be32(8) + be32(80877103);
}
inline std::string startup() {
  std::string body =
      be32(196608) + cstr("user") + cstr("postgres") + cstr("database") + cstr("shop") + cstr("");
  return be32(static_cast<uint32_t>(body.size() + 4)) + body;
}
inline std::string query(const std::string &sql) {
  return msg('Q', cstr(sql));
}
inline std::string parse(const std::string &name, const std::string &sql) {
  return msg('P', cstr(name) + cstr(sql) + std::string(2, '\0'));
}
inline std::string bind(const std::string &stmt) {
  return msg('B', cstr("") + cstr(stmt) + std::string(2, '\0') + std::string(2, '\0') +
                      std::string(2, '\0'));
}
inline std::string describePortal() {
  return msg('D', "P" + cstr(""));
}
inline std::string execute() {
  return msg('E', cstr("") + be32(0));
}
inline std::string sync() {
  return msg('S', "");
}
inline std::string flush() {
  return msg('H', "");
}

} // namespace fbc::rt::pgmsg
