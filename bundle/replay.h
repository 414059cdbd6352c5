// `fbc replay`'s preparation (docs/bundle.md): open the bundle, extract its
// spec snapshot (spec/) into a fresh temporary folder and find the root spec
// and the folder its services run from. The run itself is `fbc run`'s.
#pragma once

#include "bundle/inspect.h"

#include <llvm/Support/Error.h>

#include <string>

namespace fbc::bundle {

struct ReplaySetup {
  OpenedBundle bundle;
  std::string tempDir;  // the extracted snapshot; removeTree() it afterwards
  int tempDirLock = -1; // held until this process ends (a crash leaves it for a later sweep)
  // Run from `cwd` ("" = stay) with the spec path `specPath`. When the
  // recorded spec_root is a relative path that ends in the snapshot's path
  // of the root (the usual `fbc run tests/x.star`), the snapshot is laid out
  // under tempDir so that cwd = tempDir and specPath = spec_root: every
  // path the run prints or keys on (diagnostics, "file:line" interleaving
  // axes, replay lines) is the original's. Otherwise specPath is the
  // absolute path of the root in the snapshot.
  std::string cwd;
  std::string specPath;
  std::string serviceDir; // the recorded spec_dir if it still exists, else the
                          // root spec's folder in the snapshot
  size_t extracted = 0;   // spec files written
};

llvm::Expected<ReplaySetup> prepareReplay(const std::string &bundlePath);

// rm -r of a folder this process made: follows no symbolic link and crosses
// no mount (rt::removeTreeWithinMount); warns on stderr about what is left.
void removeTree(const std::string &dir);

} // namespace fbc::bundle
