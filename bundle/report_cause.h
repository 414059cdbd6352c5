// "cause": what the report shows first on a row that did not plainly pass
// (docs/report.md, "The cause first"): the services that died during the
// test with the last lines they wrote, and every fault rule of the test with
// how many calls (requests) it saw while in force and how many it fired
// on, a rule that saw nothing with the run's own hint. Read from the trace
// entry's events (service_stopped with unexpected, fault_removed /
// proxy_fault_removed and the fault_zero_traffic just before them), so the
// page only lays it out.
#pragma once

#include "bundle/report_bounds.h"
#include "ir/json_writer.h"

#include <simdjson.h>

namespace fbc::bundle {

// Writes "cause": {"deaths": [{service, exit, stdout, stderr}], "rules":
// [{service, rule, matches, hits, hint}]} for trace entry `t`, within `b`.
void writeCause(ReportBudget &b, ir::JsonWriter &w, simdjson::dom::element t);

} // namespace fbc::bundle
