// The NATS steps (protocol_steps.h): each call one connection of its own
// (runtime/clients/nats_step.h), its arguments by keyword or positionally in
// the order ir/protocols.h gives them, the outcome as the reference's step
// response: .ok, .error, and .body (publish: {"subject": ...}; request: the
// reply's data; subscribe: a JSON list of {"subject", "data"} objects, so
// .data is the list of messages).
#include "ir/json_writer.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/nats_step.h"
#include "runtime/trace/trace.h"
#include "runtime/values/response_value.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>

namespace fbc::rt {

using star::Value;

namespace {

// A subject is one or more tokens separated by '.', with no whitespace;
// anything else would be a different command on the wire.
void checkSubject(star::Thread &t, const StepTarget &to, const std::string &s) {
  bool bad = s.empty() || s.front() == '.' || s.back() == '.' ||
             s.find("..") != std::string::npos ||
             std::any_of(s.begin(), s.end(), [](unsigned char c) { return c <= ' ' || c == 0x7f; });
  if (bad)
    failBadArgument(t, to.what +
                           "(): subject must be tokens separated by '.', without spaces or "
                           "control characters, got " +
                           ir::quote(s));
}

HttpStepResponse natsResponse(std::string_view method, const std::string &subject,
                              const NatsStepResult &r) {
  HttpStepResponse out;
  out.durationMs = r.durationMs;
  if (!r.ok) {
    out.error = "nats " + std::string(method) + ": " + r.error;
    return out;
  }
  out.ok = true;
  if (method == "request") {
    out.body = r.messages.front().data;
    return out;
  }
  { // the body is whole once the writer is gone
    ir::JsonWriter w(out.body, 0);
    if (method == "publish") {
      w.beginObject(true).field("subject", subject).endObject();
    } else {
      w.beginArray(true);
      for (const NatsMessage &m : r.messages)
        w.beginObject(true).field("subject", m.subject).field("data", m.data).endObject();
      w.endArray();
    }
  }
  return out;
}

} // namespace

Value natsStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                   const star::Args &args) {
  const ir::StepMethod &m = *ir::findStepMethod(to.iface.protocol, method);
  std::vector<std::string> a = tableStepArgs(t, to, m, args);
  const std::string &subject = a[0];
  checkSubject(t, to, subject);
  int64_t count = 0, timeoutMs = 0;
  if (method != "publish")
    timeoutMs = stepTimeoutMs(t, to, a[2]);
  if (method == "subscribe" &&
      (llvm::StringRef(a[1]).getAsInteger(10, count) || count < 1 || count > 100000))
    failBadArgument(t, to.what + "(): count must be a whole number from 1 to 100000, got " +
                           ir::quote(a[1]));
  std::vector<std::pair<std::string, std::string>> sf{{"method", std::string(method)},
                                                      {"interface", to.iface.name},
                                                      {"protocol", to.iface.protocol},
                                                      {"subject", subject}};
  if (method == "subscribe")
    sf.emplace_back("count", std::to_string(count));
  else
    sf.emplace_back("data", clippedField(a[1], 200));
  to.trace.stepSend(to.id, std::move(sf));
  NatsStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    std::string host = to.at.dialHost();
    auto port = static_cast<uint16_t>(to.at.port);
    if (method == "publish")
      r = natsPublish(host, port, subject, a[1], to.cancelled, to.tls.get());
    else if (method == "request")
      r = natsRequest(host, port, subject, a[1], timeoutMs, to.cancelled, to.tls.get());
    else
      r = natsSubscribe(host, port, subject, count, timeoutMs, to.cancelled, to.tls.get());
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)},
                                                     {"duration_ms", std::to_string(r.durationMs)},
                                                     {"success", r.ok ? "true" : "false"}};
  if (!r.ok)
    f.emplace_back("error", clippedField(r.error, 200));
  else if (method == "request")
    f.emplace_back("reply", clippedField(r.messages.front().data, 200));
  else if (method == "subscribe")
    f.emplace_back("messages", std::to_string(r.messages.size()));
  to.trace.stepRecv(to.id, std::move(f));
  if (to.cancelled())
    t.fail(to.what + "(): cancelled");
  return Value::object(t.heap.make<ResponseValue>(natsResponse(method, subject, r)));
}

} // namespace fbc::rt
