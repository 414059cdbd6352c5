// libmicrohttpd's functions, bound on first use (runtime/mock/mhd_loader.h).
#include "runtime/mock/mhd_loader.h"

#include "frontend/support/lazy_library.h"

namespace fbc::rt {

namespace {

Mhd fns;
constinit support::LazyLibrary lib("libmicrohttpd.so.12", "libmicrohttpd12");

void bindAll(support::LazyLibrary &l) {
  l.bind("MHD_start_daemon", fns.startDaemon);
  l.bind("MHD_stop_daemon", fns.stopDaemon);
  l.bind("MHD_create_response_from_buffer", fns.createResponseFromBuffer);
  l.bind("MHD_add_response_header", fns.addResponseHeader);
  l.bind("MHD_queue_response", fns.queueResponse);
  l.bind("MHD_destroy_response", fns.destroyResponse);
  l.bind("MHD_get_connection_values", fns.getConnectionValues);
}

} // namespace

bool loadMhd(std::string &error) {
  if (lib.load(bindAll))
    return true;
  error = lib.error();
  return false;
}

const Mhd &mhd() {
  return fns;
}

} // namespace fbc::rt
