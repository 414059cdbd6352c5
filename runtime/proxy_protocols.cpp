// The proxy's protocol table: interface(protocol=) name -> codec factory
// (runtime/proxy_protocol.h says what a codec does). One line per protocol;
// a protocol without a line is proxied as plain TCP.
#include "runtime/proxy_http.h"
#include "runtime/proxy_protocol.h"

namespace fbc::rt {

namespace {

constexpr ProxyProtocol kProxyProtocols[] = {
    {"http", makeHttpCodec, nullptr},
};

} // namespace

const ProxyProtocol *findProxyProtocol(std::string_view name) {
  for (const ProxyProtocol &p : kProxyProtocols)
    if (p.name == name)
      return &p;
  return nullptr;
}

} // namespace fbc::rt
