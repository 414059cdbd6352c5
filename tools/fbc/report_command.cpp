#include "tools/fbc/report_command.h"

#include "bundle/archive.h"
#include "bundle/report_html.h"

#include <CLI/CLI.hpp>
#include <llvm/Support/Error.h>

#include <cstdio>

namespace fbc::tools {

void addReportOptions(CLI::App &sub, ReportOptions &opts) {
  sub.add_option("bundle", opts.bundle, "bundle (.fb) written by fbc run")->required();
  sub.add_option("-o,--output", opts.output,
                 "output file (default: the bundle's path with .html for .fb; - for stdout)");
}

std::string defaultReportPath(const std::string &bundle) {
  size_t slash = bundle.rfind('/');
  std::string base = slash == std::string::npos ? bundle : bundle.substr(slash + 1);
  if (base.size() > 3 && base.ends_with(".fb"))
    return bundle.substr(0, bundle.size() - 3) + ".html";
  return bundle + ".html";
}

int runReport(const ReportOptions &opts) {
  auto fail = [&](llvm::Error err) {
    std::fprintf(stderr, "fbc report: error: %s\n", llvm::toString(std::move(err)).c_str());
    return 1;
  };
  llvm::Expected<bundle::Contents> contents = bundle::readBundle(opts.bundle);
  if (!contents)
    return fail(contents.takeError());
  size_t slash = opts.bundle.rfind('/');
  std::string name = slash == std::string::npos ? opts.bundle : opts.bundle.substr(slash + 1);
  std::vector<std::string> cuts;
  llvm::Expected<std::string> page = bundle::renderReport(*contents, name, {}, &cuts);
  if (!page)
    return fail(llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                        opts.bundle.c_str(),
                                        llvm::toString(page.takeError()).c_str()));
  // The page says what it cut in a banner; so does the command.
  for (const std::string &cut : cuts)
    std::fprintf(stderr, "fbc report: the page is cut: %s\n", cut.c_str());
  if (opts.output == "-") {
    std::fwrite(page->data(), 1, page->size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  std::string out = opts.output.empty() ? defaultReportPath(opts.bundle) : opts.output;
  if (llvm::Error err = bundle::writeFileAtomic(out, *page, 0644))
    return fail(std::move(err));
  std::fprintf(stderr, "Report: %s\n", out.c_str());
  return 0;
}

} // namespace fbc::tools
