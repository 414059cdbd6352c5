// What an earlier run measured, for balancing shards (`fbc run --shard`,
// `fbc plan --shards`; docs/run.md "Sharding"): each row's duration and each
// service's start cost, read from a bundle; and which bundle that is when
// none is named (the newest of the spec in $FBC_BUNDLE_DIR).
#pragma once

#include "backend/shard.h"
#include "bundle/inspect.h"

#include <optional>
#include <string>

namespace fbc::bundle {

// The rows' duration_ms (manifest.json) and, per service, the median over
// the rows of its service_ready timestamp minus its service_started one
// (trace.json; a row where the service never became ready counts not).
backend::MeasuredDurations measuredDurations(const OpenedBundle &b);

// The newest bundle (by modification time, ties by name) among the `.fb`
// files of `dir` that fbc wrote for spec `specRoot` (manifest spec_root, as
// given to fbc run) and that is not a shard's own (no "shard": a shard's
// bundle, maybe of the run under way, never balances the next split; a
// --test or interrupted run's bundle does, its missing leaves estimated); of
// the 20 newest files at most. nullopt when there is none.
std::optional<std::string> newestBundleOf(const std::string &dir, const std::string &specRoot);

} // namespace fbc::bundle
