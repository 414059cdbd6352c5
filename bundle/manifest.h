// manifest.json: the bundle's index of the run (docs/bundle.md has the
// schema). One type for both directions: `fbc run` fills it from the run
// report and writes it; inspect, replay and report parse it back, from fbc's
// bundles and from the reference tool's legacy ones (same schema_version 1,
// `faultbox_version` instead of `fbc_version`).
#pragma once

#include "ir/json_writer.h"
#include "ir/leaf_program.h"
#include "runtime/trace/outcome.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::bundle {

inline constexpr int64_t kSchemaVersion = 1;

struct TestRow {
  std::string name;
  // passed, failed, expectation_violated, errored, inconclusive, halted
  // (the reference's words; legacy bundles may add fault_bypassed,
  // strict_determinism_violation).
  std::string outcome;
  int64_t durationMs = 0;
  uint64_t seed = 0;
  std::string expectation; // fault_scenario / matrix cell; "" otherwise
  std::string reason;      // why a row did not pass; "" otherwise
  // The row's stable diagnostic code (rt::rowCode: "FAULT_NOT_FIRED",
  // "HEALTHCHECK_TIMEOUT", ...); "" for a row without one. Read as any
  // string: a newer fbc may write a code this one does not know.
  std::string code;
  // Fan-out leaves only: a test without fan-out has no leaf_* keys at all.
  std::optional<std::string> leafId;
  ir::LeafFields leaf; // leaf_choices, leaf_probability_outcomes, leaf_interleavings, leaf_schedule
  // fbc run --explore: the calls the leaf released, in order (leaf_released):
  // what fbc replay releases in the same order.
  std::vector<std::string> released;
  // The last leaf of a parallel(interleavings="dpor") test: its coverage
  // statement and what it does not cover (rt::ExploreCoverage;
  // explore_coverage, explore_not_covered); "" otherwise.
  std::string coverage, notCovered;

  // leafId as a number (parseManifest checked it: parseLeafId).
  std::optional<uint64_t> leafIndex() const;
  // "retries=1, wal[10], spec.star:7#0" (ir::leafLabel).
  std::string leafLabel() const { return ir::leafLabel(leaf); }
  // "name", or "name [leaf N — label]" for a leaf (ir::leafDisplayName).
  std::string displayName() const;
};

// The rows counted by rt::ResultCounts (the reference's tally: passed
// includes fault_bypassed, failed includes expectation_violated and
// strict_determinism_violation), with the total and what was not run.
struct Summary : rt::ResultCounts {
  uint64_t total = 0;
  uint64_t notRun = 0; // rows (leaves) an interrupt kept from running
};

struct Manifest {
  int64_t schemaVersion = kSchemaVersion;
  std::string producer = "fbc"; // "faultbox" for a legacy bundle
  std::string version;          // fbc_version / faultbox_version
  std::string runId;            // 32 hex digits
  std::string createdAt;        // RFC 3339 UTC, the run's start
  uint64_t seed = 0;
  std::string specRoot;  // the spec path as given to `fbc run`
  std::string specEntry; // the root spec's entry in the snapshot, "spec/x.star"
  std::string specDir;   // the folder the spec ran from (services' cwd)
  bool interrupted = false;
  // fbc run --explore's settings ("explore": absent without it): a replay
  // lowers the spec with them again.
  ir::ExploreOptions explore;
  // fbc run --require-faults-fire ("require_faults_fire": true, absent
  // without it): a replay judges its rows the same way.
  bool requireFaultsFire = false;
  // fbc run --shard K/N (or an engine's variables): "K/N" ("shard", absent
  // from a run of every leaf and from a merged bundle).
  std::string shard;
  // The container images the run used (reference as the spec wrote it,
  // the ID it resolved to), as env.json has them ("images", absent when
  // none): a colleague sees what ran without opening env.json.
  std::vector<std::pair<std::string, std::string>> images;
  std::vector<TestRow> tests;
  Summary summary;
  // A bundle `fbc merge` wrote (bundle/merge.h): the shard bundles it
  // combined (file name, run id), in the order given, and the plan's leaves
  // none of them ran. Both absent from other bundles.
  std::vector<std::pair<std::string, std::string>> mergedFrom;
  std::vector<std::string> notRunLeaves;
  // Under ManifestLimits: rows counted but not kept, and leaf fields dropped
  // from kept rows (0 without limits).
  uint64_t rowsNotKept = 0;
  uint64_t leafFieldsNotKept = 0;
  // Every other entry's "sha256:<hex>", in archive order (integrity.h).
  std::vector<std::pair<std::string, std::string>> files;
};

// Counts `rows` by outcome (failed includes expectation_violated and
// strict_determinism_violation; passed includes fault_bypassed; each of
// those three is also counted on its own).
Summary summarize(const std::vector<TestRow> &rows, uint64_t notRun);

// Writes `s` as the "summary" member (manifest.json, inspect's JSON, the
// report's data): one key order everywhere.
void writeSummary(ir::JsonWriter &w, const Summary &s);

// Pretty JSON, keys in schema order, ending in a newline.
std::string formatManifestJson(const Manifest &m);

// How much of a manifest a reader keeps (`fbc report`: what it can show).
// Rows past maxRows are counted in the summary but not kept; a kept row's
// leaf_* maps and leaf_released keep their first maxLeafFields members. The
// defaults keep everything (inspect, replay and merge need every row).
struct ManifestLimits {
  size_t maxRows = SIZE_MAX;
  size_t maxLeafFields = SIZE_MAX;
};

// Parses manifest.json; refuses a missing or unknown schema_version and
// wrongly typed fields with a message naming the field.
// A leaf id as fbc writes it and `--leaf` takes it ("0" .. "N-1": digits,
// no leading zero, at most 19): its number, or none.
std::optional<uint64_t> parseLeafId(std::string_view s);

llvm::Expected<Manifest> parseManifest(std::string_view json, const ManifestLimits &limits = {});

} // namespace fbc::bundle
