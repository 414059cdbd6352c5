// The Postgres step (svc.<iface>.query(sql=, params=) / .exec(...)) and
// the Postgres readiness probe, over libpq (Debian libpq-dev). Each step is
// one connection: connect, run, close. libpq's asynchronous calls are driven
// here so the wait has a deadline and gives up when `cancelled()` turns true.
#pragma once

#include "runtime/clients/tls_dial.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

struct PgConnParams {
  std::string host = "127.0.0.1";
  uint16_t port = 5432;
  std::string user = "postgres";
  std::string password; // "" = none
  std::string dbname;   // "" = the user's name
  // An interface(tls=)'s: sslmode=verify-full with its CA (require with
  // insecure=True) instead of a clear connection.
  std::shared_ptr<const TlsClientConfig> tls;
};

struct PgColumn {
  std::string name;
  uint32_t typeOid = 0; // the server's type: 16 bool, 20/21/23 int, 700/701 float, ...
};

struct PostgresStepResult {
  bool ok = false;               // every statement ran
  std::string sqlstate;          // when !ok: the server's SQLSTATE, or 08001 (could not
                                 // connect) / 08006 (the connection broke) from libpq
  std::string message;           // when !ok: the primary message
  std::vector<PgColumn> columns; // of the last row set
  std::vector<std::vector<std::optional<std::string>>> rows; // text form; nullopt = NULL
  std::string command;      // the last command tag: "SELECT 2", "INSERT 0 1"
  int64_t rowsAffected = 0; // of the last command (PQcmdTuples), 0 if none
  int64_t durationMs = 0;
};

// Runs `sql` on a fresh connection. Without params it goes as one simple
// Query message (several statements allowed, the last row set is kept); with
// params, through the extended protocol ($1, $2 ... bound as text; nullopt
// is NULL). Connect timeout 5 s, the whole step `timeoutMs`.
PostgresStepResult postgresStep(const PgConnParams &conn, const std::string &sql,
                                const std::vector<std::optional<std::string>> &params,
                                const std::function<bool()> &cancelled, int64_t timeoutMs = 30000);

// One readiness probe: libpq's ping (what pg_isready does) answers "accepting
// connections". A server still starting up, or refusing, is not ready.
bool probePostgres(const PgConnParams &conn, int64_t timeoutMs, std::string &error);

} // namespace fbc::rt
