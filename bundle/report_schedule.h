// "schedule": the release order of a leaf that ran under exploration
// (docs/report.md "Schedule"; docs/run.md "Exploring orderings"), read from
// the trace entry's `release` events, so the page only lays it out: one
// lane per thread (or proxied connection) that had a held call released,
// "counter/t0", "cache/c1" (the call's name up to its '#'), in service
// order of first release and then by ordinal; each release numbered 1, 2,
// 3 ... in release order on its lane, with the call it released. The last
// leaf of a parallel(interleavings="dpor") test adds its coverage
// statement (the entry's explore_coverage).
#pragma once

#include "bundle/report_bounds.h"
#include "ir/json_writer.h"

#include <simdjson.h>

#include <string>
#include <vector>

namespace fbc::bundle {

// Writes "schedule": {"lanes": [...], "releases": [{n, lane, call, event,
// waiting, quiet}], "coverage", "not_covered"} for trace entry `t` (event:
// the index of the release event among the kept events), or null when the
// entry has no release event and no coverage statement.
void writeSchedule(ReportBudget &b, ir::JsonWriter &w, simdjson::dom::element t);

// The lanes of `calls` (held-call names, "counter/t1#2 pwrite64"): their
// threads ("counter/t1"), each once, services in order of first call, then
// by the ordinal after the '/' ("t2" before "t10"; a proxied connection's
// "c0" after the threads).
std::vector<std::string> scheduleLanes(const std::vector<std::string> &calls);

} // namespace fbc::bundle
