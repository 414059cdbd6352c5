// LazyLibrary: dlopen() once, dlsym() each function, one line on failure.
#include "frontend/support/lazy_library.h"

#include <dlfcn.h>

namespace fbc::support {

bool LazyLibrary::load(void (*bindAll)(LazyLibrary &)) {
  std::call_once(once_, [&] {
    handle_ = dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
      error_ = std::string(soname_) + " could not be loaded (Debian package " + package_ +
               "): " + dlerror();
      return;
    }
    bindAll(*this);
  });
  return !error_;
}

const std::string &LazyLibrary::error() const {
  static const std::string none;
  return error_ ? *error_ : none;
}

void *LazyLibrary::symbol(const char *name) {
  // dlsym() returns null for a missing name (the functions bound here are
  // never null themselves), so the result alone tells.
  void *p = dlsym(handle_, name);
  if (!p && !error_)
    error_ = std::string(soname_) + " has no symbol " + name;
  return p;
}

} // namespace fbc::support
