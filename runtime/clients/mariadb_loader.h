// libmariadb is loaded on first use (runtime/clients/mariadb_loader.cpp
// defines the mysql_* functions the runtime calls and forwards them to the
// dlopen()ed libmariadb.so.3). This asks for it up front, to say why it is
// missing.
#pragma once

#include <string>

namespace fbc::rt {

// Loads libmariadb.so.3 on the first call (from any thread). False when the
// library or one of its functions is missing, with `error` saying which.
bool loadMariadb(std::string &error);

} // namespace fbc::rt
