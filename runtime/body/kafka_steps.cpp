// The Kafka steps (protocol_steps.h): each call a librdkafka client of its
// own (runtime/clients/kafka_step.h) bootstrapped at the interface's
// address (its proxy's when the test has one), its arguments by keyword or
// positionally in the order ir/protocols.h gives them, the outcome as a
// step response: .ok, .error, and .body, a JSON object (so .data is a
// dict): publish {"topic", "partition", "offset"} where the record went,
// consume the same and the record's "key" and "value".
#include "ir/json_writer.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/kafka_step.h"
#include "runtime/trace/trace.h"
#include "runtime/values/response_value.h"

#include <algorithm>

namespace fbc::rt {

using star::Value;

namespace {

// Kafka's rule for a topic name (its Topic.validate): 1-249 of [a-zA-Z0-9._-].
void checkTopic(star::Thread &t, const StepTarget &to, const std::string &s) {
  bool bad = s.empty() || s.size() > 249 || s == "." || s == ".." ||
             !std::all_of(s.begin(), s.end(), [](unsigned char c) {
               return std::isalnum(c) || c == '.' || c == '_' || c == '-';
             });
  if (bad)
    failBadArgument(t, to.what + "(): topic must be 1-249 letters, digits, '.', '_' or '-', got " +
                           ir::quote(s));
}

HttpStepResponse kafkaResponse(std::string_view method, const KafkaStepResult &r) {
  HttpStepResponse out;
  out.durationMs = r.durationMs;
  if (!r.ok) {
    out.error = "kafka " + std::string(method) + ": " + r.error;
    return out;
  }
  out.ok = true;
  ir::JsonWriter w(out.body, 0); // the body is whole once the writer is gone
  w.beginObject(true)
      .field("topic", r.topic)
      .field("partition", r.partition)
      .field("offset", r.offset);
  if (method == "consume")
    w.field("key", r.key).field("value", r.value);
  w.endObject();
  return out;
}

} // namespace

Value kafkaStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                    const star::Args &args) {
  const ir::StepMethod &m = *ir::findStepMethod(to.iface.protocol, method);
  std::vector<std::string> a = tableStepArgs(t, to, m, args);
  const std::string &topic = a[0];
  checkTopic(t, to, topic);
  int64_t timeoutMs = stepTimeoutMs(t, to, a.back());
  if (method == "consume" && a[1].empty())
    failBadArgument(t, to.what + "(): group must not be empty");
  std::vector<std::pair<std::string, std::string>> sf{{"method", std::string(method)},
                                                      {"interface", to.iface.name},
                                                      {"protocol", to.iface.protocol},
                                                      {"topic", topic}};
  if (method == "publish") {
    sf.emplace_back("key", clippedField(a[1], 200));
    sf.emplace_back("data", clippedField(a[2], 200));
  } else {
    sf.emplace_back("group", a[1]);
  }
  to.trace.stepSend(to.id, std::move(sf));
  KafkaStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    std::string bootstrap = to.at.dialHost() + ":" + std::to_string(to.at.port);
    if (method == "publish")
      r = kafkaPublish(bootstrap, topic, a[1], a[2], timeoutMs, to.cancelled);
    else
      r = kafkaConsume(bootstrap, topic, a[1], timeoutMs, to.cancelled);
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)},
                                                     {"duration_ms", std::to_string(r.durationMs)},
                                                     {"success", r.ok ? "true" : "false"}};
  if (!r.ok) {
    f.emplace_back("error", clippedField(r.error, 200));
  } else {
    f.emplace_back("partition", std::to_string(r.partition));
    f.emplace_back("offset", std::to_string(r.offset));
    if (method == "consume") {
      f.emplace_back("key", clippedField(r.key, 200));
      f.emplace_back("reply", clippedField(r.value, 200));
    }
  }
  to.trace.stepRecv(to.id, std::move(f));
  if (to.cancelled())
    t.fail(to.what + "(): cancelled");
  return Value::object(t.heap.make<ResponseValue>(kafkaResponse(method, r)));
}

} // namespace fbc::rt
