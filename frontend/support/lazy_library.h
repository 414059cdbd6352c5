// One shared library that fbc loads with dlopen() the first time it is
// needed instead of linking it: libcurl, libmicrohttpd, libpq, libarchive
// and nettle's libhogweed, each of which would otherwise cost every fbc
// process resident memory at start-up (docs/architecture.md, "Dependencies").
// Each loader (runtime/clients/curl_loader.cpp, runtime/mock/mhd_loader.cpp,
// runtime/clients/pq_loader.cpp, bundle/archive_loader.cpp, ir/builtins/mock_jwt.cpp)
// keeps one of these, constinit at namespace scope, and a struct of the
// function pointers it binds.
//
// It lives in frontend/, the first folder of the pipeline, because ir/,
// runtime/ and bundle/ may all include that one; it knows nothing of
// Starlark.
#pragma once

#include <mutex>
#include <optional>
#include <string>

namespace fbc::support {

class LazyLibrary {
public:
  // soname: the name dlopen() looks up, e.g. "libcurl.so.4"; package: the
  // Debian package that installs it, named when it is missing. Nothing is
  // loaded until load(). Constant-initialized (nothing here allocates before
  // a failure), so a loader is ready before any static constructor runs.
  constexpr LazyLibrary(const char *soname, const char *package)
      : soname_(soname), package_(package) {}
  LazyLibrary(const LazyLibrary &) = delete;
  LazyLibrary &operator=(const LazyLibrary &) = delete;

  // The first call, from whichever thread comes first, dlopen()s the library
  // (RTLD_NOW | RTLD_LOCAL; it stays loaded) and, if that worked, runs
  // bindAll(*this); calls made meanwhile wait for it, later ones return at
  // once. True when the library loaded and every bind() found its symbol;
  // error() says why not.
  bool load(void (*bindAll)(LazyLibrary &));
  // The same, with error() copied to `error` when it failed: the body of a
  // loader's "load it up front, to say why it is missing" function.
  bool load(void (*bindAll)(LazyLibrary &), std::string &error) {
    if (load(bindAll))
      return true;
    error = this->error();
    return false;
  }

  // For bindAll: fn = the library's function `name` (null when it has none;
  // the first missing name is what error() reports).
  template <class F> void bind(const char *name, F &fn) { fn = reinterpret_cast<F>(symbol(name)); }

  // After load() returned false, one line saying why:
  //   "<soname> could not be loaded (Debian package <package>): <dlerror()>"
  //   "<soname> has no symbol <name>"
  // Empty when it returned true.
  const std::string &error() const;

private:
  void *symbol(const char *name);

  const char *soname_, *package_;
  void *handle_ = nullptr;
  std::optional<std::string> error_; // set once, by the first failure
  std::once_flag once_;
};

} // namespace fbc::support

// For loaders that list their functions as X(return type, name,
// (parameters), (arguments)) to define each one as a forwarder
// (runtime/clients/pq_loader.cpp, bundle/archive_loader.cpp): in the struct of
// pointers, FBC_LAZY_POINTER declares one named after the function; in the
// bindAll function, FBC_LAZY_BIND binds it, with the LazyLibrary named `l`
// and the struct `fns`; in an extern "C" block, FBC_LAZY_FORWARD defines the
// function as a call of the bound pointer (for functions reachable only
// through what an entry point, which loads the library, returned).
#define FBC_LAZY_POINTER(ret, name, params, args) ret(*name) params = nullptr;
#define FBC_LAZY_BIND(ret, name, params, args) l.bind(#name, fns.name);
#define FBC_LAZY_FORWARD(ret, name, params, args)                                                  \
  ret name params {                                                                                \
    return fns.name args;                                                                          \
  }
