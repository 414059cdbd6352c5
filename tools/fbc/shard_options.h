// Which shard this process is (`fbc run --shard K/N`, or the environment
// of the engine it runs on) and the measured durations that balance the
// split (`--durations-from BUNDLE`). docs/run.md "Sharding" is the user doc;
// the assignment itself is backend/shard.h.
#pragma once

#include "backend/shard.h"

#include <cstdint>
#include <optional>
#include <string>

namespace fbc::tools {

struct ShardRequest {
  uint32_t index = 0; // 0-based
  uint32_t count = 1;
  std::string source; // "--shard 2/3", "TEST_SHARD_INDEX=1 TEST_TOTAL_SHARDS=3", ...
};

// In order: --shard K/N (K 1-based); --shard-count N with
// JOB_COMPLETION_INDEX (Kubernetes Indexed Job, 0-based); TEST_TOTAL_SHARDS
// with TEST_SHARD_INDEX (Bazel, 0-based); CI_NODE_INDEX with CI_NODE_TOTAL
// (GitLab parallel jobs, 1-based). `shardCount` 0: not given. Nothing set:
// nullopt, no error. A malformed or out-of-range value: false, `error`.
bool resolveShard(const std::string &flag, uint32_t shardCount, std::optional<ShardRequest> &out,
                  std::string &error);

// Bazel: touch $TEST_SHARD_STATUS_FILE when set (Bazel fails a sharded
// test that does not, taking it for a runner that ignored sharding).
// False with `error` when the file cannot be created.
bool touchBazelShardStatus(std::string &error);

// What balances the split (docs/run.md "Sharding"): the durations and the
// services' start costs an earlier run measured, from --durations-from
// BUNDLE (`flag`), else from the newest bundle of `spec` (the spec path as
// given) in $FBC_BUNDLE_DIR (`out` stays empty when there is none). `from`
// names the bundle found there ("" for the flag's). False with `error`
// when the named bundle cannot be read.
bool measuredForShards(const std::string &flag, const std::string &spec,
                       std::optional<backend::MeasuredDurations> &out, std::string &from,
                       std::string &error);

} // namespace fbc::tools
