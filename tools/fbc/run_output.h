// What `fbc run` prints and writes: the text report streamed row by row (or
// the JSON report at the end), the progress line on a terminal,
// --progress-lines for programs, and after the run the warnings, the JUnit
// XML and the bundle.
#pragma once

#include "ir/load/load_spec.h"
#include "runtime/report/report.h"
#include "tools/fbc/progress.h"
#include "tools/fbc/run_prepare.h"

#include <map>
#include <optional>
#include <string>

namespace fbc::tools {

class RunOutput {
public:
  RunOutput(const RunOptions &opts, const RunSettings &s, const PreparedRun &prepared,
            const ir::Spec &spec);
  // Before the run: the text report's head, the progress line and the
  // per-row callback (`cfg.onOutcome`).
  void begin(rt::RunConfig &cfg);
  // After the run: the progress line erased, the warnings and the report's
  // tail (or the JSON report), the JUnit XML and the bundle. Returns the
  // exit code.
  int finish(const rt::RunReport &report, ir::LoadedSpec &loaded);

private:
  void write(const std::string &raw) const;
  void countRows();
  void onRow(const rt::RunReport &r, const rt::TestOutcome &t);
  void progressLine(const rt::TestOutcome &t);
  void writeArtifacts(const rt::RunReport &report, ir::LoadedSpec &loaded) const;

  const RunOptions &opts_;
  const RunSettings &s_;
  const PreparedRun &prepared_;
  const ir::Spec &spec_;
  // Text goes out as the run goes (a long run is not silent until its
  // end); JSON is one document, written at the end.
  bool streaming_;
  std::optional<Progress> progress_;
  std::map<std::string, int64_t> estimates_; // per test, one leaf
  // --progress-lines: the same counts, one line per row, for a program.
  uint64_t total_ = 0, done_ = 0, passed_ = 0, failed_ = 0;
  int64_t estimateMs_ = 0; // of all total_ rows
};

} // namespace fbc::tools
