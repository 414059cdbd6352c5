// The values the Redis and Postgres steps give the test body.
//
// Redis: a reply decodes to a plain value (bulk string or status -> str,
// integer -> int, array -> list, nil -> None), and an error reply to a
// redis_error value: .message ("ERR unknown command ..."), str() the same,
// bool() False, repr <redis_error "ERR ...">.
//
// Postgres: a pg_result. .ok (bool: every statement ran), .error (the
// SQLSTATE, None when ok), .message, .rows (a list of dicts, column name ->
// value: int2/int4/int8/oid -> int, float4/float8 -> float, bool -> bool,
// NULL -> None, every other type its text form), .columns, .command (the
// command tag), .rows_affected, .duration_ms. bool() is .ok.
#pragma once

#include "frontend/lib/objects.h"
#include "runtime/clients/mysql_step.h"
#include "runtime/clients/postgres_step.h"
#include "runtime/protocols/proto_redis.h"

namespace fbc::rt {

class RedisErrorValue final : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  static constexpr bool kNeedsDestroy = true;
  static constexpr std::string_view kTypeName = "redis_error";
  explicit RedisErrorValue(std::string m) : star::Object(star::Kind::Host), message(std::move(m)) {
    freeze();
  }
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  bool truth() const override { return false; }
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  std::string message;
};

// A decoded Redis reply as a Starlark value.
star::Value respToStarlark(star::Thread &t, const RespValue &v);
// A reply as the reference's keyword-form steps give it in a response's
// body: `{"value": <reply>}` (a string, integer, null or array; an error
// reply inside an array is its message).
std::string respToJson(const RespValue &v);

class PgResultValue final : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  static constexpr bool kNeedsDestroy = true;
  static constexpr std::string_view kTypeName = "pg_result";
  explicit PgResultValue(PostgresStepResult r)
      : star::Object(star::Kind::Host), result(std::move(r)) {
    freeze();
  }
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  bool truth() const override { return result.ok; }
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  PostgresStepResult result;
};

// A MySQL step's result: ok, error (the SQLSTATE, None when ok), code (the
// MySQL error number, None when ok), message, columns, rows (dicts; ints and
// floats by column type, NULL as None, the rest text), rows_affected,
// last_insert_id, duration_ms.
class MysqlResultValue final : public star::Object {
public:
  static constexpr star::Kind kKind = star::Kind::Host;
  static constexpr bool kNeedsDestroy = true;
  static constexpr std::string_view kTypeName = "mysql_result";
  explicit MysqlResultValue(MysqlStepResult r)
      : star::Object(star::Kind::Host), result(std::move(r)) {
    freeze();
  }
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;
  bool truth() const override { return result.ok; }
  star::Value attr(star::Thread &t, std::string_view name) override;
  void attrNames(std::vector<std::string> &out) const override;

  MysqlStepResult result;
};

} // namespace fbc::rt
