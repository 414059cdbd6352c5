// The gRPC step: see grpc_step.h.
#include "runtime/clients/grpc_step.h"

#include "ir/mock.h"
#include "runtime/clients/tcp_dial.h"
#include "runtime/os/clock.h"
#include "runtime/protocols/grpc_wire.h"
#include "runtime/protocols/h2_session.h"

#include <nghttp2/nghttp2.h>
#include <unistd.h>

#include <cstdlib>
#include <utility>
#include <vector>

namespace fbc::rt {
namespace {

constexpr int64_t kDialMs = 5000;

// One call's state, the session's user data.
struct Call {
  H2Body request; // the framed message, whole
  std::string httpStatus, grpcStatus, grpcMessage;
  std::string data; // the reply's DATA bytes
  bool closed = false;
  uint32_t resetCode = 0;
};

Call &call(void *p) {
  return *static_cast<Call *>(p);
}

int onHeader(nghttp2_session *, const nghttp2_frame *, const uint8_t *name, size_t namelen,
             const uint8_t *value, size_t valuelen, uint8_t, void *ud) {
  std::string_view n(reinterpret_cast<const char *>(name), namelen);
  std::string v(reinterpret_cast<const char *>(value), valuelen);
  Call &c = call(ud);
  if (n == ":status")
    c.httpStatus = std::move(v);
  else if (n == "grpc-status") // in the trailers, or a trailers-only response
    c.grpcStatus = std::move(v);
  else if (n == "grpc-message")
    c.grpcMessage = grpcPercentDecode(v);
  return 0;
}

int onData(nghttp2_session *, uint8_t, int32_t, const uint8_t *data, size_t len, void *ud) {
  call(ud).data.append(reinterpret_cast<const char *>(data), len);
  return 0;
}

int onClose(nghttp2_session *, int32_t, uint32_t error, void *ud) {
  call(ud).closed = true;
  call(ud).resetCode = error;
  return 0;
}

ssize_t readRequest(nghttp2_session *, int32_t, uint8_t *buf, size_t length, uint32_t *flags,
                    nghttp2_data_source *, void *ud) {
  return call(ud).request.read(buf, length, flags);
}

struct Session {
  nghttp2_session *s = nullptr;
  explicit Session(Call &c) {
    nghttp2_session_callbacks *cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, onHeader);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, onData);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, onClose);
    nghttp2_session_client_new(&s, cb, &c);
    nghttp2_session_callbacks_del(cb);
  }
  ~Session() { nghttp2_session_del(s); }
};

// The exchange itself: "" once the stream closed, else why not.
std::string exchange(int fd, Call &c, const std::string &host, uint16_t port,
                     const std::string &method, int64_t timeoutMs, int64_t deadline,
                     const std::function<bool()> &cancelled) {
  Session s(c);
  nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
  nghttp2_submit_settings(s.s, NGHTTP2_FLAG_NONE, settings, 1);
  std::string authority = host + ":" + std::to_string(port);
  std::string grpcTimeout = std::to_string(timeoutMs) + "m";
  std::pair<std::string_view, std::string_view> fields[] = {{":method", "POST"},
                                                            {":scheme", "http"},
                                                            {":path", method},
                                                            {":authority", authority},
                                                            {"content-type", "application/grpc"},
                                                            {"te", "trailers"},
                                                            {"grpc-timeout", grpcTimeout},
                                                            {"user-agent", "fbc"}};
  std::vector<nghttp2_nv> nv = h2Fields(fields);
  nghttp2_data_provider body{};
  body.read_callback = readRequest;
  if (nghttp2_submit_request(s.s, nullptr, nv.data(), nv.size(), &body, nullptr) < 0)
    return "cannot open a stream";
  std::string error;
  while (!c.closed) {
    std::string out;
    h2Send(s.s, [&out](std::string_view b) { out.append(b); });
    if (!out.empty() && !(error = sendAll(fd, out, deadline, cancelled)).empty())
      return error;
    std::string in;
    long n = recvSome(fd, in, deadline, cancelled, error);
    if (n < 0)
      return error;
    if (n == 0)
      return "connection closed before the call ended";
    if (ssize_t r =
            nghttp2_session_mem_recv(s.s, reinterpret_cast<const uint8_t *>(in.data()), in.size());
        r < 0)
      return std::string("HTTP/2: ") + nghttp2_strerror(int(r));
  }
  return "";
}

} // namespace

HttpStepResponse grpcResponse(const GrpcCallResult &r, bool cancelled) {
  HttpStepResponse out;
  out.durationMs = r.durationMs;
  if (r.answered)
    out.status = r.status;
  else if (cancelled)
    out.status = 1; // CANCELLED
  else if (r.error == "read: i/o timeout" || r.error == "write: i/o timeout")
    out.status = 4; // DEADLINE_EXCEEDED
  else
    out.status = 14; // UNAVAILABLE
  out.ok = out.status == 0;
  out.body = r.reply;
  if (!out.ok) { // "NOT_FOUND: no order missing", or the name alone with no message
    const std::string &why = r.answered ? r.message : r.error;
    out.error = std::string(ir::grpcCodeName(int(out.status))) + (why.empty() ? "" : ": " + why);
  }
  return out;
}

GrpcCallResult grpcCall(const std::string &host, uint16_t port, const std::string &method,
                        const std::string &request, int64_t timeoutMs,
                        const std::function<bool()> &cancelled) {
  GrpcCallResult out;
  int64_t t0 = monotonicNs();
  int fd = dialForStep(host, port, t0 + kDialMs * 1000000, cancelled, out.error);
  if (fd >= 0) {
    Call c;
    c.request.append(grpcFrame(request));
    c.request.ended = true;
    out.error = exchange(fd, c, host, port, method, timeoutMs, t0 + timeoutMs * 1000000, cancelled);
    ::close(fd);
    if (out.error.empty()) {
      if (!c.grpcStatus.empty()) {
        out.answered = true;
        out.status = std::strtoll(c.grpcStatus.c_str(), nullptr, 10);
        out.message = std::move(c.grpcMessage);
        grpcUnframe(c.data, out.reply);
      } else if (c.resetCode != NGHTTP2_NO_ERROR) {
        out.error = "stream reset (code " + std::to_string(c.resetCode) + ")";
      } else if (c.httpStatus != "200") {
        out.error = "HTTP status " + c.httpStatus;
      } else {
        out.error = "no grpc-status";
      }
    }
  }
  out.durationMs = (monotonicNs() - t0) / 1000000;
  return out;
}

} // namespace fbc::rt
