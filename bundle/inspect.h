// What `fbc inspect` shows of a bundle (docs/bundle.md): the summary, as
// text or JSON, and safe extraction of its entries into a folder.
#pragma once

#include "bundle/archive.h"
#include "bundle/env.h"
#include "bundle/manifest.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <string_view>

namespace fbc::bundle {

// A read bundle with its manifest (and env.json, plan totals) parsed.
struct OpenedBundle {
  std::string path;
  Contents contents;
  Manifest manifest;
  std::optional<Env> env;            // absent env.json: nullopt
  std::optional<uint64_t> planTotal; // plan.json totals.instances; nullopt: no plan data
  bool planEstimated = false;        // totals.estimated ("at least")
  bool planSaturated = false;        // totals.saturated ("at least 2^64 (saturated)")
};

// readBundle + the manifest (required) + env.json and plan.json (optional;
// a bundle without plan.json is "no plan data", never an error).
llvm::Expected<OpenedBundle> openBundle(const std::string &path, const ReadLimits &limits = {});

std::string formatInspectText(const OpenedBundle &b);
std::string formatInspectJson(const OpenedBundle &b);

// Writes the entries whose names start with `prefix` into `dir` (created if
// missing), with the prefix removed; returns how many. Never writes outside
// `dir`: each folder is opened without following symbolic links, each file
// is written to a temporary name and renamed over whatever was there (a
// symlink or hard link already in `dir` is replaced, not written through).
llvm::Expected<size_t> extractEntries(const Contents &c, const std::string &dir,
                                      std::string_view prefix = "");

} // namespace fbc::bundle
