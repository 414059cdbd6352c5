// `fbc report`: a bundle as one self-contained HTML page (docs/report.md).
// report_data.cpp turns the bundle's entries into the page's data (one JSON
// document: the tests table with each row's own trace, the matrix, the plan
// tree as `fbc plan` words it, the spec files, the service logs);
// report_html.cpp wraps that data, the page script and the style into the
// page. No network, no external file: every string from the spec, the
// services or the bundle reaches the page as JSON text that the script puts
// into the DOM with textContent.
#pragma once

#include "bundle/archive.h"
#include "bundle/report_bounds.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace fbc::bundle {

// The page's data as compact JSON (before the page's script-safe escaping).
// `bundleName` is the bundle's file name, shown in replay commands. Fails
// with a message naming the entry when manifest.json is missing or invalid,
// or when trace.json, plan.json or env.json is there but is not the JSON the
// run writes. A bundle without plan.json (a legacy one) is not an error: its
// plan is null and the Plan tab says "no plan data".
// The page shows at most what `limits` allows (report_bounds.h); what it
// cut is listed in the data's "cuts" (the page's banner) and in `cuts`.
llvm::Expected<std::string> reportData(const Contents &c, const std::string &bundleName,
                                       const ReportLimits &limits = {},
                                       std::vector<std::string> *cuts = nullptr);

// The whole page. The same bundle gives the same bytes.
llvm::Expected<std::string> renderReport(const Contents &c, const std::string &bundleName,
                                         const ReportLimits &limits = {},
                                         std::vector<std::string> *cuts = nullptr);

// `json` made safe inside <script type="application/json">: '<', '>', '&',
// U+2028 and U+2029 become \u escapes. They can only occur inside JSON
// strings, where the escape means the same character, so the JSON is
// unchanged and no "</script>" or "<!--" can end the element early.
std::string escapeJsonForScript(const std::string &json);

} // namespace fbc::bundle
