// HTTP/2 header fields as libnghttp2's submit calls take them (nghttp2_nv
// views; nghttp2 copies them), from any range of name/value pairs of
// strings or string views: the proxy's HTTP/2 bridge, the gRPC step and
// bench/proxy's gRPC client.
#pragma once

#include <nghttp2/nghttp2.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace fbc::rt {

template <class Fields> std::vector<nghttp2_nv> h2Fields(const Fields &fields) {
  auto bytes = [](std::string_view s) {
    return reinterpret_cast<uint8_t *>(const_cast<char *>(s.data()));
  };
  std::vector<nghttp2_nv> out;
  for (const auto &[name, value] : fields) {
    std::string_view n = name, v = value;
    out.push_back({bytes(n), bytes(v), n.size(), v.size(), NGHTTP2_NV_FLAG_NONE});
  }
  return out;
}

} // namespace fbc::rt
