// libpq, loaded on first use: this file defines the libpq functions the
// runtime calls (the Postgres step and the postgres() probe, in
// postgres_step.cpp) and forwards each to the library, which it dlopen()s
// the first time an entry point is called. The reason is curl_loader.cpp's:
// libpq pulls in OpenSSL, Kerberos and LDAP, whose loading would cost every
// fbc process resident memory although only `fbc run` with a postgres
// interface uses it. The headers and libpq.so.5 come from the same Debian
// packages (libpq-dev, libpq5).
//
// postgres_step.cpp calls loadPq() first, to report why the library is
// missing; the entry points PQconnectStartParams and PQpingParams fail
// (null, PQPING_NO_ATTEMPT) when it is, and every other function is only
// reachable through the connection they return.
#include "runtime/clients/pq_loader.h"

#include "frontend/support/lazy_library.h"

#include <libpq-fe.h>

namespace {

// X(return type, name, parameters, arguments), one line per function used:
// the two entry points, then the rest.
#define FBC_PQ_ENTRY_POINTS(X)                                                                     \
  X(PGconn *, PQconnectStartParams, (const char *const *k, const char *const *v, int e),           \
    (k, v, e))                                                                                     \
  X(PGPing, PQpingParams, (const char *const *k, const char *const *v, int e), (k, v, e))
#define FBC_PQ_REST(X)                                                                             \
  X(PostgresPollingStatusType, PQconnectPoll, (PGconn * c), (c))                                   \
  X(ConnStatusType, PQstatus, (const PGconn *c), (c))                                              \
  X(char *, PQerrorMessage, (const PGconn *c), (c))                                                \
  X(int, PQsocket, (const PGconn *c), (c))                                                         \
  X(void, PQfinish, (PGconn * c), (c))                                                             \
  X(int, PQsendQuery, (PGconn * c, const char *q), (c, q))                                         \
  X(int, PQsendQueryParams,                                                                        \
    (PGconn * c, const char *q, int n, const Oid *t, const char *const *v, const int *l,           \
     const int *f, int rf),                                                                        \
    (c, q, n, t, v, l, f, rf))                                                                     \
  X(int, PQflush, (PGconn * c), (c))                                                               \
  X(int, PQisBusy, (PGconn * c), (c))                                                              \
  X(int, PQconsumeInput, (PGconn * c), (c))                                                        \
  X(PGresult *, PQgetResult, (PGconn * c), (c))                                                    \
  X(ExecStatusType, PQresultStatus, (const PGresult *r), (r))                                      \
  X(char *, PQcmdStatus, (PGresult * r), (r))                                                      \
  X(char *, PQcmdTuples, (PGresult * r), (r))                                                      \
  X(int, PQnfields, (const PGresult *r), (r))                                                      \
  X(char *, PQfname, (const PGresult *r, int i), (r, i))                                           \
  X(Oid, PQftype, (const PGresult *r, int i), (r, i))                                              \
  X(int, PQntuples, (const PGresult *r), (r))                                                      \
  X(int, PQgetisnull, (const PGresult *r, int i, int j), (r, i, j))                                \
  X(char *, PQgetvalue, (const PGresult *r, int i, int j), (r, i, j))                              \
  X(int, PQgetlength, (const PGresult *r, int i, int j), (r, i, j))                                \
  X(char *, PQresultErrorField, (const PGresult *r, int f), (r, f))                                \
  X(char *, PQresultErrorMessage, (const PGresult *r), (r))                                        \
  X(void, PQclear, (PGresult * r), (r))

struct Pq {
  FBC_PQ_ENTRY_POINTS(FBC_LAZY_POINTER)
  FBC_PQ_REST(FBC_LAZY_POINTER)
};

Pq fns;
constinit fbc::support::LazyLibrary lib("libpq.so.5", "libpq5");

void bindAll(fbc::support::LazyLibrary &l) {
  FBC_PQ_ENTRY_POINTS(FBC_LAZY_BIND)
  FBC_PQ_REST(FBC_LAZY_BIND)
}

bool loaded() {
  return lib.load(bindAll);
}

} // namespace

extern "C" {

PGconn *PQconnectStartParams(const char *const *k, const char *const *v, int e) {
  return loaded() ? fns.PQconnectStartParams(k, v, e) : nullptr;
}

PGPing PQpingParams(const char *const *k, const char *const *v, int e) {
  return loaded() ? fns.PQpingParams(k, v, e) : PQPING_NO_ATTEMPT;
}

// The rest: reached only with a connection an entry point made.
FBC_PQ_REST(FBC_LAZY_FORWARD)

} // extern "C"

namespace fbc::rt {

bool loadPq(std::string &error) {
  return lib.load(bindAll, error);
}

} // namespace fbc::rt
