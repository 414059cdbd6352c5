// One statement batch per connection over libmariadb's non-blocking API:
// see mysql_step.h.
#include "runtime/clients/mysql_step.h"

#include "runtime/clients/mariadb_loader.h"
#include "runtime/clients/tcp_dial.h"
#include "runtime/os/clock.h"

#include <mysql.h>
#include <poll.h>

#include <algorithm>
#include <memory>

namespace fbc::rt {
namespace {

// The client's error numbers (errmsg.h) for failures the server did not
// report: could not connect, the connection broke or timed out.
constexpr unsigned kCannotConnect = 2003;
constexpr unsigned kLostConnection = 2013;

struct HandleDeleter {
  void operator()(MYSQL *m) const { mysql_close(m); }
};
using HandlePtr = std::unique_ptr<MYSQL, HandleDeleter>;

struct ResultDeleter {
  void operator()(MYSQL_RES *r) const { mysql_free_result(r); }
};
using ResultPtr = std::unique_ptr<MYSQL_RES, ResultDeleter>;

// Drives one non-blocking call: `status` is what its _start returned, `cont`
// calls its _cont with the events that happened. False with `why` on
// timeout or cancel.
template <typename Cont>
bool drive(MYSQL *m, int status, Cont &&cont, int64_t deadline,
           const std::function<bool()> &cancelled, std::string &why) {
  while (status != 0) {
    short events = 0;
    if (status & MYSQL_WAIT_READ)
      events |= POLLIN;
    if (status & MYSQL_WAIT_WRITE)
      events |= POLLOUT;
    if (status & MYSQL_WAIT_EXCEPT)
      events |= POLLPRI;
    int64_t until = deadline;
    if (status & MYSQL_WAIT_TIMEOUT)
      until = std::min<int64_t>(deadline,
                                monotonicNs() + int64_t(mysql_get_timeout_value_ms(m)) * 1000000);
    // A wait for the timeout alone polls no socket: it sleeps until then.
    int w = waitFd(events ? mysql_get_socket(m) : -1, events, until, cancelled);
    if (w < 0) {
      why = "cancelled";
      return false;
    }
    if (w == 0 && (!(status & MYSQL_WAIT_TIMEOUT) || monotonicNs() >= deadline)) {
      why = "timed out";
      return false;
    }
    status = cont(w == 0 ? MYSQL_WAIT_TIMEOUT
                         : status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE | MYSQL_WAIT_EXCEPT));
  }
  return true;
}

void fail(MysqlStepResult &out, unsigned code, std::string sqlstate, std::string message) {
  out.ok = false;
  out.code = code;
  out.sqlstate = std::move(sqlstate);
  out.message = std::move(message);
}

void failFromServer(MysqlStepResult &out, MYSQL *m) {
  const char *state = mysql_sqlstate(m);
  fail(out, mysql_errno(m), state && *state ? state : "HY000", mysql_error(m));
}

// A connected handle; null with `out` failed when it cannot connect.
HandlePtr connectTo(const MysqlConnParams &p, int64_t deadline,
                    const std::function<bool()> &cancelled, MysqlStepResult &out) {
  std::string why;
  if (!loadMariadb(why)) {
    fail(out, kCannotConnect, "HY000", why);
    return nullptr;
  }
  HandlePtr m(mysql_init(nullptr));
  if (!m) {
    fail(out, kCannotConnect, "HY000", "mysql_init: out of memory");
    return nullptr;
  }
  mysql_options(m.get(), MYSQL_OPT_NONBLOCK, nullptr);
  unsigned timeoutS = 5;
  mysql_options(m.get(), MYSQL_OPT_CONNECT_TIMEOUT, &timeoutS);
  if (p.tls) {
    my_bool on = 1, verify = p.tls->insecure ? 0 : 1;
    mysql_options(m.get(), MYSQL_OPT_SSL_ENFORCE, &on);
    mysql_options(m.get(), MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
    if (!p.tls->insecure && !p.tls->ca.empty())
      mysql_options(m.get(), MYSQL_OPT_SSL_CA, p.tls->ca.c_str());
    if (!p.tls->cert.empty()) {
      mysql_options(m.get(), MYSQL_OPT_SSL_CERT, p.tls->cert.c_str());
      mysql_options(m.get(), MYSQL_OPT_SSL_KEY, p.tls->key.c_str());
    }
  }
  MYSQL *ret = nullptr;
  const char *db = p.database.empty() ? nullptr : p.database.c_str();
  int status =
      mysql_real_connect_start(&ret, m.get(), p.host.c_str(), p.user.c_str(), p.password.c_str(),
                               db, p.port, nullptr, CLIENT_MULTI_STATEMENTS | CLIENT_MULTI_RESULTS);
  auto cont = [&](int ev) { return mysql_real_connect_cont(&ret, m.get(), ev); };
  if (!drive(m.get(), status, cont, deadline, cancelled, why)) {
    fail(out, kCannotConnect, "HY000", "connect: " + why);
    return nullptr;
  }
  if (!ret) {
    failFromServer(out, m.get());
    return nullptr;
  }
  return m;
}

MysqlColumnKind kindOf(enum_field_types t) {
  switch (t) {
  case MYSQL_TYPE_TINY:
  case MYSQL_TYPE_SHORT:
  case MYSQL_TYPE_LONG:
  case MYSQL_TYPE_INT24:
  case MYSQL_TYPE_LONGLONG:
  case MYSQL_TYPE_YEAR:
    return MysqlColumnKind::Int;
  case MYSQL_TYPE_FLOAT:
  case MYSQL_TYPE_DOUBLE:
    return MysqlColumnKind::Float;
  default: // DECIMAL keeps its digits as text, as Postgres' numeric does
    return MysqlColumnKind::Text;
  }
}

// The row set of the current statement, if it has one.
void takeRows(MysqlStepResult &out, MYSQL_RES *r) {
  out.columns.clear();
  out.rows.clear();
  unsigned n = mysql_num_fields(r);
  MYSQL_FIELD *fields = mysql_fetch_fields(r);
  for (unsigned c = 0; c < n; ++c)
    out.columns.push_back({fields[c].name, kindOf(fields[c].type)});
  while (MYSQL_ROW row = mysql_fetch_row(r)) {
    unsigned long *len = mysql_fetch_lengths(r);
    std::vector<std::optional<std::string>> cells;
    for (unsigned c = 0; c < n; ++c)
      if (row[c])
        cells.emplace_back(std::string(row[c], len[c]));
      else
        cells.emplace_back(std::nullopt);
    out.rows.push_back(std::move(cells));
  }
}

// `sql` with each `?` outside quotes, backticks and comments replaced by
// the next parameter; "" with `error` set when the counts differ.
std::string interpolate(MYSQL *m, const std::string &sql, const std::vector<MysqlParam> &params,
                        std::string &error) {
  std::string out;
  size_t next = 0;
  char quote = 0;
  for (size_t i = 0; i < sql.size(); ++i) {
    char c = sql[i];
    if (quote) {
      out += c;
      if (c == '\\' && quote != '`' && i + 1 < sql.size())
        out += sql[++i];
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      quote = c;
    } else if (c == '#' || (c == '-' && sql.compare(i, 3, "-- ") == 0)) {
      size_t nl = sql.find('\n', i);
      size_t end = nl == std::string::npos ? sql.size() : nl;
      out.append(sql, i, end - i);
      i = end - 1;
      continue;
    } else if (c == '/' && sql.compare(i, 2, "/*") == 0) {
      size_t close = sql.find("*/", i + 2);
      size_t end = close == std::string::npos ? sql.size() : close + 2;
      out.append(sql, i, end - i);
      i = end - 1;
      continue;
    } else if (c == '?') {
      if (next == params.size()) {
        error = "more ? placeholders than params (" + std::to_string(params.size()) + ")";
        return "";
      }
      const MysqlParam &p = params[next++];
      if (p.kind == MysqlParam::Kind::Null) {
        out += "NULL";
      } else if (p.kind == MysqlParam::Kind::Literal) {
        out += p.text;
      } else {
        std::string buf(p.text.size() * 2 + 1, '\0');
        buf.resize(mysql_real_escape_string(m, buf.data(), p.text.data(), p.text.size()));
        out += '\'' + buf + '\'';
      }
      continue;
    }
    out += c;
  }
  if (next != params.size()) {
    error =
        std::to_string(params.size()) + " params for " + std::to_string(next) + " ? placeholders";
    return "";
  }
  return out;
}

// Reads every result of the batch; the last row set and count are kept.
void readResults(MYSQL *m, MysqlStepResult &out, int64_t deadline,
                 const std::function<bool()> &cancelled) {
  std::string why;
  for (;;) {
    MYSQL_RES *raw = nullptr;
    int status = mysql_store_result_start(&raw, m);
    auto storeCont = [&](int ev) { return mysql_store_result_cont(&raw, m, ev); };
    if (!drive(m, status, storeCont, deadline, cancelled, why))
      return fail(out, kLostConnection, "HY000", "read: " + why);
    ResultPtr r(raw);
    if (r) {
      takeRows(out, r.get());
      out.rowsAffected = int64_t(out.rows.size());
    } else if (mysql_errno(m)) {
      return failFromServer(out, m);
    } else {
      out.rowsAffected = int64_t(mysql_affected_rows(m));
      out.lastInsertId = mysql_insert_id(m);
    }
    if (!mysql_more_results(m))
      return;
    int ret = 0;
    status = mysql_next_result_start(&ret, m);
    auto nextCont = [&](int ev) { return mysql_next_result_cont(&ret, m, ev); };
    if (!drive(m, status, nextCont, deadline, cancelled, why))
      return fail(out, kLostConnection, "HY000", "read: " + why);
    if (ret > 0)
      return failFromServer(out, m);
  }
}

} // namespace

MysqlStepResult mysqlStep(const MysqlConnParams &p, const std::string &sql,
                          const std::vector<MysqlParam> &params,
                          const std::function<bool()> &cancelled, int64_t timeoutMs) {
  MysqlStepResult out;
  int64_t t0 = monotonicNs();
  int64_t deadline = t0 + timeoutMs * 1000000;
  auto finish = [&]() {
    out.durationMs = (monotonicNs() - t0) / 1000000;
    return out;
  };
  HandlePtr m = connectTo(p, std::min<int64_t>(deadline, t0 + 5 * 1000000000LL), cancelled, out);
  if (!m)
    return finish();
  std::string error;
  std::string text = params.empty() ? sql : interpolate(m.get(), sql, params, error);
  if (!error.empty()) {
    fail(out, 2034, "HY000", "params: " + error); // CR_INVALID_PARAMETER_NO
    return finish();
  }
  int ret = 0;
  std::string why;
  int status = mysql_real_query_start(&ret, m.get(), text.data(), text.size());
  auto cont = [&](int ev) { return mysql_real_query_cont(&ret, m.get(), ev); };
  if (!drive(m.get(), status, cont, deadline, cancelled, why)) {
    fail(out, kLostConnection, "HY000", "query: " + why);
    return finish();
  }
  if (ret != 0) {
    failFromServer(out, m.get());
    return finish();
  }
  out.ok = true;
  readResults(m.get(), out, deadline, cancelled);
  return finish();
}

bool probeMysql(const MysqlConnParams &p, int64_t timeoutMs, std::string &error) {
  MysqlStepResult out;
  int64_t deadline = monotonicNs() + timeoutMs * 1000000;
  HandlePtr m = connectTo(p, deadline, nullptr, out);
  if (!m) {
    error = out.message;
    return false;
  }
  int ret = 0;
  std::string why;
  int status = mysql_ping_start(&ret, m.get());
  auto cont = [&](int ev) { return mysql_ping_cont(&ret, m.get(), ev); };
  if (!drive(m.get(), status, cont, deadline, nullptr, why)) {
    error = "ping: " + why;
    return false;
  }
  if (ret != 0) {
    error = mysql_error(m.get());
    return false;
  }
  return true;
}

} // namespace fbc::rt
