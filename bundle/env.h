// env.json: where a bundle was made: host OS, architecture and kernel, fbc's
// version and commit, the libseccomp and libarchive versions. Nothing
// run-specific (no host name, no time), so two runs on one host write the
// same env.json.
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <string_view>

namespace fbc::bundle {

struct Env {
  std::string os, arch, kernel;
  std::string fbcVersion, fbcCommit;
  std::string libseccompVersion, libarchiveVersion;
};

// This host and process.
Env currentEnv(const std::string &fbcVersion, const std::string &fbcCommit);
std::string formatEnvJson(const Env &e);
// Unknown keys are ignored (the reference's env.json has others); a wrong
// type is an error.
llvm::Expected<Env> parseEnv(std::string_view json);

} // namespace fbc::bundle
