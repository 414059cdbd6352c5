#include "runtime/mhd_loader.h"

#include <dlfcn.h>

#include <mutex>

namespace fbc::rt {

namespace {

template <class F> bool bind(void *lib, const char *name, F &fn) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  return fn != nullptr;
}

} // namespace

const Mhd &mhd() {
  static Mhd m;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return;
    m.ok = bind(lib, "MHD_start_daemon", m.startDaemon) &&
           bind(lib, "MHD_stop_daemon", m.stopDaemon) &&
           bind(lib, "MHD_create_response_from_buffer", m.createResponseFromBuffer) &&
           bind(lib, "MHD_add_response_header", m.addResponseHeader) &&
           bind(lib, "MHD_queue_response", m.queueResponse) &&
           bind(lib, "MHD_destroy_response", m.destroyResponse) &&
           bind(lib, "MHD_get_connection_values", m.getConnectionValues);
  });
  return m;
}

} // namespace fbc::rt
