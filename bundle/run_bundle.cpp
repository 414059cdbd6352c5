#include "bundle/run_bundle.h"

#include "bundle/env.h"
#include "bundle/integrity.h"
#include "bundle/manifest.h"
#include "bundle/trace_cut.h"
#include "ir/load/stdlib.h"
#include "runtime/report/report.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <random>

namespace fbc::bundle {
namespace {

std::string utcFormat(int64_t unixSeconds, const char *format) {
  time_t t = static_cast<time_t>(unixSeconds);
  struct tm tm {};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

std::string absolute(const std::string &path) {
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p.str());
}

std::string parentOf(const std::string &path) {
  return std::string(llvm::sys::path::parent_path(path));
}

TestRow rowOf(const rt::TestOutcome &t) {
  TestRow r;
  r.name = t.name;
  r.outcome = t.outcomeWord();
  r.durationMs = t.durationMs;
  r.seed = t.seed;
  r.expectation = t.expectation;
  if (t.result != rt::Result::Pass)
    r.reason = t.reason;
  if (std::optional<ir::DiagCode> code = rt::rowCode(t))
    r.code = std::string(ir::codeName(*code));
  if (t.leaf) {
    r.leafId = t.leaf->id;
    r.leaf.choices.insert(t.leaf->choices.begin(), t.leaf->choices.end());
    r.leaf.choiceValues.insert(t.leaf->choiceValues.begin(), t.leaf->choiceValues.end());
    r.leaf.probability.insert(t.leaf->probability.begin(), t.leaf->probability.end());
    r.leaf.interleavings.insert(t.leaf->interleavings.begin(), t.leaf->interleavings.end());
    r.leaf.schedule = t.leaf->scheduleChoices;
    r.released = t.leaf->schedule;
  }
  if (t.coverage) {
    r.coverage = t.coverage->statement();
    r.notCovered = rt::ExploreCoverage::notCovered();
  }
  return r;
}

// The spec snapshot: every file under spec/, by its path relative to the
// deepest folder that holds them all (so load("../lib/x.star") still
// resolves in the snapshot). Returns the root's entry name. fbc's own
// "@faultbox/..." modules are left out: they are in the binary that replays.
std::string addSpecSnapshot(const std::vector<const frontend::SourceFile *> &allSources,
                            std::vector<Entry> &out) {
  std::vector<const frontend::SourceFile *> sources;
  for (const frontend::SourceFile *f : allSources)
    if (!ir::isStdlibPath(f->path()))
      sources.push_back(f);
  std::vector<std::string> paths;
  for (const frontend::SourceFile *f : sources)
    paths.push_back(absolute(f->path()));
  if (paths.empty())
    return "";
  std::string common = parentOf(paths.front());
  for (const std::string &p : paths)
    while (!common.empty() && common != "/" &&
           !(p.size() > common.size() && p.compare(0, common.size(), common) == 0 &&
             p[common.size()] == '/'))
      common = parentOf(common);
  size_t strip = common == "/" ? 1 : common.size() + 1;
  std::string rootEntry;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string name = "spec/" + paths[i].substr(strip);
    bool seen = false;
    for (const Entry &e : out)
      seen |= e.name == name;
    if (seen)
      continue; // a module loaded under two spellings of one path
    out.push_back({name, sources[i]->text(), 0644});
    if (i == 0)
      rootEntry = name;
  }
  return rootEntry;
}

// services/<name>.stdout|.stderr: each test's output under a header naming
// the test (every test starts its services afresh).
void addServiceOutput(const rt::RunReport &report, std::vector<Entry> &out) {
  for (size_t id = 0; id < report.serviceNames.size(); ++id) {
    std::string streams[2];
    for (const rt::TestOutcome &t : report.tests) {
      if (id >= t.serviceOutput.size())
        continue;
      const std::string *texts[2] = {&t.serviceOutput[id].first, &t.serviceOutput[id].second};
      std::string header;
      for (int s = 0; s < 2; ++s) {
        if (texts[s]->empty())
          continue;
        if (header.empty()) {
          TestRow row = rowOf(t);
          header = "==> " + row.displayName() + " <==\n";
        }
        streams[s] += header + *texts[s];
        if (texts[s]->back() != '\n')
          streams[s] += '\n';
      }
    }
    const std::string &name = report.serviceNames[id];
    out.push_back({"services/" + name + ".stdout", std::move(streams[0]), 0644});
    out.push_back({"services/" + name + ".stderr", std::move(streams[1]), 0644});
  }
}

} // namespace

std::string capEntryText(std::string data, uint64_t limit) {
  if (data.size() <= limit)
    return data;
  std::string marker = "[fbc: " + std::to_string(data.size()) +
                       " bytes in all; the rest is not kept: a bundle entry holds at most " +
                       std::to_string(limit) + " bytes]\n";
  size_t keep = limit > marker.size() + 1 ? limit - marker.size() - 1 : 0;
  size_t cut = data.rfind('\n', keep ? keep - 1 : 0);
  data.resize(cut == std::string::npos || keep == 0 ? keep : cut + 1);
  if (!data.empty() && data.back() != '\n')
    data += '\n';
  return data + marker;
}

std::string traceJsonWithin(const rt::RunReport &report, uint64_t limit) {
  return cutTraceJson(rt::formatJsonReport(report), limit);
}

std::string defaultBundleName(int64_t startUnix, uint64_t seed) {
  return "run-" + utcFormat(startUnix, "%Y-%m-%dT%H-%M-%S") + "-" + std::to_string(seed) + ".fb";
}

std::string rfc3339Utc(int64_t unixSeconds) {
  return utcFormat(unixSeconds, "%Y-%m-%dT%H:%M:%SZ");
}

std::string resolveBundlePath(const std::string &flag, const char *bundleDirEnv, int64_t startUnix,
                              uint64_t seed, const std::string &base) {
  if (!flag.empty())
    return flag;
  std::string name = defaultBundleName(startUnix, seed);
  if (bundleDirEnv && *bundleDirEnv) {
    // A folder that cannot be made shows up as the write's error.
    llvm::SmallString<256> dir(bundleDirEnv);
    if (!base.empty() && !llvm::sys::path::is_absolute(dir)) {
      dir = base;
      llvm::sys::path::append(dir, bundleDirEnv);
    }
    (void)llvm::sys::fs::create_directories(dir);
    llvm::SmallString<256> p(bundleDirEnv);
    llvm::sys::path::append(p, name);
    return std::string(p.str());
  }
  return name;
}

std::string newRunId() {
  std::random_device rd;
  std::string out;
  char buf[9];
  for (int i = 0; i < 4; ++i) {
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(rd()));
    out += buf;
  }
  return out;
}

std::vector<Entry> runBundleEntries(const RunBundleInfo &info, const rt::RunReport &report) {
  std::vector<Entry> out;
  std::vector<Entry> spec;
  std::string specEntry = addSpecSnapshot(info.sources, spec);

  Manifest m;
  m.version = info.version;
  m.runId = info.runId;
  m.createdAt = rfc3339Utc(info.startUnix);
  m.seed = report.seed;
  m.specRoot = info.specPath;
  m.specEntry = specEntry;
  m.specDir = report.serviceDir;
  m.interrupted = report.interrupted;
  m.explore = info.explore;
  m.requireFaultsFire = info.requireFaultsFire;
  m.shard = info.shard;
  for (const EnvImage &i : info.images)
    m.images.emplace_back(i.image, i.id);
  for (const rt::TestOutcome &t : report.tests)
    m.tests.push_back(rowOf(t));
  m.summary = summarize(m.tests, report.notRun);
  Env env = currentEnv(info.version, info.commit);
  env.remotes = info.remotes;
  env.images = info.images;
  out.push_back({"env.json", formatEnvJson(env), 0644});
  out.push_back({"trace.json", traceJsonWithin(report, ReadLimits{}.maxEntryBytes), 0644});
  if (info.planJson)
    out.push_back({"plan.json", *info.planJson, 0644});
  // `fbc merge --junit` joins the shards' testcases from here.
  if (!info.junitXml.empty() && info.junitXml.size() <= ReadLimits{}.maxEntryBytes)
    out.push_back({"junit.xml", info.junitXml, 0644});

  out.push_back({"replay.sh", replayScript(info.path), 0755});
  addServiceOutput(report, out);
  for (Entry &e : spec)
    out.push_back(std::move(e));
  sealBundle(m, out);
  return out;
}

std::string replayScript(const std::string &bundlePath) {
  std::string name = std::string(llvm::sys::path::filename(bundlePath));
  // Always one single-quoted word (rt::shellWord leaves plain names bare;
  // the script's line stays the same shape whatever the name).
  std::string quoted = rt::singleQuoted(name);
  return "#!/bin/sh\n"
         "# Re-runs this bundle's spec snapshot (spec/) with the bundle's seed and\n"
         "# writes a new bundle: fbc replay BUNDLE [--test F] [--leaf ID] [--seed N].\n"
         "# Expects the bundle next to this script; $FBC names the fbc binary.\n"
         "set -eu\n"
         "DIR=$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && pwd)\n"
         "exec \"${FBC:-fbc}\" replay \"$DIR\"/" +
         quoted + " \"$@\"\n";
}

void sealBundle(Manifest &m, std::vector<Entry> &entries) {
  // What the reader would refuse is never written (archive.h ReadLimits):
  // service output over the entry limit keeps its beginning and says so;
  // over the total, the largest service output is halved until it fits.
  const ReadLimits limits;
  auto isOutput = [](const Entry &e) { return e.name.starts_with("services/"); };
  uint64_t total = 0;
  for (Entry &e : entries) {
    if (isOutput(e))
      e.data = capEntryText(std::move(e.data), limits.maxEntryBytes);
    total += e.data.size();
  }
  while (total > limits.maxTotalBytes - (64u << 20)) { // room for manifest.json
    auto largest =
        std::max_element(entries.begin(), entries.end(), [&](const Entry &a, const Entry &b) {
          return (isOutput(a) ? a.data.size() : 0) < (isOutput(b) ? b.data.size() : 0);
        });
    if (largest == entries.end() || !isOutput(*largest) || largest->data.size() < 4096)
      break;
    uint64_t half = largest->data.size() / 2;
    total -= largest->data.size();
    largest->data = capEntryText(std::move(largest->data), half);
    total += largest->data.size();
  }
  sortEntries(entries);
  m.files.clear();
  for (const Entry &e : entries)
    m.files.emplace_back(e.name, "sha256:" + sha256Hex(e.data));
  entries.insert(entries.begin(), Entry{"manifest.json", formatManifestJson(m), 0644});
}

llvm::Error writeRunBundle(const RunBundleInfo &info, const rt::RunReport &report) {
  llvm::Expected<std::string> bytes = encodeArchive(runBundleEntries(info, report));
  if (!bytes)
    return bytes.takeError();
  return writeFileAtomic(info.path, *bytes);
}

} // namespace fbc::bundle
