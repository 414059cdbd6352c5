// The proxy's HTTP/1.1 codec (runtime/protocols/proxy_http.cpp).
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <memory>

namespace fbc::rt {

std::unique_ptr<ProtocolCodec> makeHttpCodec();

} // namespace fbc::rt
