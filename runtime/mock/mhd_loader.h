// libmicrohttpd, loaded on first use: the HTTP server behind fbc run's HTTP
// mocks (runtime/mock/mock_http.cpp). Like libcurl and libpq it is dlopen()ed
// rather than linked: libmicrohttpd.so.12 pulls in GnuTLS and its
// dependencies, which would cost every fbc process (fbc plan included)
// their resident memory at start-up for something only a spec with an HTTP
// mock uses. The header and the library come from libmicrohttpd-dev.
#pragma once

#include <microhttpd.h>

#include <string>

namespace fbc::rt {

struct Mhd {
  MHD_Daemon *(*startDaemon)(unsigned, uint16_t, MHD_AcceptPolicyCallback, void *,
                             MHD_AccessHandlerCallback, void *, ...);
  void (*stopDaemon)(MHD_Daemon *);
  MHD_Response *(*createResponseFromBuffer)(size_t, void *, MHD_ResponseMemoryMode);
  MHD_Result (*addResponseHeader)(MHD_Response *, const char *, const char *);
  MHD_Result (*queueResponse)(MHD_Connection *, unsigned, MHD_Response *);
  void (*destroyResponse)(MHD_Response *);
  int (*getConnectionValues)(MHD_Connection *, MHD_ValueKind, MHD_KeyValueIterator, void *);
};

// Loads libmicrohttpd.so.12 on the first call (from any thread). False when
// the library or one of its functions is missing, with `error` saying which
// (the mock then fails to start, saying so).
bool loadMhd(std::string &error);

// The bound functions: only after loadMhd() returned true (a mock calls it
// before it starts its daemon, and every other call needs that daemon).
const Mhd &mhd();

} // namespace fbc::rt
