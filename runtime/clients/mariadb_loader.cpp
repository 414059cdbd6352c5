// libmariadb (MariaDB Connector/C), loaded on first use: this file defines
// the functions the MySQL step and probe call (mysql_step.cpp) and forwards
// each to the library, which it dlopen()s the first time the entry point is
// called. The reason is pq_loader.cpp's: libmariadb pulls in OpenSSL, whose
// loading would cost every fbc process resident memory although only
// `fbc run` with a mysql interface uses it. The header and libmariadb.so.3
// come from the same Debian packages (libmariadb-dev, libmariadb3).
//
// mysql_step.cpp calls loadMariadb() first, to report why the library is
// missing; the entry point mysql_init fails (null) when it is, and every
// other function is only reachable through the handle it returns.
#include "runtime/clients/mariadb_loader.h"

#include "frontend/support/lazy_library.h"

#include <mysql.h>

namespace {

// X(return type, name, parameters, arguments), one line per function used:
// the entry point, then the rest.
#define FBC_MARIADB_ENTRY_POINTS(X) X(MYSQL *, mysql_init, (MYSQL * m), (m))
#define FBC_MARIADB_REST(X)                                                                        \
  X(int, mysql_options, (MYSQL * m, enum mysql_option o, const void *a), (m, o, a))                \
  X(int, mysql_real_connect_start,                                                                 \
    (MYSQL * *r, MYSQL * m, const char *h, const char *u, const char *p, const char *d,            \
     unsigned int port, const char *s, unsigned long f),                                           \
    (r, m, h, u, p, d, port, s, f))                                                                \
  X(int, mysql_real_connect_cont, (MYSQL * *r, MYSQL * m, int s), (r, m, s))                       \
  X(my_socket, mysql_get_socket, (MYSQL * m), (m))                                                 \
  X(unsigned int, mysql_get_timeout_value_ms, (const MYSQL *m), (m))                               \
  X(void, mysql_close, (MYSQL * m), (m))                                                           \
  X(int, mysql_real_query_start, (int *r, MYSQL *m, const char *q, unsigned long n), (r, m, q, n)) \
  X(int, mysql_real_query_cont, (int *r, MYSQL *m, int s), (r, m, s))                              \
  X(int, mysql_store_result_start, (MYSQL_RES * *r, MYSQL * m), (r, m))                            \
  X(int, mysql_store_result_cont, (MYSQL_RES * *r, MYSQL * m, int s), (r, m, s))                   \
  X(int, mysql_next_result_start, (int *r, MYSQL *m), (r, m))                                      \
  X(int, mysql_next_result_cont, (int *r, MYSQL *m, int s), (r, m, s))                             \
  X(my_bool, mysql_more_results, (MYSQL * m), (m))                                                 \
  X(int, mysql_ping_start, (int *r, MYSQL *m), (r, m))                                             \
  X(int, mysql_ping_cont, (int *r, MYSQL *m, int s), (r, m, s))                                    \
  X(unsigned int, mysql_num_fields, (MYSQL_RES * r), (r))                                          \
  X(MYSQL_FIELD *, mysql_fetch_fields, (MYSQL_RES * r), (r))                                       \
  X(MYSQL_ROW, mysql_fetch_row, (MYSQL_RES * r), (r))                                              \
  X(unsigned long *, mysql_fetch_lengths, (MYSQL_RES * r), (r))                                    \
  X(void, mysql_free_result, (MYSQL_RES * r), (r))                                                 \
  X(unsigned int, mysql_errno, (MYSQL * m), (m))                                                   \
  X(const char *, mysql_error, (MYSQL * m), (m))                                                   \
  X(const char *, mysql_sqlstate, (MYSQL * m), (m))                                                \
  X(my_ulonglong, mysql_affected_rows, (MYSQL * m), (m))                                           \
  X(my_ulonglong, mysql_insert_id, (MYSQL * m), (m))                                               \
  X(unsigned long, mysql_real_escape_string,                                                       \
    (MYSQL * m, char *to, const char *from, unsigned long n), (m, to, from, n))

struct Mariadb {
  FBC_MARIADB_ENTRY_POINTS(FBC_LAZY_POINTER)
  FBC_MARIADB_REST(FBC_LAZY_POINTER)
};

Mariadb fns;
constinit fbc::support::LazyLibrary lib("libmariadb.so.3", "libmariadb3");

void bindAll(fbc::support::LazyLibrary &l) {
  FBC_MARIADB_ENTRY_POINTS(FBC_LAZY_BIND)
  FBC_MARIADB_REST(FBC_LAZY_BIND)
}

bool loaded() {
  return lib.load(bindAll);
}

} // namespace

extern "C" {

MYSQL *mysql_init(MYSQL *m) {
  return loaded() ? fns.mysql_init(m) : nullptr;
}

// The rest: reached only with a handle mysql_init made.
FBC_MARIADB_REST(FBC_LAZY_FORWARD)

} // extern "C"

namespace fbc::rt {

bool loadMariadb(std::string &error) {
  return lib.load(bindAll, error);
}

} // namespace fbc::rt
