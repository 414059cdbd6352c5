#include "bundle/replay.h"

#include "ir/quote.h"
#include "runtime/os/leaf_isolation.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

namespace fbc::bundle {
namespace {

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

// The folder (relative, "" or "a/b") to extract the snapshot into so that
// `specRoot` run from the extraction root names the snapshot's root `rel`;
// "-" when the recorded path cannot be reproduced (absolute, "..", or not
// ending in `rel`).
std::string layoutPrefix(const std::string &specRoot, const std::string &rel) {
  if (specRoot.empty() || llvm::sys::path::is_absolute(specRoot))
    return "-";
  for (auto it = llvm::sys::path::begin(specRoot); it != llvm::sys::path::end(specRoot); ++it)
    if (*it == "..")
      return "-";
  // "./x.star" runs as given; only the comparison drops the "./".
  llvm::SmallString<256> norm(specRoot);
  llvm::sys::path::remove_dots(norm);
  std::string s(norm.str());
  if (s == rel)
    return "";
  if (s.size() > rel.size() && s.compare(s.size() - rel.size(), rel.size(), rel) == 0 &&
      s[s.size() - rel.size() - 1] == '/')
    return s.substr(0, s.size() - rel.size() - 1);
  return "-";
}

} // namespace

llvm::Expected<ReplaySetup> prepareReplay(const std::string &bundlePath) {
  llvm::Expected<OpenedBundle> b = openBundle(bundlePath);
  if (!b)
    return b.takeError();
  ReplaySetup r;
  r.bundle = std::move(*b);
  const Manifest &m = r.bundle.manifest;
  // fbc bundles name the root's entry; the reference's put the root at
  // spec/<basename of spec_root>.
  std::string entry = m.specEntry;
  if (entry.empty() && !m.specRoot.empty())
    entry = "spec/" + std::string(llvm::sys::path::filename(m.specRoot));
  if (entry.empty())
    return fail("bundle \"" + bundlePath + "\" names no spec (manifest spec_root is empty)");
  if (!entry.starts_with("spec/") || entry.size() == 5)
    return fail("bundle \"" + bundlePath + "\": manifest spec_entry " + ir::quote(entry) +
                " names no file under spec/");
  if (!r.bundle.contents.find(entry))
    return fail("bundle \"" + bundlePath + "\" has no spec snapshot: no entry \"" + entry + "\"");

  // Locked while we live, so that a later run sweeps it if we crash
  // (runtime/leaf_isolation.h).
  std::string why;
  std::optional<rt::LockedTempDir> dir = rt::makeLockedTempDir("fbc-replay-", why);
  if (!dir)
    return fail("cannot create a folder for the spec snapshot (" + why + ")");
  r.tempDir = dir->path;
  r.tempDirLock = dir->lockFd;
  std::string rel = entry.substr(5); // the root below spec/
  std::string prefix = layoutPrefix(m.specRoot, rel);
  bool sameLayout = prefix != "-";
  std::string dest = r.tempDir + (sameLayout && !prefix.empty() ? "/" + prefix : "");
  llvm::Expected<size_t> n = extractEntries(r.bundle.contents, dest, "spec/");
  if (!n) {
    removeTree(r.tempDir);
    return n.takeError();
  }
  r.extracted = *n;
  std::string root = dest + "/" + rel;
  if (sameLayout) {
    r.cwd = r.tempDir;
    r.specPath = m.specRoot;
  } else {
    r.specPath = root;
  }
  if (!m.specDir.empty() && llvm::sys::fs::is_directory(m.specDir))
    r.serviceDir = m.specDir;
  else
    r.serviceDir = std::string(llvm::sys::path::parent_path(root));
  return r;
}

void removeTree(const std::string &dir) {
  std::string left;
  if (!rt::removeTreeWithinMount(dir, left))
    std::fprintf(stderr, "warning: folder kept: %s\n", left.c_str());
}

} // namespace fbc::bundle
