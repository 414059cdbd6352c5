// Sharding: which leaves of the leaf program each of N shards runs
// (`fbc run --shard K/N`, `fbc plan --shards N`, docs/run.md "Sharding").
// One implementation for plan and run, so what the plan shows is what every
// shard runs, and deterministic (integer costs, ties broken by plan order),
// so every shard computes the same assignment on its own machine.
//
// The unit is a leaf. A test with an axis sized only at run time (an "at
// least" count) is one unit: its leaf 0 sizes the axis, so its leaves cannot
// be dealt out before it runs. Units are balanced by estimated duration:
// measured ones from an earlier run's bundle when given, else the static
// estimate below.
#pragma once

#include "ir/json_writer.h"
#include "ir/leaf_program.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::backend {

// A service's measured start cost (service name -> milliseconds from its
// service_started event to its service_ready, the median over an earlier
// run's rows).
using ServiceStartMs = std::map<std::string, int64_t>;

// The estimate of one leaf of `t`, in milliseconds: 50 ms (start and stop
// its services) plus every delay the test declares (the delay rules of the
// assumptions it installs, syscall and protocol alike, times max_fires when
// set; literal delay("D"), delay(delay="D") and sleep("D") calls in its
// body, setup and scenario), at most the test's timeout as the spec states
// it (60 s where it states none); plus, with `start`, the measured start
// cost of every service the leaf starts (each test starts every service but
// the reused ones; a service `start` does not name adds nothing).
int64_t estimateLeafMs(const ir::Test &t, const ir::Spec &spec,
                       const ServiceStartMs *start = nullptr);
// The part of estimateLeafMs() that `start` adds.
int64_t serviceStartMs(const ir::Spec &spec, const ServiceStartMs &start);

// What an earlier run measured (`--durations-from BUNDLE`, or the newest
// bundle of the spec in $FBC_BUNDLE_DIR): each row's duration, test name ->
// leaf id ("0" for a test without fan-out) -> milliseconds, and each
// service's start cost, which estimates the leaves the run did not have.
struct MeasuredDurations {
  std::map<std::string, std::map<std::string, int64_t>> rows;
  ServiceStartMs serviceStart;
};

struct ShardUnit {
  uint32_t test = 0;      // index into LeafProgram::tests
  uint64_t leaf = 0;      // the leaf (0 for a whole test)
  bool wholeTest = false; // every leaf of a test with an axis of unknown size
  int64_t costMs = 0;
  bool measured = false; // costMs came from MeasuredDurations::rows
  int64_t startMs = 0;   // else: what the services' measured start added to it
  uint32_t shard = 0;    // 0-based
};

struct ShardPlan {
  uint32_t count = 1;
  std::vector<ShardUnit> units;    // plan order: tests in spec order, leaves ascending
  std::vector<int64_t> costMs;     // per shard, the sum of its units
  std::vector<uint64_t> unitCount; // per shard
};

// The largest number of units a plan may have to be sharded (each is a row
// of the assignment).
inline constexpr uint64_t kMaxShardUnits = 1000000;

// Splits the leaves of the tests `include` marks (by LeafProgram index;
// empty = every test) into `n` >= 1 shards: units in decreasing cost (ties:
// plan order) each go to the shard with the least cost so far (ties: the
// lowest index). False with `error` when the plan has more than
// kMaxShardUnits units.
bool assignShards(const ir::LeafProgram &p, uint32_t n, const MeasuredDurations *measured,
                  const std::vector<bool> &include, ShardPlan &out, std::string &error);

// What one shard runs, for the leaf driver: per LeafProgram test, whether
// it runs at all, every leaf of it, or the listed leaves (ascending).
struct LeafSelection {
  struct PerTest {
    bool all = false;
    std::vector<uint64_t> leaves;
    bool any() const { return all || !leaves.empty(); }
    bool runs(uint64_t leaf) const;
  };
  std::vector<PerTest> tests; // parallel to LeafProgram::tests
};
LeafSelection selectShard(const ShardPlan &plan, size_t programTests, uint32_t shard);

// "test_x", "test_x [leaf 3 — retries=1]", "test_x [every leaf: at least 2]".
std::string shardUnitName(const ir::LeafProgram &p, const ShardUnit &u);
// The leaves of shard `k` (every shard: nullopt); "at least" when a whole
// test's count is.
ir::Count shardLeafCount(const ir::LeafProgram &p, const ShardPlan &s, std::optional<uint32_t> k);
// An estimate as a Go duration: "1.65s", "50ms".
std::string estimateText(int64_t ms);

// `fbc plan --shards N`: the shards block of the text plan and the "shards"
// member of the JSON plan (docs/plan.md).
void emitShardsText(const ir::LeafProgram &p, const ShardPlan &s, llvm::raw_ostream &os);
void emitShardsJson(const ir::LeafProgram &p, const ShardPlan &s, ir::JsonWriter &w);

} // namespace fbc::backend
