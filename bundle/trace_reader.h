// trace.json of a run bundle (the `fbc run --format=json` report) read into
// typed rows: the one reader of its tests for `fbc diff` and `fbc plan
// --suggest --from`. (merge and report keep their own walks: they copy the
// JSON through as they find it.)
#pragma once

#include "bundle/inspect.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::bundle {

// One event of a row: its service, `type`, `event_type` and fields (a
// field whose value is not a string, which fbc never writes, as its JSON
// text), in the file's order.
struct TraceEventRow {
  std::string service, type, eventType;
  std::vector<std::pair<std::string, std::string>> fields;
  // The value of field `key`, "" when the event has none.
  std::string_view field(std::string_view key) const;
};

// One operation of fbc run --record-ops (a row's "operations").
struct TraceOperation {
  std::string syscall, target;
  uint64_t calls = 0;
};

struct TraceRow {
  std::string name;
  std::optional<std::string> leafId;
  std::string result; // "pass", "fail", ...
  std::vector<TraceEventRow> events;
  // By service; empty unless the run recorded operations.
  std::map<std::string, std::vector<TraceOperation>> operations;
};

// The rows of `b`'s trace.json, in file order. An error naming the bundle
// when trace.json is missing or is not a run report; a row without a name
// is an error; members of the wrong type are skipped.
llvm::Expected<std::vector<TraceRow>> readTraceRows(const OpenedBundle &b);

} // namespace fbc::bundle
