// The report page's Plan tab (docs/report.md, "Data"): the bundle's
// plan.json, read through the one plan reader (bundle/plan_reader.h), in
// `fbc plan`'s own words (backend::planAxisText), within the page's budget.
#pragma once

#include "bundle/plan_reader.h"
#include "bundle/report_bounds.h"
#include "ir/json_writer.h"

namespace fbc::bundle {

// How much of plan.json the page reads.
PlanReadLimits reportPlanLimits(const ReportLimits &limits);

// Writes the "plan" value: null without a plan, else its texts, coverage
// and diagnostics; strings clipped and lists cut by `b` (and what the
// reader left out counted there too).
void writeReportPlan(ReportBudget &b, ir::JsonWriter &w, const PlanJson *plan);

} // namespace fbc::bundle
