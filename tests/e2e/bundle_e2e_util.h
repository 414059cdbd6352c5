// The bundle e2e tests' shared helpers (bundle_e2e_test.cpp, the run's
// bundle; bundle_merge_e2e_test.cpp, fbc merge; bundle_inspect_e2e_test.cpp,
// fbc inspect and hostile bundles; bundle_replay_e2e_test.cpp, fbc replay):
// reading a bundle fbc wrote, one entry of it, and the normalisation of what
// may differ between two runs of one spec with one seed.
#pragma once

#include "bundle/archive.h"
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <sys/stat.h>

#include <fstream>
#include <string>
#include <utility>

namespace fbc::rt::e2e {

inline bool exists(const std::string &path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

inline void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The path after "Bundle: " on stderr, relative to `cwd`.
inline std::string bundleOf(const FbcRun &r, const std::string &cwd) {
  std::string path;
  EXPECT_TRUE(RE2::PartialMatch(r.err, R"((?m)^Bundle: (.*)$)", &path)) << r.err;
  return path.empty() || path.front() == '/' ? path : cwd + "/" + path;
}

inline bundle::Contents readOk(const std::string &path) {
  llvm::Expected<bundle::Contents> c = bundle::readBundle(path);
  if (!c) {
    ADD_FAILURE() << llvm::toString(c.takeError());
    return {};
  }
  return std::move(*c);
}

inline std::string entry(const bundle::Contents &c, const std::string &name) {
  const bundle::Entry *e = c.find(name);
  EXPECT_NE(e, nullptr) << name;
  return e ? e->data : "";
}

// What may differ between two runs of one spec with one seed: the run's
// identity and start, timings (durations, timestamps, measured latencies)
// and the service processes' pids (the kernel's choice). Nothing else is
// normalised.
inline std::string normalizeRunVarying(std::string s) {
  RE2::GlobalReplace(&s, R"("run_id": "[0-9a-f]{32}")", R"("run_id": "R")");
  RE2::GlobalReplace(&s, R"("created_at": "[^"]*")", R"("created_at": "T")");
  RE2::GlobalReplace(&s, R"("timestamp": "[^"]*")", R"("timestamp": "T")");
  RE2::GlobalReplace(&s, R"("duration_ms": \d+)", R"("duration_ms": N)");
  RE2::GlobalReplace(&s, R"re("(duration_ms|latency_us|pid)": "\d+")re", R"re("\1": "N")re");
  // junit.xml: times, and a delayed call's measured latency in system-out.
  RE2::GlobalReplace(&s, R"( time="\d+\.\d+")", R"( time="N")");
  RE2::GlobalReplace(&s, R"(\(\+\d+ms\))", "(+Nms)");
  return s;
}

// manifest.json's digests of the entries that differ: trace.json and
// junit.xml (timings) and replay.sh (it names its own bundle).
inline std::string normalizeDigests(std::string s) {
  RE2::GlobalReplace(&s, R"re("(trace\.json|junit\.xml|replay\.sh)": "sha256:[0-9a-f]{64}")re",
                     R"re("\1": "sha256:D")re");
  return s;
}

} // namespace fbc::rt::e2e
