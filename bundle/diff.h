// `fbc diff A.fb B.fb`: which rows (tests, leaves) changed outcome between
// two run bundles, and for each row in both, the first event where their
// traces diverge (docs/bundle.md, "Comparing runs").
//
// An event is compared as one line, "<service> <event_type> k=v k=v ..."
// (fields sorted by key). The event's timestamp and sequence number are never
// in the line. The normaliser (--normalize; normalizeEventLine and
// volatileField, which the e2e tests use too) drops what differs between two
// runs of the same spec on the same machine: process ids (`pid`), measured
// times (`latency_us`, `duration_ms`), and inside
// values: ports (":12345" -> ":PORT", 2 to 5 digits after a colon), temporary
// paths ("/tmp/fbc-xyz/..." -> "/tmp/TMP/..."), and the variable part of
// `fbc-scratch-*` names and of bundle names `run-<digit>...`.
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::bundle {

// One row of a bundle, as diff sees it.
struct DiffRow {
  std::string key;                 // "test_x" or "test_x [leaf 3]"
  std::string outcome;             // manifest.json's word: passed, failed, ...
  std::vector<std::string> events; // one line per event (see above)
};

struct RowDiff {
  std::string key;
  std::string outcomeA, outcomeB; // "" when the row is missing on that side
  // The first event that differs (0-based), with both lines ("" = the
  // trace ended there); npos when the traces are the same.
  size_t divergence = std::string::npos;
  std::string eventA, eventB;
};

struct BundleDiff {
  size_t rowsA = 0, rowsB = 0;
  std::vector<RowDiff> changed; // in A's row order, then B's extra rows
  bool equal() const { return changed.empty(); }
};

// The rule --normalize applies to one event line (ports, temporary paths).
std::string normalizeEventLine(std::string line);
// Whether --normalize leaves an event field out (pids, measured times).
bool volatileField(std::string_view key);

llvm::Expected<std::vector<DiffRow>> readDiffRows(const std::string &bundlePath, bool normalize);
BundleDiff diffRows(const std::vector<DiffRow> &a, const std::vector<DiffRow> &b);

void emitDiffText(const BundleDiff &d, const std::string &a, const std::string &b,
                  llvm::raw_ostream &os);
void emitDiffJson(const BundleDiff &d, const std::string &a, const std::string &b,
                  llvm::raw_ostream &os);

} // namespace fbc::bundle
