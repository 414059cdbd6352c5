// The gRPC mock: see mock_grpc.h.
#include "runtime/mock/mock_grpc.h"

#include "ir/grpc_descriptors.h"
#include "runtime/protocols/grpc_wire.h"
#include "runtime/protocols/h2_session.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace fbc::rt {

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// A request message beyond this is refused (RESOURCE_EXHAUSTED), as the
// HTTP mock refuses a body over its limit: a route never sees a cut one.
constexpr size_t kMaxRequest = 1 << 20;

GrpcMockAnswer failed(int64_t status, std::string message, std::string error = "") {
  GrpcMockAnswer a;
  a.status = status;
  a.message = std::move(message);
  a.error = std::move(error);
  return a;
}

// A call the mock cannot take as its routes say: the client sees why, and
// so does the mock event.
GrpcMockAnswer refused(int64_t status, const std::string &why) {
  GrpcMockAnswer a = failed(status, "fbc mock: " + why, why);
  a.route = "none";
  return a;
}

} // namespace

// One call: its request as it comes, then the answer's DATA and trailers.
struct GrpcStream {
  std::string path;
  Pairs headers; // the call's metadata, sorted by name (pseudo-headers apart)
  std::string data;
  size_t received = 0;
  GrpcMockAnswer answer;
  H2Body reply;
  std::string status, message; // the trailers' texts
};

// One client connection and its server session.
struct GrpcMock::Conn {
  GrpcMock *mock = nullptr;
  int fd = -1;
  nghttp2_session *session = nullptr;
  std::string out; // what the session sent that the socket has not taken
  std::map<int32_t, GrpcStream> streams;

  ~Conn() {
    if (session)
      nghttp2_session_del(session);
    if (fd >= 0)
      ::close(fd);
  }
  // Writes what it can; false when the connection is done with.
  bool flush() {
    h2Send(session, [this](std::string_view b) { out.append(b); });
    while (!out.empty()) {
      ssize_t n = ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        break;
      if (n <= 0)
        return false;
      out.erase(0, size_t(n));
    }
    return out.size() || nghttp2_session_want_read(session) || nghttp2_session_want_write(session);
  }
  void answer(int32_t id, GrpcStream &st);
};

namespace {

GrpcMock::Conn &conn(void *p) {
  return *static_cast<GrpcMock::Conn *>(p);
}

int onBeginHeaders(nghttp2_session *, const nghttp2_frame *f, void *ud) {
  if (f->hd.type == NGHTTP2_HEADERS && f->headers.cat == NGHTTP2_HCAT_REQUEST)
    conn(ud).streams[f->hd.stream_id];
  return 0;
}

int onHeader(nghttp2_session *, const nghttp2_frame *f, const uint8_t *name, size_t namelen,
             const uint8_t *value, size_t valuelen, uint8_t, void *ud) {
  auto it = conn(ud).streams.find(f->hd.stream_id);
  if (it == conn(ud).streams.end())
    return 0;
  std::string n(reinterpret_cast<const char *>(name), namelen);
  std::string v(reinterpret_cast<const char *>(value), valuelen);
  if (n == ":path")
    it->second.path = std::move(v);
  else if (!n.starts_with(":"))
    it->second.headers.emplace_back(std::move(n), std::move(v));
  return 0;
}

int onData(nghttp2_session *, uint8_t, int32_t id, const uint8_t *data, size_t len, void *ud) {
  auto it = conn(ud).streams.find(id);
  if (it != conn(ud).streams.end()) {
    GrpcStream &st = it->second;
    st.received += len;
    if (st.data.size() < kMaxRequest + 5)
      st.data.append(reinterpret_cast<const char *>(data),
                     std::min(len, kMaxRequest + 5 - st.data.size()));
  }
  return 0;
}

int onFrame(nghttp2_session *, const nghttp2_frame *f, void *ud) {
  bool ended = (f->hd.type == NGHTTP2_HEADERS || f->hd.type == NGHTTP2_DATA) &&
               (f->hd.flags & NGHTTP2_FLAG_END_STREAM);
  auto it = conn(ud).streams.find(f->hd.stream_id);
  if (ended && it != conn(ud).streams.end())
    conn(ud).answer(f->hd.stream_id, it->second);
  return 0;
}

int onClose(nghttp2_session *, int32_t id, uint32_t, void *ud) {
  conn(ud).streams.erase(id);
  return 0;
}

// The reply's DATA, then its trailers (grpc-status 0) once it is all read.
ssize_t readReply(nghttp2_session *s, int32_t id, uint8_t *buf, size_t length, uint32_t *flags,
                  nghttp2_data_source *, void *ud) {
  auto it = conn(ud).streams.find(id);
  if (it == conn(ud).streams.end())
    return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  GrpcStream &st = it->second;
  ssize_t n = st.reply.read(buf, length, flags);
  if (*flags & NGHTTP2_DATA_FLAG_EOF) {
    *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
    std::pair<std::string_view, std::string_view> trailers[] = {{"grpc-status", st.status}};
    std::vector<nghttp2_nv> nv = h2Fields(trailers);
    nghttp2_submit_trailer(s, id, nv.data(), nv.size());
  }
  return n;
}

} // namespace

void GrpcMock::Conn::answer(int32_t id, GrpcStream &st) {
  std::string request;
  if (st.received > kMaxRequest + 5) {
    st.answer = refused(8, "request message of " + std::to_string(st.received - 5) +
                               " bytes is over the mock's limit of " + std::to_string(kMaxRequest) +
                               " bytes");
  } else if (!grpcUnframe(st.data, request) && !st.data.empty()) {
    st.answer = refused(13, "the request is not one whole gRPC message");
  } else {
    st.answer = mock->answer(st.path, request, st.headers);
  }
  const GrpcMockAnswer &a = st.answer;
  st.status = std::to_string(a.status);
  std::pair<std::string_view, std::string_view> head[] = {{":status", "200"},
                                                          {"content-type", "application/grpc"}};
  std::vector<nghttp2_nv> nv = h2Fields(head);
  if (a.status == 0) {
    st.reply.append(grpcFrame(a.reply));
    st.reply.ended = true;
    nghttp2_data_provider body{};
    body.read_callback = readReply;
    nghttp2_submit_response(session, id, nv.data(), nv.size(), &body);
  } else { // trailers-only: the status in the one HEADERS frame
    st.message = grpcPercentEncode(a.message);
    std::pair<std::string_view, std::string_view> only[] = {{":status", "200"},
                                                            {"content-type", "application/grpc"},
                                                            {"grpc-status", st.status},
                                                            {"grpc-message", st.message}};
    nv = h2Fields(only);
    nghttp2_submit_response(session, id, nv.data(), a.message.empty() ? 3 : 4, nullptr);
  }
  Pairs fields{{"interface", mock->iface_},
               {"method", "POST"},
               {"path", st.path},
               {"route", a.route},
               {"status", "200"},
               {"grpc_status", st.status},
               {"body_size", std::to_string(a.reply.size())},
               {"req_size", std::to_string(request.size())}};
  if (!a.error.empty())
    fields.emplace_back("error", a.error);
  mock->ctx_.trace->record(EventType::Mock, mock->ctx_.id, std::move(fields));
}

GrpcMock::GrpcMock(const ir::Service &svc, MockRunContext ctx) : svc_(svc), ctx_(ctx) {
  const ir::Interface &i = svc.interfaces.front();
  iface_ = i.name;
  port_ = static_cast<uint16_t>(i.port);
}

GrpcMock::~GrpcMock() {
  stop();
}

bool GrpcMock::start(std::string &error) {
  // Made on the leaf's thread: the socket belongs to its network namespace.
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port_);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
      ::listen(listener_, 64) != 0) {
    error = "mock " + iface_ + ": cannot listen on 127.0.0.1:" + std::to_string(port_) + ": " +
            std::strerror(errno);
    stop();
    return false;
  }
  wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { serve(); });
  return true;
}

void GrpcMock::stop() {
  if (thread_.joinable()) {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_, &one, sizeof one);
    thread_.join();
  }
  conns_.clear();
  for (int *fd : {&listener_, &wake_})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
}

std::vector<std::pair<std::string, std::string>> GrpcMock::startedFields() const {
  return {{"mock", "grpc"}, {"address", "127.0.0.1:" + std::to_string(port_)}};
}

void GrpcMock::accept() {
  int fd = ::accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0)
    return;
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, 1 /* TCP_NODELAY */, &one, sizeof one);
  auto c = std::make_unique<Conn>();
  c->mock = this;
  c->fd = fd;
  nghttp2_session_callbacks *cb = nullptr;
  nghttp2_session_callbacks_new(&cb);
  nghttp2_session_callbacks_set_on_begin_headers_callback(cb, onBeginHeaders);
  nghttp2_session_callbacks_set_on_header_callback(cb, onHeader);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, onData);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cb, onFrame);
  nghttp2_session_callbacks_set_on_stream_close_callback(cb, onClose);
  nghttp2_session_server_new(&c->session, cb, c.get());
  nghttp2_session_callbacks_del(cb);
  nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 100}};
  nghttp2_submit_settings(c->session, NGHTTP2_FLAG_NONE, settings, 1);
  if (c->flush())
    conns_.emplace(fd, std::move(c));
}

void GrpcMock::serve() {
  for (;;) {
    std::vector<pollfd> fds{{wake_, POLLIN, 0}, {listener_, POLLIN, 0}};
    for (const auto &[fd, c] : conns_)
      fds.push_back({fd, short(POLLIN | (c->out.empty() ? 0 : POLLOUT)), 0});
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
      return;
    if (fds[0].revents)
      return;
    if (fds[1].revents & POLLIN)
      accept();
    for (size_t i = 2; i < fds.size(); ++i) {
      if (!fds[i].revents)
        continue;
      Conn &c = *conns_.at(fds[i].fd);
      bool open = true;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[16384];
        ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n > 0)
          open = nghttp2_session_mem_recv(c.session, reinterpret_cast<const uint8_t *>(buf),
                                          size_t(n)) >= 0;
        else
          open = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
      }
      if (!open || !c.flush())
        conns_.erase(fds[i].fd);
    }
  }
}

GrpcMockAnswer GrpcMock::answer(const std::string &method, const std::string &request,
                                const Pairs &headers) const {
  const ir::Mock &mock = *svc_.mock;
  for (const ir::MockRoute &r : mock.routes)
    if (ir::grpcRouteMatches(r.pattern, method)) {
      GrpcMockAnswer a = respond(r.response, method, request, headers);
      a.route = r.pattern;
      return a;
    }
  if (mock.fallback) {
    GrpcMockAnswer a = respond(*mock.fallback, method, request, headers);
    a.route = "default";
    return a;
  }
  return refused(12,
                 "unknown method " + method + " (no route takes it and the mock has no default=)");
}

GrpcMockAnswer GrpcMock::respond(const ir::MockResponse &r, const std::string &method,
                                 const std::string &request, const Pairs &headers) const {
  const ir::GrpcDescriptors *set = svc_.mock->grpc.get();
  const ir::GrpcMethod *m = set ? set->findMethod(method) : nullptr;
  std::string error;
  switch (r.kind) {
  case ir::MockResponseKind::GrpcError:
    return failed(r.status, r.body);
  case ir::MockResponseKind::GrpcRaw: {
    GrpcMockAnswer a;
    a.reply = r.body;
    return a;
  }
  case ir::MockResponseKind::Grpc:
  case ir::MockResponseKind::GrpcTyped: {
    GrpcMockAnswer a;
    if (!m)
      return failed(13, "fbc mock: no descriptor of " + method + " to encode its reply",
                    "no descriptor of " + method + " in the mock's descriptors=");
    if (!set->encode(m->output, r.body, a.reply, error))
      return failed(13, "fbc mock: the reply does not fit " + m->output,
                    std::string(ir::mockResponseBuiltin(r.kind)) + " body does not fit " +
                        m->output + ": " + error);
    return a;
  }
  case ir::MockResponseKind::Dynamic: {
    MockRequest req;
    req.method = "POST";
    req.path = method;
    req.headers = headers;
    std::sort(req.headers.begin(), req.headers.end());
    // The message as JSON when the set describes it, else its bytes.
    if (!m || !set->decode(m->input, request, req.body, error))
      req.body = request;
    ir::MockResponse out;
    if (!runMockHandler(ctx_, r, req, out, error))
      return failed(2, "dynamic handler error: " + error, error);
    return respond(out, method, request, headers);
  }
  default:
    return failed(13, "fbc mock: not a gRPC response",
                  std::string("dynamic handler returned ") + ir::mockResponseBuiltin(r.kind) +
                      ", not a gRPC response");
  }
}

} // namespace fbc::rt
