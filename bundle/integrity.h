// Corruption detection for fbc's bundles. libarchive's zstd writer adds no
// frame checksum, so a flipped byte inside an entry's data decompresses
// without complaint; manifest.json therefore lists the SHA-256 of every
// other entry ("files"), and reading a bundle checks them. (A legacy gzip
// bundle has no "files"; gzip's own CRC-32 covers it.) This catches damage,
// not tampering: whoever can rewrite an entry can rewrite the manifest.
#pragma once

#include "bundle/archive.h"

#include <llvm/Support/Error.h>

#include <string>
#include <string_view>

namespace fbc::bundle {

// 64 lowercase hex digits.
std::string sha256Hex(std::string_view data);

// When manifest.json parses and has "files": every entry but manifest.json
// is listed, and every listed entry is present with that digest. `where`
// prefixes the error ("bundle \"x.fb\"").
llvm::Error checkIntegrity(const Contents &c, const std::string &where);

} // namespace fbc::bundle
