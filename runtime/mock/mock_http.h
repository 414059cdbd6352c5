// An HTTP mock_service run in-process: a libmicrohttpd daemon on
// 127.0.0.1:<port> that answers from the mock's routes (runtime/mock/mock_route.h),
// its default= (else 404 "not found"), and dynamic() handlers called with
// the request (runtime/mock/mock_request.h). Every request becomes a `mock` event
// in the test's trace.
#pragma once

#include "ir/mock.h"
#include "runtime/mock/mock_request.h"
#include "runtime/os/in_process.h"
#include "runtime/os/interpreter_lock.h"
#include "runtime/trace/trace.h"

#include <cstdint>
#include <string>

struct MHD_Daemon;
struct MHD_Connection;

namespace fbc::star {
class Thread;
}

namespace fbc::rt {

// What a mock needs from the test that runs it.
struct MockRunContext {
  Trace *trace = nullptr;
  ServiceId id = kNoService;
  // Dynamic handlers are Starlark: they take turns with the test body on
  // its lock, on a thread of their own made like `like` (the spec's).
  InterpreterLock *lock = nullptr;
  const star::Thread *like = nullptr;
};

// Calls dynamic() response `dyn`'s handler with `req`, on a thread of its
// own taking turns with the test body (the HTTP and gRPC mocks' handlers):
// false, and why, when it failed or returned no mock_response.
bool runMockHandler(const MockRunContext &ctx, const ir::MockResponse &dyn, const MockRequest &req,
                    ir::MockResponse &out, std::string &error);

class HttpMock final : public InProcessService {
public:
  HttpMock(const ir::Service &svc, MockRunContext ctx);
  ~HttpMock() override;

  bool start(std::string &error) override;
  void stop() override;
  std::vector<std::pair<std::string, std::string>> startedFields() const override;

  // The answer to `req` (what a request through the daemon gets), with the
  // route that matched ("" for default=, none: 404) and, for a dynamic
  // handler that failed, why (the answer is then a 500).
  ir::MockResponse answer(const MockRequest &req, std::string &route, std::string &error) const;

  // libmicrohttpd's access handler (called from its thread): collects the
  // request across calls in *state, then queues the answer (an MHD_Result).
  int onRequest(MHD_Connection *c, const char *url, const char *method, const char *upload,
                size_t *uploadSize, void **state);
  static void release(void *state);

private:
  struct Pending;
  ir::MockResponse callDynamic(const ir::MockResponse &dyn, const MockRequest &req,
                               std::string &error) const;

  const ir::Service &svc_;
  MockRunContext ctx_;
  std::string iface_;
  uint16_t port_ = 0;
  MHD_Daemon *daemon_ = nullptr;
};

} // namespace fbc::rt
