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

// A unit as a test compares it whole: "request set|user:1|26", "pass ||6",
// "|noreply" after a request owed no reply.
inline std::string unitLabel(const RequestInfo &r) {
  std::string_view kind = r.split == Split::Request       ? "request "
                          : r.split == Split::Passthrough ? "pass "
                                                          : "other ";
  return std::string(kind) + r.method + "|" + r.target + "|" + std::to_string(r.length) +
         (r.noReply ? "|noreply" : "");
}

// The units a fresh Codec splits from `stream`, at every chunk size, are
// `want` (unitLabel's lines).
template <class Codec>
void expectUnitsAtEveryChunkSize(std::string_view stream, const std::vector<std::string> &want) {
  for (size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    Codec codec;
    std::vector<std::string> got;
    for (const RequestInfo &r : splitInChunks(codec, stream, chunk))
      got.push_back(unitLabel(r));
    EXPECT_EQ(got, want);
  }
}

// Feeds a server's `replies` to the codec `chunk` bytes at a time: how
// many replies it ended, `last` the status of the last one ("" for none).
inline size_t countReplies(ProtocolCodec &codec, std::string_view replies, size_t chunk,
                           std::string &last) {
  size_t ended = 0;
  for (size_t at = 0; at < replies.size(); at += chunk) {
    std::string status;
    if (size_t n = codec.feedResponse(replies.substr(at, chunk), status)) {
      ended += n;
      last = status;
    }
  }
  return ended;
}

} // namespace fbc::rt
