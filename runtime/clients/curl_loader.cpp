// libcurl, loaded on first use: this file defines the libcurl functions the
// runtime calls (HTTP steps, HTTP healthchecks) and forwards each to the
// library, which it dlopen()s the first time one is called.
//
// Why: libcurl pulls in about thirty shared libraries (OpenSSL, GnuTLS,
// Kerberos, LDAP, ...) whose loading and constructors cost every fbc process
// about 6.5 MB of resident memory and part of its start-up, although only
// `fbc run` with an HTTP step or healthcheck uses it (`fbc plan` on a
// 1,000-service spec: 78 -> 72 MB peak RSS). fbc links -ldl instead of
// -lcurl; the headers and libcurl.so.4 come from the same Debian packages.
//
// If the library cannot be loaded, curl_global_init() fails, curl_easy_init()
// returns null and curl_easy_strerror() says why (support::LazyLibrary's
// line), which the callers report as an error of the step or healthcheck.
#include "frontend/support/lazy_library.h"

#include <curl/curl.h>

#include <cstdarg>
#include <mutex>

namespace {

struct Curl {
  CURLcode (*globalInit)(long);
  CURL *(*easyInit)();
  CURLcode (*easySetopt)(CURL *, CURLoption, ...);
  CURLcode (*easyPerform)(CURL *);
  CURLcode (*easyGetinfo)(CURL *, CURLINFO, ...);
  void (*easyCleanup)(CURL *);
  const char *(*easyStrerror)(CURLcode);
  curl_slist *(*slistAppend)(curl_slist *, const char *);
  void (*slistFreeAll)(curl_slist *);
};

Curl fns;
constinit fbc::support::LazyLibrary lib("libcurl.so.4", "libcurl4");

void bindAll(fbc::support::LazyLibrary &l) {
  l.bind("curl_global_init", fns.globalInit);
  l.bind("curl_easy_init", fns.easyInit);
  l.bind("curl_easy_setopt", fns.easySetopt);
  l.bind("curl_easy_perform", fns.easyPerform);
  l.bind("curl_easy_getinfo", fns.easyGetinfo);
  l.bind("curl_easy_cleanup", fns.easyCleanup);
  l.bind("curl_easy_strerror", fns.easyStrerror);
  l.bind("curl_slist_append", fns.slistAppend);
  l.bind("curl_slist_free_all", fns.slistFreeAll);
}

// Whether fns is bound: false when the library or one of its functions is
// missing (lib.error() says which).
bool loaded() {
  return lib.load(bindAll);
}

} // namespace

extern "C" {

CURLcode curl_global_init(long flags) {
  return loaded() ? fns.globalInit(flags) : CURLE_FAILED_INIT;
}

// The first handle initialises the library, once for the process:
// curl_easy_init() would otherwise do it itself, which libcurl documents as
// unsafe while other threads use it (steps and healthchecks run on several).
CURL *curl_easy_init() {
  if (!loaded())
    return nullptr;
  static std::once_flag globalInit;
  std::call_once(globalInit, [] { fns.globalInit(CURL_GLOBAL_DEFAULT); });
  return fns.easyInit();
}

// setopt, perform, getinfo and cleanup take a handle, which only a loaded
// library gives: they call fns unchecked.

// The third argument's type follows from the option's number (curl.h's
// CURLOPTTYPE_* ranges): long, object pointer, function pointer, curl_off_t,
// blob pointer.
CURLcode curl_easy_setopt(CURL *h, CURLoption option, ...) {
  va_list ap;
  va_start(ap, option);
  CURLcode rc;
  if (option < CURLOPTTYPE_OBJECTPOINT)
    rc = fns.easySetopt(h, option, va_arg(ap, long));
  else if (option < CURLOPTTYPE_OFF_T)
    rc = fns.easySetopt(h, option, va_arg(ap, void *)); // objects and functions
  else if (option < CURLOPTTYPE_BLOB)
    rc = fns.easySetopt(h, option, va_arg(ap, curl_off_t));
  else
    rc = fns.easySetopt(h, option, va_arg(ap, void *));
  va_end(ap);
  return rc;
}

CURLcode curl_easy_perform(CURL *h) {
  return fns.easyPerform(h);
}

// Every CURLINFO_* result is returned through one pointer.
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...) {
  va_list ap;
  va_start(ap, info);
  CURLcode rc = fns.easyGetinfo(h, info, va_arg(ap, void *));
  va_end(ap);
  return rc;
}

void curl_easy_cleanup(CURL *h) {
  fns.easyCleanup(h);
}

const char *curl_easy_strerror(CURLcode rc) {
  return loaded() ? fns.easyStrerror(rc) : lib.error().c_str();
}

curl_slist *curl_slist_append(curl_slist *list, const char *s) {
  return loaded() ? fns.slistAppend(list, s) : nullptr;
}

void curl_slist_free_all(curl_slist *list) {
  if (loaded())
    fns.slistFreeAll(list);
}

} // extern "C"
