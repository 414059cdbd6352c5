// The MySQL / MariaDB step (svc.<iface>.query(sql=, params=) / .exec(...))
// and readiness probe, over libmariadb (MariaDB Connector/C, Debian
// libmariadb-dev) in its non-blocking mode, so that every wait has a
// deadline and gives up when `cancelled()` turns true. Each step is one
// connection: connect, run, close.
#pragma once

#include "runtime/clients/tls_dial.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

struct MysqlConnParams {
  std::string host = "127.0.0.1";
  uint16_t port = 3306;
  std::string user = "root";
  std::string password; // "" = none
  std::string database; // "" = none selected
  // An interface(tls=)'s: TLS required, the server verified with its CA
  // (not with insecure=True).
  std::shared_ptr<const TlsClientConfig> tls;
};

// How a column's text converts to Starlark (the column's MySQL type).
enum class MysqlColumnKind { Int, Float, Text };

struct MysqlColumn {
  std::string name;
  MysqlColumnKind kind = MysqlColumnKind::Text;
};

// A bound parameter, written into the statement as a literal (the text
// protocol, as the Go driver's interpolateParams does): NULL, a number or
// boolean as it is, or a string quoted and escaped by the server's rules.
struct MysqlParam {
  enum class Kind { Null, Literal, String } kind = Kind::Null;
  std::string text;
};

struct MysqlStepResult {
  bool ok = false;                  // every statement ran
  unsigned code = 0;                // when !ok: the server's error number (1062), or the client's
                                    // (2003 cannot connect, 2013 lost the connection)
  std::string sqlstate;             // when !ok: "23000"; HY000 when the server gave none
  std::string message;              // when !ok
  std::vector<MysqlColumn> columns; // of the last row set
  std::vector<std::vector<std::optional<std::string>>> rows; // text; nullopt = NULL
  int64_t rowsAffected = 0; // of the last statement (rows of a SELECT)
  uint64_t lastInsertId = 0;
  int64_t durationMs = 0;
};

// Runs `sql` on a fresh connection, several statements allowed (the last row
// set is kept), `params` replacing the `?` placeholders outside quotes and
// comments in order. Connect timeout 5 s, the whole step `timeoutMs`.
MysqlStepResult mysqlStep(const MysqlConnParams &conn, const std::string &sql,
                          const std::vector<MysqlParam> &params,
                          const std::function<bool()> &cancelled, int64_t timeoutMs = 30000);

// One readiness probe: logs in and pings. A server still starting, or one
// refusing the login, is not ready (`error` says why).
bool probeMysql(const MysqlConnParams &conn, int64_t timeoutMs, std::string &error);

} // namespace fbc::rt
