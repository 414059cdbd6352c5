#include "runtime/mock/mock_http.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/ops.h"
#include "ir/builtins/mock_values.h"
#include "runtime/mock/mhd_loader.h"
#include "runtime/mock/mock_route.h"

#include <llvm/ADT/StringRef.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace fbc::rt {

namespace {

// A request body beyond this is refused with 413 and the mock event's error
// (the reference silently reads at most 1 MiB; a route never sees a cut body).
constexpr size_t kMaxBody = 1 << 20;
// A dynamic handler that runs away is stopped after this many steps.
constexpr uint64_t kHandlerSteps = 10'000'000;

using Pairs = std::vector<std::pair<std::string, std::string>>;

// First value of each name, sorted by name (the reference keeps the first).
MHD_Result collect(void *cls, MHD_ValueKind kind, const char *key, const char *value) {
  auto *out = static_cast<Pairs *>(cls);
  std::string k = kind == MHD_HEADER_KIND ? canonicalHeaderName(key) : std::string(key);
  auto it = std::lower_bound(out->begin(), out->end(), k,
                             [](const auto &p, const std::string &n) { return p.first < n; });
  if (it == out->end() || it->first != k)
    out->insert(it, {k, value ? value : ""});
  return MHD_YES;
}

MHD_Result accessHandler(void *cls, MHD_Connection *c, const char *url, const char *method,
                         const char *, const char *upload, size_t *uploadSize, void **state) {
  return static_cast<MHD_Result>(
      static_cast<HttpMock *>(cls)->onRequest(c, url, method, upload, uploadSize, state));
}

void completed(void *, MHD_Connection *, void **state, MHD_RequestTerminationCode) {
  HttpMock::release(*state);
  *state = nullptr;
}

ir::MockResponse plain(int64_t status, std::string body) {
  ir::MockResponse r;
  r.kind = ir::MockResponseKind::Text;
  r.status = status;
  r.body = std::move(body);
  r.contentType = "text/plain; charset=utf-8";
  return r;
}

} // namespace

struct HttpMock::Pending {
  MockRequest req;
  size_t received = 0; // body bytes, including those cut
};

HttpMock::HttpMock(const ir::Service &svc, MockRunContext ctx) : svc_(svc), ctx_(ctx) {
  const ir::Interface &i = svc.interfaces.front();
  iface_ = i.name;
  port_ = static_cast<uint16_t>(i.port);
}

HttpMock::~HttpMock() {
  stop();
}

bool HttpMock::start(std::string &error) {
  if (!loadMhd(error)) {
    error = "mock " + iface_ + ": " + error;
    return false;
  }
  const Mhd &m = mhd();
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port_);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // One internal thread serves every connection: requests are answered one
  // at a time, as dynamic handlers run one at a time anyway.
  daemon_ =
      m.startDaemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, port_, nullptr, nullptr,
                    &accessHandler, this, MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_NOTIFY_COMPLETED,
                    &completed, nullptr, MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_END);
  if (!daemon_) {
    error = "mock " + iface_ + ": cannot listen on 127.0.0.1:" + std::to_string(port_) + ": " +
            std::strerror(errno);
    return false;
  }
  return true;
}

void HttpMock::stop() {
  if (daemon_)
    mhd().stopDaemon(daemon_);
  daemon_ = nullptr;
}

std::vector<std::pair<std::string, std::string>> HttpMock::startedFields() const {
  return {{"mock", "http"}, {"address", "127.0.0.1:" + std::to_string(port_)}};
}

int HttpMock::onRequest(MHD_Connection *c, const char *url, const char *method, const char *upload,
                        size_t *uploadSize, void **state) {
  HttpMock *self = this;
  const Mhd &m = mhd();
  auto *p = static_cast<Pending *>(*state);
  if (!p) { // the headers are in: the body (if any) comes in the next calls
    p = new Pending;
    p->req.method = method;
    p->req.path = url;
    m.getConnectionValues(c, MHD_HEADER_KIND, collect, &p->req.headers);
    m.getConnectionValues(c, MHD_GET_ARGUMENT_KIND, collect, &p->req.query);
    *state = p;
    return MHD_YES;
  }
  if (*uploadSize) {
    p->received += *uploadSize;
    if (p->req.body.size() < kMaxBody)
      p->req.body.append(upload, std::min(*uploadSize, kMaxBody - p->req.body.size()));
    *uploadSize = 0;
    return MHD_YES;
  }
  std::string route, error;
  ir::MockResponse r;
  if (p->received > kMaxBody) {
    // Never a handler's view of a cut body: the request is refused, and the
    // event says why.
    error = "request body of " + std::to_string(p->received) +
            " bytes is over the mock's limit of " + std::to_string(kMaxBody) + " bytes";
    r.status = 413;
    r.body = "fbc mock: " + error + "\n";
    r.contentType = "text/plain";
  } else {
    r = self->answer(p->req, route, error);
  }
  int64_t status = r.status ? r.status : 200;
  MHD_Response *resp =
      m.createResponseFromBuffer(r.body.size(), r.body.data(), MHD_RESPMEM_MUST_COPY);
  bool typed = false;
  for (const auto &[k, v] : r.headers) {
    m.addResponseHeader(resp, k.c_str(), v.c_str());
    typed |= llvm::StringRef(k).equals_insensitive("Content-Type");
  }
  if (!typed && !r.contentType.empty())
    m.addResponseHeader(resp, "Content-Type", r.contentType.c_str());
  MHD_Result queued = m.queueResponse(c, static_cast<unsigned>(status), resp);
  m.destroyResponse(resp);

  Pairs fields{{"interface", self->iface_},
               {"method", p->req.method},
               {"path", p->req.path},
               {"route", route},
               {"status", std::to_string(status)},
               {"body_size", std::to_string(r.body.size())},
               {"req_size", std::to_string(p->received)}};
  if (!error.empty())
    fields.emplace_back("error", error);
  self->ctx_.trace->record(EventType::Mock, self->ctx_.id, std::move(fields));
  return queued;
}

void HttpMock::release(void *state) {
  delete static_cast<Pending *>(state);
}

ir::MockResponse HttpMock::answer(const MockRequest &req, std::string &route,
                                  std::string &error) const {
  const ir::Mock &mock = *svc_.mock;
  for (const ir::MockRoute &r : mock.routes)
    if (mockRouteMatches(r.pattern, req.method, req.path)) {
      route = r.pattern;
      if (r.response.kind == ir::MockResponseKind::Dynamic)
        return callDynamic(r.response, req, error);
      return r.response;
    }
  if (mock.fallback) {
    route = "default";
    if (mock.fallback->kind == ir::MockResponseKind::Dynamic)
      return callDynamic(*mock.fallback, req, error);
    return *mock.fallback;
  }
  route = "none";
  return plain(404, "not found\n");
}

bool runMockHandler(const MockRunContext &ctx, const ir::MockResponse &dyn, const MockRequest &req,
                    ir::MockResponse &out, std::string &error) {
  std::lock_guard turn(*ctx.lock);
  star::Heap heap; // what the handler makes goes when it returns
  star::Thread th(heap, *ctx.like);
  th.hostData = nullptr; // not a test body: no steps, faults or assertions
  th.setMaxSteps(kHandlerSteps);
  try {
    star::Value arg = star::Value::object(heap.make<MockRequestValue>(req));
    star::Value v = star::call(th, dyn.fn.value, llvm::ArrayRef<star::Value>(arg));
    if (const ir::MockResponse *r = ir::builtins::mockResponseOf(v, error)) {
      out = *r;
      return true;
    }
  } catch (const star::EvalError &e) {
    error = e.message();
  }
  return false;
}

ir::MockResponse HttpMock::callDynamic(const ir::MockResponse &dyn, const MockRequest &req,
                                       std::string &error) const {
  ir::MockResponse r;
  if (runMockHandler(ctx_, dyn, req, r, error))
    return r;
  return plain(500, "dynamic handler error: " + error + "\n");
}

} // namespace fbc::rt
