// Feeding a protocol codec (runtime/protocols/proxy_protocol.h) a client's byte stream
// the way the proxy does: `chunk` bytes at a time, the pending buffer
// growing until the codec consumes a unit. Shared by the codec unit tests.
#pragma once

#include "runtime/protocols/proxy_protocol.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

// Every unit the codec splits from `stream`, in order; each consumes at
// least one byte and no more than is pending, and nothing is left over.
inline std::vector<RequestInfo> splitInChunks(ProtocolCodec &codec, std::string_view stream,
                                              size_t chunk) {
  std::vector<RequestInfo> out;
  std::string pending;
  size_t next = 0;
  for (;;) {
    RequestInfo r = codec.splitRequest(pending);
    if (r.split == Split::NeedMore) {
      if (next >= stream.size())
        break;
      pending.append(stream.substr(next, chunk));
      next += chunk;
      continue;
    }
    EXPECT_GT(r.length, 0u);
    EXPECT_LE(r.length, pending.size());
    pending.erase(0, r.length);
    out.push_back(std::move(r));
  }
  EXPECT_EQ(pending, "");
  return out;
}

} // namespace fbc::rt
