// The MySQL steps (protocol_steps.h): .query(sql=, params=) and .exec(...)
// over a fresh libmariadb connection each (runtime/clients/mysql_step.h),
// the credentials from the service's env (launch_config.h), the result as a
// mysql_result.
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "runtime/body/builtin_args.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/mysql_step.h"
#include "runtime/supervisor/launch_config.h"
#include "runtime/trace/trace.h"
#include "runtime/values/protocol_values.h"

namespace fbc::rt {

using star::Value;

namespace {

// A parameter as the statement's literal: None is NULL, bools TRUE/FALSE,
// numbers in decimal, strings quoted and escaped by the client library.
MysqlParam mysqlParam(star::Thread &t, Value v, const std::string &what) {
  if (v.is(star::Kind::None))
    return {MysqlParam::Kind::Null, ""};
  if (auto *b = v.as<star::Bool>())
    return {MysqlParam::Kind::Literal, b->value ? "TRUE" : "FALSE"};
  if (auto *s = v.as<star::String>())
    return {MysqlParam::Kind::String, std::string(s->view())};
  if (v.isInt() || v.is(star::Kind::Float))
    return {MysqlParam::Kind::Literal, star::str(v)};
  failBadArgument(t, what + " must be None, a bool, a number or a string, got " +
                         std::string(star::typeName(v)));
}

} // namespace

Value mysqlStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                    const star::Args &args) {
  SqlStepArgs in = sqlStepArgs(t, to, method, args);
  std::vector<MysqlParam> bound;
  for (size_t i = 0; i < in.params.size(); ++i)
    bound.push_back(mysqlParam(t, in.params[i], to.what + "(): params[" + std::to_string(i) + "]"));
  traceSqlSend(to, method, in.sql, bound.size());
  MysqlConnParams conn = mysqlConnParams(to.service, to.at);
  conn.tls = to.tls;
  MysqlStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = mysqlStep(conn, in.sql, bound, to.cancelled);
  }
  StepFields f = stepRecvFields(method, r.durationMs, r.ok);
  if (r.ok) {
    f.emplace_back("rows_affected", std::to_string(r.rowsAffected));
    f.emplace_back("rows", std::to_string(r.rows.size()));
  } else {
    f.emplace_back("code", std::to_string(r.code));
    f.emplace_back("sqlstate", r.sqlstate);
    f.emplace_back("error", clippedField(r.message, 200));
  }
  endStep(t, to, std::move(f));
  return Value::object(t.heap.make<MysqlResultValue>(std::move(r)));
}

} // namespace fbc::rt
