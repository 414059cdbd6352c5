// redis_error and pg_result: see protocol_values.h.
#include "runtime/values/protocol_values.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/attr_table.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/printer.h"
#include "ir/json_writer.h"
#include "ir/quote.h"
#include "runtime/values/fixed_attribute.h"

#include <cerrno>
#include <cstdlib>

namespace fbc::rt {

using star::Value;

void RedisErrorValue::repr(star::Printer &p) const {
  p.write("<redis_error " + ir::quote(message) + ">");
}

namespace {

constexpr star::Attribute<RedisErrorValue> kRedisErrorAttributes[] = {
    {"message",
     [](RedisErrorValue &e, star::Thread &t) { return star::makeString(t.heap, e.message); }},
};

} // namespace

Value RedisErrorValue::attr(star::Thread &t, std::string_view name) {
  return star::lookupAttribute<RedisErrorValue>(kRedisErrorAttributes, *this, t, name);
}

void RedisErrorValue::attrNames(std::vector<std::string> &out) const {
  star::attributeNames<RedisErrorValue>(kRedisErrorAttributes, out);
}

Value respToStarlark(star::Thread &t, const RespValue &v) {
  switch (v.type) {
  case RespValue::Type::String:
  case RespValue::Type::Status:
    return star::makeString(t.heap, v.str);
  case RespValue::Type::Error:
    return Value::object(t.heap.make<RedisErrorValue>(v.str));
  case RespValue::Type::Integer:
    return star::makeInt(t.heap, v.integer);
  case RespValue::Type::Nil:
    return star::none();
  case RespValue::Type::Array: {
    std::vector<Value> elems;
    elems.reserve(v.elements.size());
    for (const RespValue &e : v.elements)
      elems.push_back(respToStarlark(t, e));
    return Value::object(t.heap.make<star::List>(std::move(elems)));
  }
  }
  return star::none();
}

namespace {

void writeResp(ir::JsonWriter &w, const RespValue &v) {
  switch (v.type) {
  case RespValue::Type::String:
  case RespValue::Type::Status:
  case RespValue::Type::Error:
    w.value(v.str);
    return;
  case RespValue::Type::Integer:
    w.value(static_cast<int64_t>(v.integer));
    return;
  case RespValue::Type::Nil:
    w.null();
    return;
  case RespValue::Type::Array:
    w.beginArray(true);
    for (const RespValue &e : v.elements)
      writeResp(w, e);
    w.endArray();
    return;
  }
}

} // namespace

std::string respToJson(const RespValue &v) {
  std::string out;
  {
    ir::JsonWriter w(out, 0);
    w.beginObject(true);
    w.key("value");
    writeResp(w, v);
    w.endObject();
  }
  return out;
}

namespace {

// A SQL step's cell: its text, or nullopt for NULL.
using Cell = std::optional<std::string>;

// A SQL step's column names as a list, and its rows as dicts keyed by them,
// each cell converted by `value(column, cell)` (postgres and mysql results).
template <typename Column> Value columnNames(star::Thread &t, const std::vector<Column> &columns) {
  std::vector<Value> names;
  for (const Column &c : columns)
    names.push_back(star::makeString(t.heap, c.name));
  return Value::object(t.heap.make<star::List>(std::move(names)));
}

template <typename Column, typename Convert>
Value rowDicts(star::Thread &t, const std::vector<Column> &columns,
               const std::vector<std::vector<Cell>> &rows, Convert value) {
  std::vector<Value> out;
  for (const std::vector<Cell> &row : rows) {
    auto *d = t.heap.make<star::Dict>();
    for (size_t c = 0; c < row.size() && c < columns.size(); ++c)
      d->table.set(t, star::makeString(t.heap, columns[c].name), value(columns[c], row[c]));
    out.push_back(Value::object(d));
  }
  return Value::object(t.heap.make<star::List>(std::move(out)));
}

// A column's text form as the Starlark value its type suggests.
Value pgValue(star::Thread &t, uint32_t typeOid, const std::optional<std::string> &text) {
  if (!text)
    return star::none();
  const std::string &s = *text;
  switch (typeOid) {
  case 16: // bool
    return star::boolean(s == "t");
  case 20: // int8
  case 21: // int2
  case 23: // int4
  case 26: // oid
    return star::makeInt(t.heap, std::strtoll(s.c_str(), nullptr, 10));
  case 700: // float4
  case 701: // float8
    return star::makeFloat(t.heap, std::strtod(s.c_str(), nullptr));
  default: // numeric keeps its digits; text, dates, json ... as sent
    return star::makeString(t.heap, s);
  }
}

} // namespace

void PgResultValue::repr(star::Printer &p) const {
  if (result.ok)
    p.write("<pg_result " + result.command + ">");
  else
    p.write("<pg_result error=" + result.sqlstate + " " + ir::quote(result.message) + ">");
}

namespace {

using Pg = PgResultValue;
constexpr star::Attribute<Pg> kPgResultAttributes[] = {
    {"columns", [](Pg &r, star::Thread &t) { return columnNames(t, r.result.columns); }},
    {"command", [](Pg &r, star::Thread &t) { return star::makeString(t.heap, r.result.command); }},
    {"duration_ms",
     [](Pg &r, star::Thread &t) { return star::makeInt(t.heap, r.result.durationMs); }},
    {"error",
     [](Pg &r, star::Thread &t) {
       return r.result.ok ? star::none() : star::makeString(t.heap, r.result.sqlstate);
     }},
    {"message", [](Pg &r, star::Thread &t) { return star::makeString(t.heap, r.result.message); }},
    {"ok", [](Pg &r, star::Thread &) { return star::boolean(r.result.ok); }},
    {"rows",
     [](Pg &r, star::Thread &t) {
       return rowDicts(t, r.result.columns, r.result.rows,
                       [&](const PgColumn &c, const Cell &v) { return pgValue(t, c.typeOid, v); });
     }},
    {"rows_affected",
     [](Pg &r, star::Thread &t) { return star::makeInt(t.heap, r.result.rowsAffected); }},
};

} // namespace

Value PgResultValue::attr(star::Thread &t, std::string_view name) {
  return fixedAttribute<Pg>(kPgResultAttributes, *this, t, name);
}

void PgResultValue::attrNames(std::vector<std::string> &out) const {
  star::attributeNames<Pg>(kPgResultAttributes, out);
}

void MysqlResultValue::repr(star::Printer &p) const {
  if (result.ok)
    p.write("<mysql_result rows_affected=" + std::to_string(result.rowsAffected) + ">");
  else
    p.write("<mysql_result error=" + std::to_string(result.code) + " (" + result.sqlstate + ") " +
            ir::quote(result.message) + ">");
}

namespace {

// A column's text as the Starlark value its type suggests (an integer past
// int64, as BIGINT UNSIGNED can be, stays text).
Value mysqlValue(star::Thread &t, MysqlColumnKind kind, const std::optional<std::string> &text) {
  if (!text)
    return star::none();
  const std::string &s = *text;
  if (kind == MysqlColumnKind::Int) {
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno == 0 && end && *end == '\0')
      return star::makeInt(t.heap, v);
  } else if (kind == MysqlColumnKind::Float) {
    return star::makeFloat(t.heap, std::strtod(s.c_str(), nullptr));
  }
  return star::makeString(t.heap, s);
}

using My = MysqlResultValue;
constexpr star::Attribute<My> kMysqlResultAttributes[] = {
    {"code",
     [](My &r, star::Thread &t) {
       return r.result.ok ? star::none() : star::makeInt(t.heap, int64_t(r.result.code));
     }},
    {"columns", [](My &r, star::Thread &t) { return columnNames(t, r.result.columns); }},
    {"duration_ms",
     [](My &r, star::Thread &t) { return star::makeInt(t.heap, r.result.durationMs); }},
    {"error",
     [](My &r, star::Thread &t) {
       return r.result.ok ? star::none() : star::makeString(t.heap, r.result.sqlstate);
     }},
    {"last_insert_id",
     [](My &r, star::Thread &t) { return star::makeInt(t.heap, int64_t(r.result.lastInsertId)); }},
    {"message", [](My &r, star::Thread &t) { return star::makeString(t.heap, r.result.message); }},
    {"ok", [](My &r, star::Thread &) { return star::boolean(r.result.ok); }},
    {"rows",
     [](My &r, star::Thread &t) {
       return rowDicts(
           t, r.result.columns, r.result.rows,
           [&](const MysqlColumn &c, const Cell &v) { return mysqlValue(t, c.kind, v); });
     }},
    {"rows_affected",
     [](My &r, star::Thread &t) { return star::makeInt(t.heap, r.result.rowsAffected); }},
};

} // namespace

Value MysqlResultValue::attr(star::Thread &t, std::string_view name) {
  return fixedAttribute<My>(kMysqlResultAttributes, *this, t, name);
}

void MysqlResultValue::attrNames(std::vector<std::string> &out) const {
  star::attributeNames<My>(kMysqlResultAttributes, out);
}

} // namespace fbc::rt
