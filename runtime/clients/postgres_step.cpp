// One statement (or simple-query batch) per connection over libpq: see
// postgres_step.h.
#include "runtime/clients/postgres_step.h"

#include "runtime/clients/pq_loader.h"
#include "runtime/clients/tcp_dial.h"
#include "runtime/trace/trace.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <memory>

namespace fbc::rt {
namespace {

struct ConnDeleter {
  void operator()(PGconn *c) const { PQfinish(c); }
};
using ConnPtr = std::unique_ptr<PGconn, ConnDeleter>;

struct ResultDeleter {
  void operator()(PGresult *r) const { PQclear(r); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

// SQLSTATEs for failures the server did not report itself (the codes JDBC
// and psycopg use for them): could not connect, and the connection broke.
constexpr const char *kCannotConnect = "08001";
constexpr const char *kConnectionFailure = "08006";

// libpq's messages end in a newline; the first line is the message.
std::string firstLine(const char *s) {
  std::string m = s ? s : "";
  if (size_t nl = m.find('\n'); nl != std::string::npos)
    m.resize(nl);
  return m;
}

// The keyword/value pairs PQconnectStartParams and PQpingParams read.
struct ConnKeywords {
  std::vector<std::string> values;
  std::vector<const char *> keys, vals;

  ConnKeywords(const PgConnParams &p, int64_t timeoutMs) {
    // libpq treats a connect_timeout below 2 s as 2 s.
    std::string timeoutS = std::to_string(std::max<int64_t>(2, (timeoutMs + 999) / 1000));
    add("host", p.host);
    add("port", std::to_string(p.port));
    add("user", p.user);
    if (!p.password.empty())
      add("password", p.password);
    add("dbname", p.dbname.empty() ? p.user : p.dbname);
    add("connect_timeout", timeoutS);
    if (!p.tls) {
      add("sslmode", "disable"); // plain TCP: what a proxy can read
    } else {
      add("sslmode", p.tls->insecure ? "require" : "verify-full");
      if (!p.tls->insecure)
        add("sslrootcert", p.tls->ca.empty() ? "system" : p.tls->ca);
      if (!p.tls->cert.empty()) {
        add("sslcert", p.tls->cert);
        add("sslkey", p.tls->key);
      }
    }
    add("application_name", "fbc");
    for (const std::string &v : values)
      vals.push_back(v.c_str());
    keys.push_back(nullptr);
    vals.push_back(nullptr);
  }
  void add(const char *k, std::string v) {
    keys.push_back(k);
    values.push_back(std::move(v));
  }
};

// Waits for the libpq socket (POLLIN or POLLOUT); false with `error` set on
// timeout or cancel.
bool waitConn(PGconn *c, short events, int64_t deadline, const std::function<bool()> &cancelled,
              std::string &error) {
  int w = waitFd(PQsocket(c), events, deadline, cancelled);
  if (w == 1)
    return true;
  error = w == 0 ? "timed out" : "cancelled";
  return false;
}

void fail(PostgresStepResult &out, std::string sqlstate, std::string message) {
  out.ok = false;
  out.sqlstate = std::move(sqlstate);
  out.message = std::move(message);
}

// Records one result of the batch; false once a statement failed.
bool takeResult(PostgresStepResult &out, const PGresult *r) {
  ExecStatusType st = PQresultStatus(r);
  if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK || st == PGRES_EMPTY_QUERY) {
    out.command = PQcmdStatus(const_cast<PGresult *>(r));
    const char *n = PQcmdTuples(const_cast<PGresult *>(r));
    out.rowsAffected = n && *n ? std::stoll(n) : 0;
    if (st != PGRES_TUPLES_OK)
      return true;
    out.columns.clear();
    out.rows.clear();
    int cols = PQnfields(r);
    for (int c = 0; c < cols; ++c)
      out.columns.push_back({PQfname(r, c), PQftype(r, c)});
    for (int i = 0, rows = PQntuples(r); i < rows; ++i) {
      std::vector<std::optional<std::string>> row;
      for (int c = 0; c < cols; ++c)
        if (PQgetisnull(r, i, c))
          row.emplace_back(std::nullopt);
        else
          row.emplace_back(std::string(PQgetvalue(r, i, c), PQgetlength(r, i, c)));
      out.rows.push_back(std::move(row));
    }
    return true;
  }
  const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  const char *primary = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
  fail(out, state ? state : kConnectionFailure,
       primary ? primary : firstLine(PQresultErrorMessage(r)));
  return false;
}

// Connects; null with `out` failed (08001) when it cannot.
ConnPtr connectTo(const PgConnParams &p, int64_t deadline, const std::function<bool()> &cancelled,
                  PostgresStepResult &out) {
  std::string why;
  if (!loadPq(why)) {
    fail(out, kCannotConnect, why);
    return nullptr;
  }
  ConnKeywords kw(p, 5000);
  ConnPtr c(PQconnectStartParams(kw.keys.data(), kw.vals.data(), 0));
  if (!c) { // libpq: only when it cannot allocate the connection
    fail(out, kCannotConnect, "PQconnectStartParams: out of memory");
    return nullptr;
  }
  PostgresPollingStatusType st = PGRES_POLLING_WRITING;
  while (PQstatus(c.get()) != CONNECTION_BAD && st != PGRES_POLLING_OK &&
         st != PGRES_POLLING_FAILED) {
    if (!waitConn(c.get(), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline, cancelled,
                  why)) {
      fail(out, kCannotConnect, "connect: " + why);
      return nullptr;
    }
    st = PQconnectPoll(c.get());
  }
  if (PQstatus(c.get()) != CONNECTION_OK) {
    fail(out, kCannotConnect, firstLine(PQerrorMessage(c.get())));
    return nullptr;
  }
  return c;
}

} // namespace

PostgresStepResult postgresStep(const PgConnParams &p, const std::string &sql,
                                const std::vector<std::optional<std::string>> &params,
                                const std::function<bool()> &cancelled, int64_t timeoutMs) {
  PostgresStepResult out;
  int64_t t0 = monotonicNs();
  int64_t deadline = t0 + timeoutMs * 1000000;
  auto finish = [&]() {
    out.durationMs = (monotonicNs() - t0) / 1000000;
    return out;
  };
  ConnPtr c = connectTo(p, std::min<int64_t>(deadline, t0 + 5 * 1000000000LL), cancelled, out);
  if (!c)
    return finish();
  std::vector<const char *> values;
  for (const auto &v : params)
    values.push_back(v ? v->c_str() : nullptr);
  int sent = params.empty()
                 ? PQsendQuery(c.get(), sql.c_str())
                 : PQsendQueryParams(c.get(), sql.c_str(), static_cast<int>(values.size()), nullptr,
                                     values.data(), nullptr, nullptr, 0);
  if (!sent) {
    fail(out, kConnectionFailure, firstLine(PQerrorMessage(c.get())));
    return finish();
  }
  std::string why;
  while (PQflush(c.get()) == 1)
    if (!waitConn(c.get(), POLLOUT, deadline, cancelled, why)) {
      fail(out, kConnectionFailure, "write: " + why);
      return finish();
    }
  out.ok = true;
  for (;;) {
    while (PQisBusy(c.get())) {
      if (!waitConn(c.get(), POLLIN, deadline, cancelled, why)) {
        fail(out, kConnectionFailure, "read: " + why);
        return finish();
      }
      if (!PQconsumeInput(c.get())) {
        // A server that answered an error and then closed (57P01 and its
        // kind) has left that error in a result: prefer it.
        if (out.ok)
          if (ResultPtr r{PQgetResult(c.get())}; !r || takeResult(out, r.get()))
            fail(out, kConnectionFailure, firstLine(PQerrorMessage(c.get())));
        return finish();
      }
    }
    ResultPtr r{PQgetResult(c.get())};
    if (!r)
      break;
    if (out.ok && !takeResult(out, r.get()))
      continue; // drain the rest: libpq ends every batch with a null result
  }
  return finish();
}

bool probePostgres(const PgConnParams &p, int64_t timeoutMs, std::string &error) {
  if (!loadPq(error))
    return false;
  ConnKeywords kw(p, timeoutMs);
  switch (PQpingParams(kw.keys.data(), kw.vals.data(), 0)) {
  case PQPING_OK:
    return true;
  case PQPING_REJECT:
    error = "the server rejects connections (starting up or shutting down)";
    return false;
  case PQPING_NO_RESPONSE:
    error = "no response";
    return false;
  case PQPING_NO_ATTEMPT:
    error = "bad connection parameters";
    return false;
  }
  return false;
}

} // namespace fbc::rt
