// What the e2e tests against Debian's servers make before they run:
// a PostgreSQL 15 data directory (protocol_e2e_test.cpp,
// explore_servers_e2e_test.cpp).
#pragma once

#include <string>
#include <vector>

namespace fbc::rt::e2e {

inline constexpr const char *kPgBin = "/usr/lib/postgresql/15/bin";
inline constexpr const char *kPgUser = "postgres";

// Runs argv, its output into `log`; the exit status.
int runCommand(const std::vector<std::string> &argv, const std::string &log);

// initdb of `pgData` (created, owned by the "postgres" account, trust
// authentication, no fsync), its log in `log`; "" or why it could not be
// made. The folder above `pgData` must be walkable by that account.
std::string makePgData(const std::string &pgData, const std::string &log);

} // namespace fbc::rt::e2e
