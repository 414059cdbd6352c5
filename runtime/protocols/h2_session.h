// What fbc's libnghttp2 sessions share (the proxy's HTTP/2 bridge, the gRPC
// step and bench/proxy's gRPC client): header fields as the submit calls
// take them, the loop that takes what a session has to send, and the body
// a stream's DATA source reads.
#pragma once

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

// nghttp2_nv views (nghttp2 copies them) of any range of name/value pairs
// of strings or string views.
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

// Hands `sink` each run of bytes `session` has to send now, in order (views
// of nghttp2's buffer, valid until the next run).
template <class Sink> void h2Send(nghttp2_session *session, Sink &&sink) {
  const uint8_t *data = nullptr;
  for (ssize_t n; (n = nghttp2_session_mem_send(session, &data)) > 0;)
    sink(std::string_view(reinterpret_cast<const char *>(data), size_t(n)));
}

// A stream's body as its DATA source reads it: appended as it comes, read
// from the front by an offset (a large body is not moved at each frame).
struct H2Body {
  std::string data;
  size_t off = 0;
  bool ended = false;    // the last of it came: read out, it ends the stream
  bool deferred = false; // the reader waits for more (resume it when it comes)

  size_t size() const { return data.size() - off; }
  void append(std::string_view b) {
    if (off == data.size())
      clear();
    data.append(b);
  }
  void clear() {
    data.clear();
    off = 0;
  }
  // A read callback's answer: up to `length` bytes into `buf`, with EOF in
  // `flags` once all of an ended body is read; NGHTTP2_ERR_DEFERRED (and
  // `deferred` set) when nothing is there yet and more is to come.
  ssize_t read(uint8_t *buf, size_t length, uint32_t *flags) {
    size_t n = std::min(length, size());
    std::memcpy(buf, data.data() + off, n);
    off += n;
    if (size() == 0 && ended) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
    } else if (n == 0) {
      deferred = true;
      return NGHTTP2_ERR_DEFERRED;
    }
    return ssize_t(n);
  }
};

} // namespace fbc::rt
