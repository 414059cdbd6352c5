// Argument checking, tracing and results of the redis and postgres steps:
// see protocol_steps.h.
#include "runtime/body/protocol_steps.h"

#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/binder.h"
#include "ir/duration.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/clients/postgres_step.h"
#include "runtime/clients/redis_step.h"
#include "runtime/supervisor/launch_config.h"
#include "runtime/trace/trace.h"
#include "runtime/values/protocol_values.h"
#include "runtime/values/response_value.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>

namespace fbc::rt {

using star::Value;

std::string stepArgText(star::Thread &t, Value v, const std::string &what) {
  if (auto *s = v.as<star::String>())
    return std::string(s->view());
  if (v.isInt() || v.is(star::Kind::Float))
    return star::str(v);
  failBadArgument(t, what + " must be a string or a number, got " + std::string(star::typeName(v)));
}

std::vector<std::string> tableStepArgs(star::Thread &t, const StepTarget &to,
                                       const ir::StepMethod &m, const star::Args &args) {
  std::vector<Value> given = ir::builtins::bindStep(t, to.what, m, args, m.keywords.size());
  std::vector<std::string> out;
  for (size_t i = 0; i < given.size(); ++i) {
    const ir::StepKeyword &k = m.keywords[i];
    out.push_back(given[i] ? stepArgText(t, given[i], to.what + "(): " + std::string(k.name))
                           : std::string(k.fallback));
  }
  return out;
}

int64_t stepTimeoutMs(star::Thread &t, const StepTarget &to, const std::string &text) {
  std::string error;
  std::optional<int64_t> d = ir::parseDuration(text, error);
  if (!d || *d < 1000000)
    failBadArgument(t, to.what + "(): timeout: " + (d ? "must be at least 1ms" : error));
  return *d / 1000000;
}

namespace {

// How many arguments (after the command) each sugar method takes.
struct Arity {
  std::string_view method;
  size_t min, max;
};
constexpr size_t kMany = ~size_t(0);
constexpr Arity kRedisArity[] = {
    {"del", 1, kMany}, {"get", 1, 1},  {"incr", 1, 1},      {"keys", 1, 1},    {"lpush", 2, kMany},
    {"lrange", 3, 3},  {"ping", 0, 1}, {"rpush", 2, kMany}, {"set", 2, kMany},
};

// fbc's positional form: command(name, *args) and the sugar methods.
std::vector<std::string> positionalArgv(star::Thread &t, const StepTarget &to,
                                        std::string_view method, const star::Args &args) {
  std::vector<std::string> argv;
  if (method != "command")
    argv.push_back(llvm::StringRef(method).upper());
  for (size_t i = 0; i < args.positional.size(); ++i)
    argv.push_back(
        stepArgText(t, args.positional[i], to.what + "(): argument " + std::to_string(i + 1)));
  if (method == "command") {
    if (argv.empty() || argv.front().empty())
      failBadArgument(t, to.what + "(): requires the command name, e.g. command(\"GET\", \"k\")");
    return argv;
  }
  auto it = std::find_if(std::begin(kRedisArity), std::end(kRedisArity),
                         [&](const Arity &a) { return a.method == method; });
  size_t n = args.positional.size();
  if (it != std::end(kRedisArity) && (n < it->min || n > it->max))
    failBadArgument(t, to.what + "(): got " + std::to_string(n) + " arguments, want " +
                           (it->max == kMany ? "at least " + std::to_string(it->min)
                            : it->min == it->max
                                ? std::to_string(it->min)
                                : std::to_string(it->min) + " to " + std::to_string(it->max)));
  return argv;
}

// The reference's keyword form: get(key=), set(key=, value=), ...,
// command(cmd=, args=) where args= is one argument or a list of them.
std::vector<std::string> keywordArgv(star::Thread &t, const StepTarget &to, std::string_view method,
                                     const star::Args &args) {
  // Every redis step has its keywords in ir/protocols.h.
  const ir::StepMethod *form = ir::findStepMethod(to.iface.protocol, method);
  if (!form)
    t.fail(to.what + "(): takes no keywords");
  if (!args.positional.empty())
    failBadArgument(t, to.what + "(): takes positional arguments or keywords, not both");
  std::vector<Value> given = ir::builtins::bindStep(t, to.what, *form, args, 0);
  std::vector<std::string> argv;
  if (method != "command")
    argv.push_back(llvm::StringRef(method).upper());
  for (size_t i = 0; i < given.size(); ++i) {
    const ir::StepKeyword &k = form->keywords[i];
    std::string what = to.what + "(): " + std::string(k.name);
    if (!given[i]) { // a keyword with a fallback (bindStep requires the others)
      if (*k.fallback)
        argv.emplace_back(k.fallback);
      continue;
    }
    auto *l = given[i].as<star::List>();
    auto *tu = given[i].as<star::Tuple>();
    if (k.name == "args" && (l || tu)) {
      llvm::ArrayRef<Value> items = l ? llvm::ArrayRef<Value>(l->elems) : tu->elems();
      for (size_t j = 0; j < items.size(); ++j)
        argv.push_back(stepArgText(t, items[j], what + "[" + std::to_string(j) + "]"));
      continue;
    }
    argv.push_back(stepArgText(t, given[i], what));
  }
  if (method == "command" && argv.front().empty())
    failBadArgument(t, to.what + "(): cmd= must not be empty");
  return argv;
}

// What the keyword form returns (the reference's step result): a response
// with status 0, ok when a reply other than an error arrived, and the reply
// as the body `{"value": ...}` (.data decodes it).
HttpStepResponse keywordResponse(const RedisStepResult &r) {
  HttpStepResponse out;
  out.durationMs = r.durationMs;
  if (!r.ok) {
    out.error = r.error;
  } else if (r.reply.type == RespValue::Type::Error) {
    out.error = "redis error: " + r.reply.str;
  } else {
    out.ok = true;
    out.body = respToJson(r.reply);
  }
  return out;
}

} // namespace

Value redisStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                    const star::Args &args) {
  // A call without arguments is the reference's form too (`.ping()`,
  // `.keys()`): it returns the reference's response, as there.
  bool keywords = !args.kwargs.empty() || args.positional.empty();
  std::vector<std::string> argv =
      keywords ? keywordArgv(t, to, method, args) : positionalArgv(t, to, method, args);
  std::string line;
  for (const std::string &a : argv)
    line += (line.empty() ? "" : " ") + a;
  to.trace.stepSend(to.id, {{"method", std::string(method)},
                            {"interface", to.iface.name},
                            {"protocol", to.iface.protocol},
                            {"command", clippedField(line, 200)}});
  RedisStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = redisStep(to.at.dialHost(), static_cast<uint16_t>(to.at.port), argv, to.cancelled, 10000,
                  to.tls.get());
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)},
                                                     {"duration_ms", std::to_string(r.durationMs)},
                                                     {"success", r.ok ? "true" : "false"}};
  if (r.ok)
    f.emplace_back("reply", clippedField(describeResp(r.reply), 200));
  else
    f.emplace_back("error", clippedField(r.error, 200));
  to.trace.stepRecv(to.id, std::move(f));
  if (keywords) {
    if (to.cancelled())
      t.fail(to.what + "(): cancelled");
    return Value::object(t.heap.make<ResponseValue>(keywordResponse(r)));
  }
  if (!r.ok)
    t.fail("redis " + llvm::StringRef(argv.front()).upper() + " failed: " + r.error);
  return respToStarlark(t, r.reply);
}

namespace {

// A bound parameter: None is NULL, bools as Postgres writes them, numbers
// in decimal, strings as they are.
std::optional<std::string> pgParam(star::Thread &t, Value v, const std::string &what) {
  if (v.is(star::Kind::None))
    return std::nullopt;
  if (auto *b = v.as<star::Bool>())
    return b->value ? "true" : "false";
  if (auto *s = v.as<star::String>())
    return std::string(s->view());
  if (v.isInt() || v.is(star::Kind::Float))
    return star::str(v);
  failBadArgument(t, what + " must be None, a bool, a number or a string, got " +
                         std::string(star::typeName(v)));
}

} // namespace

SqlStepArgs sqlStepArgs(star::Thread &t, const StepTarget &to, std::string_view method,
                        const star::Args &args) {
  SqlStepArgs out;
  if (args.positional.size() > 2)
    failBadArgument(t, to.what + "(): got " + std::to_string(args.positional.size()) +
                           " positional arguments, want at most 2 (sql, params)");
  // sql, params (ir/protocols.h)
  std::vector<Value> given =
      ir::builtins::bindStep(t, to.what, *ir::findStepMethod(to.iface.protocol, method), args, 2);
  out.sql = strArg(t, given[0], to.what + "(): sql");
  Value params = given[1];
  if (params && !params.is(star::Kind::None)) {
    auto *l = params.as<star::List>();
    auto *tu = params.as<star::Tuple>();
    if (!l && !tu)
      failBadArgument(t, to.what + "(): params must be a list, got " +
                             std::string(star::typeName(params)));
    llvm::ArrayRef<Value> items = l ? llvm::ArrayRef<Value>(l->elems) : tu->elems();
    out.params.assign(items.begin(), items.end());
  }
  return out;
}

StepFields stepSendFields(const StepTarget &to, std::string_view method) {
  return {{"method", std::string(method)},
          {"interface", to.iface.name},
          {"protocol", to.iface.protocol}};
}

StepFields stepRecvFields(std::string_view method, int64_t durationMs, bool ok) {
  return {{"method", std::string(method)},
          {"duration_ms", std::to_string(durationMs)},
          {"success", ok ? "true" : "false"}};
}

void endStep(star::Thread &t, const StepTarget &to, StepFields f) {
  to.trace.stepRecv(to.id, std::move(f));
  if (to.cancelled())
    t.fail(to.what + "(): cancelled");
}

void traceSqlSend(const StepTarget &to, std::string_view method, const std::string &sql,
                  size_t params) {
  StepFields sf = stepSendFields(to, method);
  sf.emplace_back("sql", clippedField(sql, 200));
  if (params > 0)
    sf.emplace_back("params", std::to_string(params));
  to.trace.stepSend(to.id, std::move(sf));
}

Value postgresStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                       const star::Args &args) {
  SqlStepArgs in = sqlStepArgs(t, to, method, args);
  const std::string &sql = in.sql;
  std::vector<std::optional<std::string>> bound;
  for (size_t i = 0; i < in.params.size(); ++i)
    bound.push_back(pgParam(t, in.params[i], to.what + "(): params[" + std::to_string(i) + "]"));
  traceSqlSend(to, method, sql, bound.size());
  PgConnParams conn = pgConnParams(to.service, to.at);
  conn.tls = to.tls;
  PostgresStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = postgresStep(conn, sql, bound, to.cancelled);
  }
  StepFields f = stepRecvFields(method, r.durationMs, r.ok);
  if (r.ok) {
    f.emplace_back("command", r.command);
    f.emplace_back("rows", std::to_string(r.rows.size()));
  } else {
    f.emplace_back("sqlstate", r.sqlstate);
    f.emplace_back("error", clippedField(r.message, 200));
  }
  endStep(t, to, std::move(f));
  return Value::object(t.heap.make<PgResultValue>(std::move(r)));
}

} // namespace fbc::rt
