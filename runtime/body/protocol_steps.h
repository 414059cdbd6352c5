// The protocol steps of redis and postgres interfaces, called from
// Executor::callStep once it has found the receiving service:
//   redis:    .command(name, *args), .get(key), .set(key, value, *opts),
//             .del(*keys), .incr(key), .ping(), .keys(pattern),
//             .lpush/.rpush(key, *values), .lrange(key, start, stop): the
//             reply as a plain value; or the reference's keyword form,
//             .get(key=), .set(key=, value=), ..., .command(cmd=, args=):
//             a response (status 0, body {"value": <reply>})
//   postgres: .query(sql=, params=[]), .exec(sql=, params=[])
// Each is traced as a step_send / step_recv pair, with the interpreter lock
// released while it waits on the service.
#pragma once

#include "frontend/eval/thread.h"
#include "ir/spec.h"
#include "runtime/clients/tls_dial.h"
#include "runtime/os/interpreter_lock.h"
#include "runtime/rules/rules.h"

#include <functional>
#include <string>
#include <string_view>

namespace fbc::ir {
struct StepMethod;
}

namespace fbc::rt {

class Trace;

struct StepTarget {
  Trace &trace;
  ServiceId id;
  const ir::Service &service;
  const ir::Interface &iface;
  ir::Address at; // where the step connects: Executor::dialAddress()
  InterpreterLock &lock;
  std::function<bool()> cancelled;
  std::string what; // "db.main.query", for messages
  // The interface's tls= (paths resolved): the step speaks TLS, null when
  // it speaks in clear.
  std::shared_ptr<const TlsClientConfig> tls;
};

// A protocol's step client: `method` is one of its steps in ir/protocols.h.
using StepCall = star::Value (*)(star::Thread &t, const StepTarget &to, std::string_view method,
                                 const star::Args &args);
// The client of `protocol`'s steps (runtime/body/step_builtins.cpp), or null.
StepCall findStepClient(std::string_view protocol);

star::Value redisStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                          const star::Args &args);
// memcached: .get(key=), .set(key=, value=, ttl=0), .delete(key=),
// .incr(key=, delta=1) (or positionally in that order; memcached_steps.cpp):
// a response (status 0, body {"value": <reply>}).
star::Value memcachedStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                              const star::Args &args);
// A step argument as wire text: strings as they are, ints and floats in
// decimal; else `what` must be a string or a number.
std::string stepArgText(star::Thread &t, star::Value v, const std::string &what);
// A step's arguments by the keywords ir/protocols.h gives method `m`, by
// keyword or positionally in that order, each as wire text (stepArgText)
// with the fallbacks filled in; an unknown keyword, one given twice or a
// missing required one fails the step (ir::builtins::bindStep).
std::vector<std::string> tableStepArgs(star::Thread &t, const StepTarget &to,
                                       const ir::StepMethod &m, const star::Args &args);
// A step's timeout= argument (`text`, "5s") in whole milliseconds, the
// unit the clients wait in; a text that is no duration, or one under 1ms,
// fails the step.
int64_t stepTimeoutMs(star::Thread &t, const StepTarget &to, const std::string &text);
// kafka: .publish(topic=, key=, value=), .consume(topic=, group=,
// timeout=) over librdkafka (kafka_steps.cpp): a response.
star::Value kafkaStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                          const star::Args &args);
// nats: .publish(subject=, data=), .request(subject=, data=, timeout=),
// .subscribe(subject=, count=, timeout=) (nats_steps.cpp): a response.
star::Value natsStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                         const star::Args &args);
// grpc: .call(method=, body=, timeout=) (grpc_steps.cpp): a response whose
// .status is the call's grpc-status.
star::Value grpcStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                         const star::Args &args);
// amqp: .publish(routing_key=, body=, exchange=), .get(queue=) over
// librabbitmq (amqp_steps.cpp): a response.
star::Value amqpStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                         const star::Args &args);
star::Value postgresStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                             const star::Args &args);
// mysql: .query(sql=, params=) / .exec(...) over libmariadb (mysql_steps.cpp):
// a mysql_result.
star::Value mysqlStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                          const star::Args &args);

// The arguments of a SQL step (postgres, mysql): sql= and params= by
// keyword or positionally (sql, params); params a list or tuple, or None.
struct SqlStepArgs {
  std::string sql;
  std::vector<star::Value> params;
};
SqlStepArgs sqlStepArgs(star::Thread &t, const StepTarget &to, std::string_view method,
                        const star::Args &args);
// A step's trace, as every protocol's step writes it: step_send's fields
// (method, interface, protocol; the protocol's own follow), step_recv's
// (method, duration_ms, success; the protocol's own follow), and the step's
// end (the step_recv, then a cancelled test's failure).
using StepFields = std::vector<std::pair<std::string, std::string>>;
StepFields stepSendFields(const StepTarget &to, std::string_view method);
StepFields stepRecvFields(std::string_view method, int64_t durationMs, bool ok);
void endStep(star::Thread &t, const StepTarget &to, StepFields f);
// A SQL step's step_send (postgres, mysql): stepSendFields, sql, params.
void traceSqlSend(const StepTarget &to, std::string_view method, const std::string &sql,
                  size_t params);

} // namespace fbc::rt
