// A trace.json over the bundle's entry limit (archive.h ReadLimits) is cut
// where it is written, visibly: each test keeps its first K syscall events
// and the first one dropped becomes a trace_truncated event that says why
// and counts what was dropped. One route for every writer: `fbc run` cuts
// the report it formatted (run_bundle.cpp traceJsonWithin), `fbc merge` the
// merged document, so two readable shard bundles never merge into one fbc
// cannot read back. Nothing is parsed again when the text fits.
#pragma once

#include "ir/json_writer.h"

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace fbc::bundle {

// Writes a parsed JSON value back through the writer every fbc JSON file
// comes from: same keys in the same order, same formatting.
void rewriteJson(ir::JsonWriter &w, simdjson::dom::element e);

// `json` (a trace.json fbc wrote, indented by 2) within `limit` bytes: as
// is when it fits; else every test keeps its first K syscall events, K
// halved until the document fits (or K is 0).
std::string cutTraceJson(std::string json, uint64_t limit);

} // namespace fbc::bundle
