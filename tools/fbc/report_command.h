// `fbc report`: its options and entry point. The page is built by
// bundle/report_html.h; this file reads the bundle, writes the file and
// prints where. docs/report.md is the user doc.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct ReportOptions {
  std::string bundle;
  std::string output; // -o: "" = the bundle's path with .fb replaced by .html; "-" = stdout
};

void addReportOptions(CLI::App &sub, ReportOptions &opts);

// 0 on success; 1 when the bundle cannot be read or rendered, or the page
// cannot be written.
int runReport(const ReportOptions &opts);

// The default output path: "dir/run-X.fb" -> "dir/run-X.html" (a name
// without ".fb" gets ".html" appended).
std::string defaultReportPath(const std::string &bundle);

} // namespace fbc::tools
