// The `.fb` container: reading and writing the tar archive a bundle is
// (docs/bundle.md). This file owns the byte format only: tar with zstd (what
// fbc writes) or gzip (the reference tool's legacy layout, read only), the
// fixed entry order, the fixed entry metadata that makes the same entries give
// the same bytes, and the checks that turn a hostile archive into an error
// message. What the entries mean (manifest, plan, trace) lives elsewhere in
// bundle/.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::bundle {

struct Entry {
  std::string name; // relative path inside the archive, '/'-separated
  std::string data;
  unsigned mode = 0644; // permission bits; fbc writes 0644, or 0755 for replay.sh
};

struct Contents {
  std::vector<Entry> entries;                     // archive order
  bool legacy = false;                            // the reference tool's tar.gz layout
  const Entry *find(std::string_view name) const; // nullptr if absent
};

struct ReadLimits {
  uint64_t maxEntryBytes = 256ull << 20;
  uint64_t maxTotalBytes = 1ull << 30;
  size_t maxEntries = 100000;
};

// Reads a .fb (tar+zstd) or a legacy tar.gz. Hostile input → an error
// message, never a crash: an entry name that is absolute, contains "..", an
// empty or "." component or a control character; a symlink, hard link,
// device, FIFO or socket; a name seen twice; a truncated or corrupted
// archive; an entry, a total or an entry count over `limits`; an entry whose
// SHA-256 is not the one manifest.json lists (integrity.h). Directory
// entries carry no data and are skipped (after their name is checked).
llvm::Expected<Contents> readBundle(const std::string &path, const ReadLimits &limits = {});
// The same on bytes already in memory; `displayName` names them in errors
// (the fuzz target and tests use this).
llvm::Expected<Contents> readBundleBytes(std::string_view bytes, const std::string &displayName,
                                         const ReadLimits &limits = {});

// Whether `name` is acceptable as an entry name (the rule readBundle applies
// and extraction relies on); on false, `why` says what is wrong.
bool isSafeEntryName(std::string_view name, std::string &why);

enum class Compression { Zstd, Gzip };

struct WriteOptions {
  Compression compression = Compression::Zstd;
  int level = 3; // zstd level (gzip: 6)
};

// The fixed order of a bundle's entries: manifest.json, env.json, trace.json,
// plan.json, replay.sh, then services/..., then spec/..., then anything
// else; within a group, byte-wise by name. Stable.
void sortEntries(std::vector<Entry> &entries);

// The archive bytes of `entries` in the given order (call sortEntries first
// for a bundle). Every entry is a regular file with mtime 0, uid/gid 0, no
// user or group names and `mode & 0777`, so the same entries always give
// the same bytes. Fails on an unsafe or duplicate name.
llvm::Expected<std::string> encodeArchive(const std::vector<Entry> &entries,
                                          const WriteOptions &opts = {});

// Writes `bytes` to `path` atomically: a temporary file in the same folder,
// then rename(2). A failure leaves no partial file behind.
llvm::Error writeFileAtomic(const std::string &path, std::string_view bytes, unsigned mode = 0644);

// For an exit in the middle of writeFileAtomic() (a second SIGINT or
// SIGTERM): removes its temporary file and returns the path it was writing
// ("" when no write is under way). The write itself then fails if it goes
// on, and leaves nothing either.
std::string abandonAtomicWrite();

} // namespace fbc::bundle
