// A service(build=DIR) build context as the container engine takes it
// (runtime/containers/image_build.h): DIR's regular files, recursively,
// in a gzip'd tar written by the bundle's own archive writer (encodeArchive:
// names sorted, mtime 0, uid/gid 0, the files' permission bits), so the
// same files always give the same bytes and the same image tag.
#pragma once

#include <string>

namespace fbc::bundle {

// `digest` is the SHA-256 (hex) of the files themselves (names, permission
// bits, contents), not of the compressed bytes (gzip's header is not
// content). False with `error` when DIR is not a directory, has no
// Dockerfile, holds a symlink, device, FIFO or socket (named), or cannot be
// read.
bool encodeBuildContext(const std::string &dir, std::string &bytes, std::string &digest,
                        std::string &error);

} // namespace fbc::bundle
