// env.json: where a bundle was made: host OS, architecture and kernel, fbc's
// version and commit, the libseccomp and libarchive versions, the remote
// services the run dialled (a replay dials them again) and the container
// images it ran, each with the ID it resolved to (a replay warns when it
// resolves to another). Nothing
// run-specific (no host name, no time), so two runs of a spec on one host
// write the same env.json.
#pragma once

#include "ir/spec.h"

#include <llvm/Support/Error.h>

#include <string>
#include <string_view>
#include <vector>

namespace fbc::bundle {

// One interface of a service(remote=...): "host" is its address with the
// port ("10.0.0.5:6379"; Service::address()).
struct EnvRemote {
  std::string service, interface, host, protocol;
};

// An image the run's container services used: the reference as the spec
// wrote it and the image ID the engine resolved it to ("sha256:...").
struct EnvImage {
  std::string image, id;
};

struct Env {
  std::string os, arch, kernel;
  std::string fbcVersion, fbcCommit;
  std::string libseccompVersion, libarchiveVersion;
  std::vector<EnvRemote> remotes; // "remotes": omitted when empty
  std::vector<EnvImage> images;   // "images": omitted when empty
};

// The remote interfaces of `spec`: services in spec order, each one's
// interfaces sorted by name (the reference's order).
std::vector<EnvRemote> envRemotes(const ir::Spec &spec);

// `fbc replay`'s warning for a bundle whose run used remote services
// (empty when it used none): it lists each and says the replay re-dials
// them, so what they answer now may differ from what they answered then.
std::string replayRemotesWarning(const std::vector<EnvRemote> &remotes);

// `fbc replay`'s warning for an image that resolves to another ID now than
// it did for the run (`now` "" when the engine no longer has it): the
// replay runs other bytes under the same name.
std::string replayImageWarning(const EnvImage &then, const std::string &now);

// This host and process.
Env currentEnv(const std::string &fbcVersion, const std::string &fbcCommit);
std::string formatEnvJson(const Env &e);
// Unknown keys are ignored (the reference's env.json has others); a wrong
// type is an error.
llvm::Expected<Env> parseEnv(std::string_view json);

} // namespace fbc::bundle
