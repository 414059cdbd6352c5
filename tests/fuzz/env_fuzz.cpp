// libFuzzer target: env.json's parser (bundle/env.h) and what replay does
// with what it accepted (the remote services' warning). Whatever the bytes,
// the parser returns an error or an Env whose JSON parses back to the same
// JSON.
#include "bundle/env.h"

#include <cstdio>
#include <cstdlib>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "env_fuzz: broken promise: %s\n", what);
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view json(reinterpret_cast<const char *>(data), size);
  llvm::Expected<fbc::bundle::Env> e = fbc::bundle::parseEnv(json);
  if (!e) {
    llvm::consumeError(e.takeError());
    return 0;
  }
  std::string warning = fbc::bundle::replayRemotesWarning(e->remotes);
  check(warning.empty() == e->remotes.empty(), "remotes without a warning, or one without them");
  std::string once = fbc::bundle::formatEnvJson(*e);
  llvm::Expected<fbc::bundle::Env> back = fbc::bundle::parseEnv(once);
  check(bool(back), "the JSON written from a parsed env.json does not parse");
  if (!back) {
    llvm::consumeError(back.takeError());
    return 0;
  }
  check(fbc::bundle::formatEnvJson(*back) == once,
        "an env written, parsed and written again changed");
  return 0;
}
