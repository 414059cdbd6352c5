// Launch configuration: what the supervisor starts for an IR service (its
// binary resolved against the spec's directory, args, the discovery
// environment of every interface, cwd, trapped syscalls, ports and
// healthcheck). Nothing here runs a process.
#pragma once

#include "ir/spec.h"
#include "runtime/clients/postgres_step.h"
#include "runtime/proxy/proxy.h"
#include "runtime/supervisor/service.h"

#include <string>
#include <vector>

namespace fbc::rt {

// The directory of the spec file (absolute when it resolves): relative
// binaries and every service's cwd.
std::string specDir(const std::string &specPath);

// How fbc's own Postgres clients (the query/exec steps, the readiness
// probe) reach service `s` at `at` (its address or its proxy's), with the
// credentials of the service's env as the postgres image names them:
// POSTGRES_USER (default "postgres"), POSTGRES_PASSWORD, POSTGRES_DB
// (default: the user).
PgConnParams pgConnParams(const ir::Service &s, const ir::Address &at);
// The same for a mysql interface, as the mysql and mariadb images name
// them: MYSQL_USER / MARIADB_USER (default "root"), MYSQL_PASSWORD /
// MARIADB_PASSWORD (root's: MYSQL_ROOT_PASSWORD / MARIADB_ROOT_PASSWORD),
// MYSQL_DATABASE / MARIADB_DATABASE (default: none).
MysqlConnParams mysqlConnParams(const ir::Service &s, const ir::Address &at);

// The readiness probe of service `s`: its healthcheck= (a localhost URL
// dialled as 127.0.0.1), or ready= of its default interface at its
// address (Service::address()); Kind::None without one. A probe of a TLS
// interface (an https:// URL on its port, ready()) speaks TLS with its CA,
// the tls_cert paths resolved against `specDir`.
Healthcheck healthcheckOf(const ir::Service &s, const std::string &specDir);

// Service `s` of `spec` as the supervisor starts it, trapping `trapped`
// (sorted syscall numbers). `proxies` are the test's proxied interfaces
// (runtime/proxy/proxy.h): every other service's interface that has one is
// reached through it, so in `s`'s env values `localhost:<port>` and
// `127.0.0.1:<port>` of that interface become the proxy's address, as do
// the FAULTBOX_<SVC>_<IFACE>_* variables and the .proxy_addr/.proxy_host/
// .proxy_port placeholders (which name the real address when there is no
// proxy). A service's own addresses are never rewritten. `scratch` (the
// leaf's scratch directory, "" for none) is FBC_SCRATCH in its environment
// and replaces $FBC_SCRATCH and ${FBC_SCRATCH} in its args and env values.
ServiceSpec launchConfig(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                         std::vector<int> trapped, const std::vector<ProxyEndpoint> &proxies = {},
                         const std::string &scratch = "");

} // namespace fbc::rt
