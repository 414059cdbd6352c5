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
// If the library cannot be loaded, curl_global_init() fails and
// curl_easy_init() returns null, which the callers report as an error of
// the step or healthcheck.
#include <curl/curl.h>
#include <dlfcn.h>

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
  bool ok = false;
};

template <class F> bool bind(void *lib, const char *name, F &fn) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  return fn != nullptr;
}

const Curl &curl() {
  static Curl c;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return;
    c.ok = bind(lib, "curl_global_init", c.globalInit) && bind(lib, "curl_easy_init", c.easyInit) &&
           bind(lib, "curl_easy_setopt", c.easySetopt) &&
           bind(lib, "curl_easy_perform", c.easyPerform) &&
           bind(lib, "curl_easy_getinfo", c.easyGetinfo) &&
           bind(lib, "curl_easy_cleanup", c.easyCleanup) &&
           bind(lib, "curl_easy_strerror", c.easyStrerror) &&
           bind(lib, "curl_slist_append", c.slistAppend) &&
           bind(lib, "curl_slist_free_all", c.slistFreeAll);
  });
  return c;
}

} // namespace

extern "C" {

CURLcode curl_global_init(long flags) {
  return curl().ok ? curl().globalInit(flags) : CURLE_FAILED_INIT;
}

CURL *curl_easy_init() {
  return curl().ok ? curl().easyInit() : nullptr;
}

// The third argument's type follows from the option's number (curl.h's
// CURLOPTTYPE_* ranges): long, object pointer, function pointer, curl_off_t,
// blob pointer.
CURLcode curl_easy_setopt(CURL *h, CURLoption option, ...) {
  va_list ap;
  va_start(ap, option);
  CURLcode rc;
  if (option < CURLOPTTYPE_OBJECTPOINT)
    rc = curl().easySetopt(h, option, va_arg(ap, long));
  else if (option < CURLOPTTYPE_OFF_T)
    rc = curl().easySetopt(h, option, va_arg(ap, void *)); // objects and functions
  else if (option < CURLOPTTYPE_BLOB)
    rc = curl().easySetopt(h, option, va_arg(ap, curl_off_t));
  else
    rc = curl().easySetopt(h, option, va_arg(ap, void *));
  va_end(ap);
  return rc;
}

CURLcode curl_easy_perform(CURL *h) {
  return curl().easyPerform(h);
}

// Every CURLINFO_* result is returned through one pointer.
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...) {
  va_list ap;
  va_start(ap, info);
  CURLcode rc = curl().easyGetinfo(h, info, va_arg(ap, void *));
  va_end(ap);
  return rc;
}

void curl_easy_cleanup(CURL *h) {
  curl().easyCleanup(h);
}

const char *curl_easy_strerror(CURLcode rc) {
  return curl().ok ? curl().easyStrerror(rc) : "libcurl.so.4 could not be loaded";
}

curl_slist *curl_slist_append(curl_slist *list, const char *s) {
  return curl().ok ? curl().slistAppend(list, s) : nullptr;
}

void curl_slist_free_all(curl_slist *list) {
  if (curl().ok)
    curl().slistFreeAll(list);
}

} // extern "C"
