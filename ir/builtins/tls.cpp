// tls_cert(proxy_cert=, proxy_key=, client_cert=, client_key=, ca=,
// insecure=): TLS material for interface(tls=), with the reference's checks
// at load: the pairs, ca against insecure=True, each named file exists
// (relative to the spec's folder) and the CA file holds a PEM certificate.
// fbc's proxy terminates TLS with proxy_cert (runtime/proxy/tls_bridge.h): a
// test whose proxy stands in front of a TLS interface without one is an
// error row (backend/leaf_lower.cpp). tls= on a udp interface is refused by
// interface() (the protocol table's TlsStart::None).
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/quote.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace fbc::ir::builtins {

using star::Value;

namespace {

// What the reference checks of the files at load, with its messages.
void checkFiles(const CallSite &site, const std::string &specDir, const TlsCert &c) {
  for (auto [field, path] : {std::pair{"proxy_cert", &c.proxyCert},
                             {"proxy_key", &c.proxyKey},
                             {"client_cert", &c.clientCert},
                             {"client_key", &c.clientKey},
                             {"ca", &c.ca}}) {
    if (path->empty())
      continue;
    std::string resolved = *path;
    if (!llvm::sys::path::is_absolute(resolved) && !specDir.empty()) {
      llvm::SmallString<256> joined(specDir);
      llvm::sys::path::append(joined, resolved);
      resolved = std::string(joined.str());
    }
    std::string prefix = std::string("tls_cert: ") + field + " file " + quote(*path) + ": ";
    struct stat st;
    if (::stat(resolved.c_str(), &st) != 0)
      site.fail(prefix + "stat " + resolved + ": " + errnoText(errno));
    if (std::string_view(field) != "ca")
      continue;
    std::ifstream in(resolved, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    // A certificate block, as AppendCertsFromPEM needs one to add.
    std::string s = text.str();
    size_t begin = s.find("-----BEGIN CERTIFICATE-----");
    if (begin == std::string::npos ||
        s.find("-----END CERTIFICATE-----", begin) == std::string::npos)
      site.fail("tls_cert: ca file " + quote(*path) + ": no PEM certificates found");
  }
}

} // namespace

void TlsCertValue::repr(star::Printer &p) const {
  p.write("<tls_cert");
  if (!data->proxyCert.empty())
    p.write(" proxy_cert=" + data->proxyCert);
  if (!data->clientCert.empty())
    p.write(" client_cert=" + data->clientCert);
  if (!data->ca.empty())
    p.write(" ca=" + data->ca);
  if (data->insecure)
    p.write(" insecure");
  p.write('>');
}

namespace {

// A path: fbc is stricter than the reference, which reads a non-string as "".
template <std::string TlsCert::*Field> void readPath(TlsCert &cert, const Arg &arg) {
  auto *s = arg.value.as<star::String>();
  if (!s)
    arg.site().fail(arg.at(), "tls_cert: " + std::string(arg.name) +
                                  " must be a string (a path), got " + typeOf(arg.value));
  cert.*Field = std::string(s->view());
}

void readInsecure(TlsCert &cert, const Arg &arg) {
  auto *v = arg.value.as<star::Bool>();
  if (!v)
    arg.site().fail(arg.at(), "tls_cert: insecure must be a bool");
  cert.insecure = v->value;
}

constexpr Param<TlsCert> kTlsCertParams[] = {
    {"proxy_cert", readPath<&TlsCert::proxyCert>},
    {"proxy_key", readPath<&TlsCert::proxyKey>},
    {"client_cert", readPath<&TlsCert::clientCert>},
    {"client_key", readPath<&TlsCert::clientKey>},
    {"ca", readPath<&TlsCert::ca>},
    {"insecure", readInsecure},
};

} // namespace

Value tlsCertFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)), "tls_cert: positional args not supported; use kwargs");
  auto cert = std::make_shared<TlsCert>();
  cert->loc = site.loc();
  // The reference ignores an unknown keyword; a typo would drop a file.
  bindKeywords(BindCall(site, args, {"tls_cert()"}), kTlsCertParams, *cert);
  if (cert->proxyCert.empty() != cert->proxyKey.empty())
    site.fail("tls_cert: proxy_cert and proxy_key must both be set or both omitted (got cert=" +
              quote(cert->proxyCert) + " key=" + quote(cert->proxyKey) + ")");
  if (cert->clientCert.empty() != cert->clientKey.empty())
    site.fail("tls_cert: client_cert and client_key must both be set or both omitted (got cert=" +
              quote(cert->clientCert) + " key=" + quote(cert->clientKey) + ")");
  if (cert->insecure && !cert->ca.empty())
    site.fail("tls_cert: ca and insecure=True are mutually exclusive (insecure skips CA "
              "verification entirely)");
  checkFiles(site, b.specDir, *cert);
  auto *v = t.heap.make<TlsCertValue>();
  v->data = std::move(cert);
  return Value::object(v);
}

} // namespace fbc::ir::builtins
