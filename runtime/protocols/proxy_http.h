// The proxy's HTTP/1.1 codec (runtime/protocols/proxy_http.cpp).
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <memory>
#include <string>

namespace fbc::rt {

std::unique_ptr<ProtocolCodec> makeHttpCodec();

// What the proxy answers an HTTP request with (error() / response()), over
// HTTP/1.1 (this codec) or HTTP/2 (runtime/proxy/proxy_h2.cpp): status=
// (default 500 for error(), 200 for response()) and the body: body= when
// given, else error()'s {"error":"<message, or the status's reason>"}.
struct HttpReply {
  int status = 0;
  std::string body;
  std::string reason; // the status's reason phrase ("Fault" when it has none)
};
HttpReply httpReply(const ReplySpec &spec);

} // namespace fbc::rt
