// service(build=DIR): the image built from DIR's Dockerfile through the
// engine API (POST /build with the directory as the build context), tagged
// by the context's content, `localhost/fbc-build-<service>:<16 hex digits
// of its SHA-256>`: a context whose files did not change is the image
// already built (no build at all), a change is a new tag.
#pragma once

#include "runtime/containers/engine.h"

#include <string>

namespace fbc::rt::containers {

// The build context as the engine takes it: a gzip'd tar of `dir`'s files,
// the same bytes for the same files (names sorted, mtimes 0). runtime/ has
// no archive writer of its own: the tool that links one sets it (tools/fbc:
// bundle::encodeArchive, the writer of the run bundles), with the SHA-256
// (hex) of the files themselves in `digest`. False with `error`.
using ContextEncoder = bool (*)(const std::string &dir, std::string &bytes, std::string &digest,
                                std::string &error);
void setContextEncoder(ContextEncoder encoder);

// The tag of `service`'s image built from `dir` (absolute), building it
// when the engine does not have it; "" with `error` naming the directory
// and the engine's message.
std::string buildImage(const Engine &engine, const std::string &service, const std::string &dir,
                       std::string &error);

} // namespace fbc::rt::containers
