// libFuzzer target: manifest.json's parser (bundle/manifest.h), and what
// every reader does next with a manifest it accepted: each row's display
// name, and the manifest written back (merge and replay write what they
// read). Whatever the bytes, the parser returns an error or a manifest
// whose JSON parses back to the same JSON.
#include "bundle/manifest.h"

#include <cstdio>
#include <cstdlib>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "manifest_fuzz: broken promise: %s\n", what);
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view json(reinterpret_cast<const char *>(data), size);
  llvm::Expected<fbc::bundle::Manifest> m = fbc::bundle::parseManifest(json);
  if (!m) {
    llvm::consumeError(m.takeError());
    return 0;
  }
  for (const fbc::bundle::TestRow &row : m->tests)
    check(!row.displayName().empty() || row.name.empty(), "a named row has no display name");
  std::string once = fbc::bundle::formatManifestJson(*m);
  llvm::Expected<fbc::bundle::Manifest> back = fbc::bundle::parseManifest(once);
  if (!back) {
    std::string why = llvm::toString(back.takeError());
    std::fprintf(stderr, "manifest_fuzz: %s\n", why.c_str());
    check(false, "the JSON written from a parsed manifest does not parse");
  }
  check(fbc::bundle::formatManifestJson(*back) == once,
        "a manifest written, parsed and written again changed");
  check(back->summary.total == m->tests.size(), "the summary does not count the rows");
  return 0;
}
