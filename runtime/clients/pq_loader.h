// libpq is loaded on first use (runtime/clients/pq_loader.cpp defines the PQ*
// functions the runtime calls and forwards them to the dlopen()ed
// libpq.so.5). This asks for it up front, to say why it is missing.
#pragma once

#include <string>

namespace fbc::rt {

// Loads libpq.so.5 on the first call (from any thread). False when the
// library or one of its functions is missing, with `error` saying which.
bool loadPq(std::string &error);

} // namespace fbc::rt
