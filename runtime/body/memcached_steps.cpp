// The memcached steps (protocol_steps.h): one text-protocol command per
// call over a fresh connection (runtime/clients/memcached_step.h), its
// arguments by keyword or positionally in the order ir/protocols.h gives
// them, the reply as the reference's step response.
#include "ir/json_writer.h"
#include "ir/protocols.h"
#include "runtime/body/builtin_args.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/memcached_step.h"
#include "runtime/trace/trace.h"
#include "runtime/values/response_value.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>

namespace fbc::rt {

using star::Value;

namespace {

// The arguments of a memcached step, fallbacks filled in.
std::vector<std::string> memcachedArgs(star::Thread &t, const StepTarget &to,
                                       const ir::StepMethod &m, const star::Args &args) {
  std::vector<std::string> out = tableStepArgs(t, to, m, args);
  // The protocol's own limit on keys: a longer key or one with a space
  // would be a different command on the wire.
  if (out[0].empty() || out[0].size() > 250 ||
      std::any_of(out[0].begin(), out[0].end(),
                  [](unsigned char c) { return c <= ' ' || c == 0x7f; }))
    failBadArgument(t, to.what +
                           "(): key must be 1 to 250 bytes without spaces or control characters");
  return out;
}

// The wire request of a memcached step.
std::string memcachedRequest(std::string_view method, const std::vector<std::string> &a) {
  if (method == "set")
    return "set " + a[0] + " 0 " + a[2] + " " + std::to_string(a[1].size()) + "\r\n" + a[1] +
           "\r\n";
  if (method == "incr")
    return "incr " + a[0] + " " + a[1] + "\r\n";
  return std::string(method) + " " + a[0] + "\r\n"; // get, delete
}

// The step's response: status 0, ok when a reply other than an error
// arrived, the reply as the body {"value": ...}: a get's value (null on a
// miss), incr's new value as a number, else the reply word (STORED,
// DELETED, NOT_FOUND).
HttpStepResponse memcachedResponse(std::string_view method, const MemcachedStepResult &r) {
  HttpStepResponse out;
  out.durationMs = r.durationMs;
  if (!r.ok) {
    out.error = r.error;
    return out;
  }
  if (isMemcachedError(r.status)) {
    out.error = "memcached error: " + r.line;
    return out;
  }
  out.ok = true;
  int64_t n = 0;
  bool numeric = method == "incr" && !llvm::StringRef(r.status).getAsInteger(10, n);
  {
    ir::JsonWriter w(out.body, 0); // the body is whole once the writer is gone
    w.beginObject(true);
    w.key("value");
    if (method == "get")
      r.hasValue ? w.value(r.value) : w.null();
    else if (numeric)
      w.value(n);
    else
      w.value(r.status);
    w.endObject();
  }
  return out;
}

} // namespace

Value memcachedStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                        const star::Args &args) {
  const ir::StepMethod &m = *ir::findStepMethod(to.iface.protocol, method);
  std::vector<std::string> a = memcachedArgs(t, to, m, args);
  std::string request = memcachedRequest(method, a);
  to.trace.stepSend(to.id, {{"method", std::string(method)},
                            {"interface", to.iface.name},
                            {"protocol", to.iface.protocol},
                            {"command", std::string(method)},
                            {"key", a[0]}});
  MemcachedStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = memcachedStep(to.at.dialHost(), static_cast<uint16_t>(to.at.port), request, to.cancelled,
                      10000, to.tls.get());
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)},
                                                     {"duration_ms", std::to_string(r.durationMs)},
                                                     {"success", r.ok ? "true" : "false"}};
  if (r.ok)
    f.emplace_back("reply", clippedField(r.line, 200));
  else
    f.emplace_back("error", clippedField(r.error, 200));
  to.trace.stepRecv(to.id, std::move(f));
  if (to.cancelled())
    t.fail(to.what + "(): cancelled");
  return Value::object(t.heap.make<ResponseValue>(memcachedResponse(method, r)));
}

} // namespace fbc::rt
