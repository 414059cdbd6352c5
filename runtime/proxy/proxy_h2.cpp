// The proxy's HTTP/2 bridge: see proxy_h2.h.
#include "runtime/proxy/proxy_h2.h"

#include "runtime/protocols/grpc_wire.h"
#include "runtime/protocols/h2_session.h"
#include "runtime/protocols/proxy_http.h"

#include <nghttp2/nghttp2.h>

namespace fbc::rt {
namespace {

using Fields = H2Bridge::Fields;

const std::string *field(const Fields &f, std::string_view name) {
  for (const auto &[n, v] : f)
    if (n == name)
      return &v;
  return nullptr;
}

} // namespace

// The sessions' callbacks: `user_data` is the bridge, and which session
// called says which side the frame came from.
struct H2Callbacks {
  static H2Bridge &self(void *p) { return *static_cast<H2Bridge *>(p); }

  // The client's stream for an upstream stream id, or null.
  static H2Bridge::Stream *byUp(H2Bridge &b, int32_t up, int32_t *down = nullptr) {
    auto m = b.byUp_.find(up);
    if (m == b.byUp_.end())
      return nullptr;
    auto s = b.streams_.find(m->second);
    if (s == b.streams_.end())
      return nullptr;
    if (down)
      *down = m->second;
    return &s->second;
  }

  static void resumeUp(H2Bridge &b, H2Bridge::Stream &s) {
    if (s.up > 0 && s.body.deferred) {
      s.body.deferred = false;
      nghttp2_session_resume_data(b.up_, s.up);
    }
  }

  static void resumeDown(H2Bridge &b, int32_t id, H2Bridge::Stream &s) {
    if (s.resp.deferred) {
      s.resp.deferred = false;
      nghttp2_session_resume_data(b.down_, id);
    }
  }

  static int beginHeaders(nghttp2_session *session, const nghttp2_frame *frame, void *ud) {
    H2Bridge &b = self(ud);
    if (session == b.down_ && frame->hd.type == NGHTTP2_HEADERS &&
        frame->headers.cat == NGHTTP2_HCAT_REQUEST)
      b.streams_[frame->hd.stream_id];
    return 0;
  }

  static int header(nghttp2_session *session, const nghttp2_frame *frame, const uint8_t *name,
                    size_t namelen, const uint8_t *value, size_t valuelen, uint8_t, void *ud) {
    H2Bridge &b = self(ud);
    if (frame->hd.type != NGHTTP2_HEADERS)
      return 0;
    H2Bridge::Fields *to = nullptr;
    if (session == b.down_) {
      // A request's fields (a client's trailers, which gRPC never sends, are not relayed).
      auto s = b.streams_.find(frame->hd.stream_id);
      if (s != b.streams_.end() && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
        to = &s->second.request;
    } else if (H2Bridge::Stream *s = byUp(b, frame->hd.stream_id)) {
      to = frame->headers.cat == NGHTTP2_HCAT_RESPONSE ? &s->response : &s->trailers;
    }
    if (to)
      to->emplace_back(std::string(reinterpret_cast<const char *>(name), namelen),
                       std::string(reinterpret_cast<const char *>(value), valuelen));
    return 0;
  }

  static int frameRecv(nghttp2_session *session, const nghttp2_frame *frame, void *ud) {
    H2Bridge &b = self(ud);
    bool end = frame->hd.flags & NGHTTP2_FLAG_END_STREAM;
    if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)
      return 0;
    if (session == b.down_) {
      auto it = b.streams_.find(frame->hd.stream_id);
      if (it == b.streams_.end())
        return 0;
      it->second.body.ended = it->second.body.ended || end;
      if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
        b.request(frame->hd.stream_id); // may drop the connection: nothing after it
      else
        resumeUp(b, it->second);
      return 0;
    }
    int32_t id = 0;
    H2Bridge::Stream *s = byUp(b, frame->hd.stream_id, &id);
    if (!s)
      return 0;
    s->resp.ended = s->resp.ended || end;
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_RESPONSE) {
      const std::string *status = field(s->response, ":status");
      if (status && !status->empty() && (*status)[0] == '1') {
        s->response.clear(); // an interim response: the final one follows
        return 0;
      }
      std::vector<nghttp2_nv> nv = h2Fields(s->response);
      nghttp2_data_provider body{};
      body.read_callback = readDown;
      nghttp2_submit_response(b.down_, id, nv.data(), nv.size(), end ? nullptr : &body);
      return 0;
    }
    resumeDown(b, id, *s);
    return 0;
  }

  static int dataChunk(nghttp2_session *session, uint8_t, int32_t stream_id, const uint8_t *data,
                       size_t len, void *ud) {
    H2Bridge &b = self(ud);
    std::string_view bytes(reinterpret_cast<const char *>(data), len);
    if (session == b.down_) {
      auto it = b.streams_.find(stream_id);
      if (it == b.streams_.end() || it->second.answered)
        return 0;
      it->second.body.append(bytes);
      resumeUp(b, it->second);
      return 0;
    }
    int32_t id = 0;
    if (H2Bridge::Stream *s = byUp(b, stream_id, &id)) {
      s->resp.append(bytes);
      resumeDown(b, id, *s);
    }
    return 0;
  }

  // A stream ended: a reset on one side resets the other; the client's
  // stream closing forgets it.
  static int streamClose(nghttp2_session *session, int32_t stream_id, uint32_t error, void *ud) {
    H2Bridge &b = self(ud);
    if (session == b.down_) {
      auto it = b.streams_.find(stream_id);
      if (it == b.streams_.end())
        return 0;
      H2Bridge::Stream &s = it->second;
      if (s.up > 0) {
        if (!s.upClosed && error != NGHTTP2_NO_ERROR)
          nghttp2_submit_rst_stream(b.up_, NGHTTP2_FLAG_NONE, s.up, NGHTTP2_CANCEL);
        b.byUp_.erase(s.up);
      }
      b.streams_.erase(it);
      return 0;
    }
    int32_t id = 0;
    H2Bridge::Stream *s = byUp(b, stream_id, &id);
    if (!s)
      return 0;
    s->upClosed = true;
    if (!s->resp.ended) // reset, or closed without a whole response
      nghttp2_submit_rst_stream(b.down_, NGHTTP2_FLAG_NONE, id,
                                error != NGHTTP2_NO_ERROR ? error
                                                          : uint32_t(NGHTTP2_INTERNAL_ERROR));
    return 0;
  }

  // The request body, as the client's DATA brings it.
  static ssize_t readUp(nghttp2_session *, int32_t stream_id, uint8_t *buf, size_t length,
                        uint32_t *flags, nghttp2_data_source *, void *ud) {
    H2Bridge::Stream *s = byUp(self(ud), stream_id);
    if (!s) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
      return 0;
    }
    return s->body.read(buf, length, flags);
  }

  // The response body (the service's, or one of the proxy's replies), then
  // its trailers.
  static ssize_t readDown(nghttp2_session *session, int32_t stream_id, uint8_t *buf, size_t length,
                          uint32_t *flags, nghttp2_data_source *, void *ud) {
    H2Bridge &b = self(ud);
    auto it = b.streams_.find(stream_id);
    if (it == b.streams_.end()) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
      return 0;
    }
    H2Bridge::Stream &s = it->second;
    ssize_t n = s.resp.read(buf, length, flags);
    if ((*flags & NGHTTP2_DATA_FLAG_EOF) && !s.trailers.empty()) {
      *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
      std::vector<nghttp2_nv> nv = h2Fields(s.trailers);
      nghttp2_submit_trailer(session, stream_id, nv.data(), nv.size());
    }
    return n;
  }
};

H2Bridge::H2Bridge(Host &host, bool grpc) : host_(host), grpc_(grpc) {
  nghttp2_session_callbacks *cb = nullptr;
  nghttp2_session_callbacks_new(&cb);
  nghttp2_session_callbacks_set_on_begin_headers_callback(cb, H2Callbacks::beginHeaders);
  nghttp2_session_callbacks_set_on_header_callback(cb, H2Callbacks::header);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cb, H2Callbacks::frameRecv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, H2Callbacks::dataChunk);
  nghttp2_session_callbacks_set_on_stream_close_callback(cb, H2Callbacks::streamClose);
  nghttp2_session_server_new(&down_, cb, this);
  nghttp2_session_client_new(&up_, cb, this);
  nghttp2_session_callbacks_del(cb);
  nghttp2_settings_entry down[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 100}};
  nghttp2_submit_settings(down_, NGHTTP2_FLAG_NONE, down, 1);
  nghttp2_settings_entry up[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
  nghttp2_submit_settings(up_, NGHTTP2_FLAG_NONE, up, 1);
}

H2Bridge::~H2Bridge() {
  nghttp2_session_del(down_);
  nghttp2_session_del(up_);
}

H2Bridge::Fed H2Bridge::fromClient(std::string_view bytes) {
  if (!preface_)
    early_.append(bytes);
  ssize_t n = nghttp2_session_mem_recv(down_, reinterpret_cast<const uint8_t *>(bytes.data()),
                                       bytes.size());
  if (n < 0)
    return !preface_ && n == NGHTTP2_ERR_BAD_CLIENT_MAGIC ? Fed::NotHttp2 : Fed::Broken;
  if (!preface_ && early_.size() >= NGHTTP2_CLIENT_MAGIC_LEN) {
    preface_ = true;
    std::string().swap(early_);
  }
  return Fed::Ok;
}

H2Bridge::Fed H2Bridge::fromServer(std::string_view bytes) {
  ssize_t n =
      nghttp2_session_mem_recv(up_, reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  return n < 0 ? Fed::Broken : Fed::Ok;
}

void H2Bridge::takeForClient(tcp_relay::OutBuffer &to) {
  h2Send(down_, [&to](std::string_view b) { to.append(b); });
}

bool H2Bridge::takeForServer(tcp_relay::OutBuffer &to) {
  size_t before = to.size();
  if (upStarted_)
    h2Send(up_, [&to](std::string_view b) { to.append(b); });
  return to.size() > before;
}

void H2Bridge::request(int32_t id) {
  if (dropped_)
    return;
  Stream &s = streams_[id];
  const std::string *method = field(s.request, ":method");
  const std::string *path = field(s.request, ":path");
  std::string p = path ? *path : "";
  if (grpc_) { // method= is the full method name, /pkg.Service/Method
    s.method = p;
  } else {
    s.method = method ? *method : "";
    s.target = p.substr(0, p.find_first_of("?#"));
  }
  apply(id, host_.decide(s.method, s.target));
}

void H2Bridge::apply(int32_t id, ProxyDecision d) {
  auto it = streams_.find(id);
  if (it == streams_.end())
    return; // the client reset it while it waited
  Stream &s = it->second;
  if (d.delayNs > 0) {
    int64_t ns = d.delayNs;
    d.delayNs = 0; // served by the time the timer applies it
    host_.after(ns, [this, id, d = std::move(d)]() mutable { apply(id, std::move(d)); });
    return;
  }
  if (!d.action || *d.action == ir::ProxyAction::Duplicate)
    return forward(id, s);
  if (*d.action == ir::ProxyAction::Drop) {
    dropped_ = true; // the session may still hand over frames of this read
    return host_.drop(d.rule->reset);
  }
  reply(id, s, replySpec(*d.rule));
}

void H2Bridge::forward(int32_t id, Stream &s) {
  std::vector<nghttp2_nv> nv = h2Fields(s.request);
  nghttp2_data_provider body{};
  body.read_callback = H2Callbacks::readUp;
  bool bodyless = s.body.ended && s.body.size() == 0;
  int32_t up = nghttp2_submit_request(up_, nullptr, nv.data(), nv.size(),
                                      bodyless ? nullptr : &body, nullptr);
  if (up < 0) { // no stream left upstream: the client may retry elsewhere
    nghttp2_submit_rst_stream(down_, NGHTTP2_FLAG_NONE, id, NGHTTP2_REFUSED_STREAM);
    return;
  }
  upStarted_ = true;
  s.up = up;
  byUp_[up] = id;
}

void H2Bridge::reply(int32_t id, Stream &s, const ReplySpec &spec) {
  s.answered = true;
  s.body.clear();
  Fields h;
  bool withBody = true;
  if (grpc_) {
    h = {{":status", "200"}, {"content-type", "application/grpc"}};
    if (spec.kind == ReplyKind::Response) { // one message, then grpc-status 0
      s.resp.append(grpcFrame(spec.body));
      s.trailers = {{"grpc-status", "0"}};
    } else { // trailers-only: the status in the response's one HEADERS
      h.emplace_back("grpc-status", std::to_string(spec.status ? spec.status : 13));
      if (!spec.message.empty())
        h.emplace_back("grpc-message", grpcPercentEncode(spec.message));
      withBody = false;
    }
  } else {
    HttpReply r = httpReply(spec);
    h = {{":status", std::to_string(r.status)},
         {"content-type", "application/json"},
         {"content-length", std::to_string(r.body.size())}};
    withBody = !r.body.empty();
    s.resp.append(r.body);
  }
  s.resp.ended = true;
  std::vector<nghttp2_nv> nv = h2Fields(h);
  nghttp2_data_provider body{};
  body.read_callback = H2Callbacks::readDown;
  nghttp2_submit_response(down_, id, nv.data(), nv.size(), withBody ? &body : nullptr);
}

} // namespace fbc::rt
