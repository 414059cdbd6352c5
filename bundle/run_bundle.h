// The bundle `fbc run` leaves behind (docs/bundle.md): its file name and
// location, and its entries built from the run: manifest.json, env.json,
// trace.json (the --format=json report), plan.json (`fbc plan --format=json
// --coverage`, when given), replay.sh, services/<name>.stdout|.stderr and the
// spec snapshot under spec/.
#pragma once

#include "bundle/archive.h"
#include "bundle/env.h"
#include "bundle/manifest.h"
#include "frontend/source/source_manager.h"
#include "runtime/driver/executor.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fbc::bundle {

struct RunBundleInfo {
  std::string path;            // where the bundle goes
  std::string specPath;        // the spec as given to `fbc run`
  std::string runId;           // newRunId()
  int64_t startUnix = 0;       // the run's start, seconds since the epoch (UTC)
  std::string version, commit; // fbc's
  std::optional<std::string> planJson;
  // Every file the spec read (the root first, then each load()ed module).
  std::vector<const frontend::SourceFile *> sources;
  // The remote services' interfaces the run dialled (env.json "remotes").
  std::vector<EnvRemote> remotes;
  // The container images the run used, with their IDs (env.json "images").
  std::vector<EnvImage> images;
  // fbc run --explore's settings (manifest "explore").
  ir::ExploreOptions explore;
  // fbc run --require-faults-fire (manifest "require_faults_fire").
  bool requireFaultsFire = false;
  // The run's JUnit XML (junit.xml: rt::formatJUnit(), what --junit
  // writes); left out when over the entry limit.
  std::string junitXml;
  // A shard's "K/N" (manifest "shard"); "" for a run of every leaf.
  std::string shard;
};

// "run-2026-05-13T14-22-08-42.fb": the run's UTC start and its seed.
std::string defaultBundleName(int64_t startUnix, uint64_t seed);
// --bundle PATH as given; else $FBC_BUNDLE_DIR/<default name> (the folder
// is created); else the default name in the cwd. `bundleDirEnv` is the
// variable's value (null: unset). A relative result is relative to `base`
// ("" = the cwd; `fbc replay` runs from its snapshot folder).
std::string resolveBundlePath(const std::string &flag, const char *bundleDirEnv, int64_t startUnix,
                              uint64_t seed, const std::string &base = "");
// 32 lowercase hex digits from the system's random source.
std::string newRunId();
// "2026-05-13T14:22:08Z"
std::string rfc3339Utc(int64_t unixSeconds);

// The entries, in the bundle's fixed order.
std::vector<Entry> runBundleEntries(const RunBundleInfo &info, const rt::RunReport &report);

// replay.sh for a bundle at `bundlePath` (it names the bundle's file).
std::string replayScript(const std::string &bundlePath);

// `data` (a text entry: service output) within `limit` bytes: as is when it
// fits, else its beginning, cut at a line end, and a last line that says
// how much there was: "[fbc: N bytes in all; the rest is not kept: ...]".
std::string capEntryText(std::string data, uint64_t limit);
// The run's JSON report (trace.json) within `limit` bytes: as is when it
// fits, else cut as trace_cut.h's cutTraceJson cuts (each test's first K
// syscall events, the first dropped one a trace_truncated event).
std::string traceJsonWithin(const rt::RunReport &report, uint64_t limit);

// Caps what the reader would refuse (archive.h ReadLimits: the one set of
// limits) in the entries the writer holds (capEntryText on service output),
// sorts `entries` into the bundle's order, records their digests in `m`
// and puts manifest.json first.
void sealBundle(Manifest &m, std::vector<Entry> &entries);

// Builds and writes the bundle (atomically). The caller reports an error as
// a warning: a bundle that cannot be written does not change the run.
llvm::Error writeRunBundle(const RunBundleInfo &info, const rt::RunReport &report);

} // namespace fbc::bundle
