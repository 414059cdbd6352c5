// fbc run's output: see run_output.h.
#include "tools/fbc/run_output.h"

#include "backend/shard.h"
#include "bundle/archive.h"
#include "bundle/run_bundle.h"
#include "frontend/source/diagnostic.h"
#include "runtime/containers/container_run.h"
#include "runtime/containers/pull_progress.h"
#include "runtime/report/junit.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "fbc_commit.h"

namespace fbc::tools {

RunOutput::RunOutput(const RunOptions &opts, const RunSettings &s, const PreparedRun &prepared,
                     const ir::Spec &spec)
    : opts_(opts), s_(s), prepared_(prepared), spec_(spec), streaming_(opts.format != "json") {}

// Test names, reasons and service output come from the spec and its
// services: shown as text, never as terminal commands.
void RunOutput::write(const std::string &raw) const {
  std::string s = streaming_ ? rt::escapeControls(raw) : raw;
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

// The rows the run will record and the plan's estimate of their time.
void RunOutput::countRows() {
  const ir::LeafProgram &leaves = prepared_.leaves;
  const rt::RunConfig &cfg = s_.cfg;
  for (size_t i = 0; i < leaves.tests.size(); ++i) {
    const backend::LeafSelection::PerTest *sel = cfg.selection ? &cfg.selection->tests[i] : nullptr;
    if (!prepared_.include[i] || (sel && !sel->any()))
      continue;
    uint64_t n = cfg.leafId         ? 1
                 : sel && !sel->all ? sel->leaves.size()
                                    : leaves.tests[i].count.value;
    int64_t one = backend::estimateLeafMs(*leaves.tests[i].test, spec_);
    estimates_[leaves.tests[i].test->name] = one;
    total_ += n;
    estimateMs_ += one * int64_t(n);
  }
}

void RunOutput::begin(rt::RunConfig &cfg) {
  if (streaming_)
    write(rt::textReportHead(cfg.seed));
  // On a terminal (and not in CI, not with -v's service output on
  // stderr): the progress line, erased around every write to stdout.
  bool drawn = !opts_.verbose && Progress::wanted();
  if (drawn || opts_.progressLines)
    countRows();
  if (drawn) {
    progress_.emplace(total_, estimateMs_);
    // A container image being pulled: its figures in the line, and a line
    // of its own once pulled.
    rt::containers::setPullListener([this](const rt::containers::PullStatus &st, bool finished) {
      std::string text = rt::containers::describePull(st, finished);
      if (!finished) {
        progress_->note(rt::escapeControls(text));
        return;
      }
      progress_->note("");
      progress_->around([&] {
        std::fprintf(stderr, "fbc run: %s\n", rt::escapeControls(text).c_str());
        std::fflush(stderr);
      });
    });
  }
  if (streaming_ || progress_ || opts_.progressLines)
    cfg.onOutcome = [this](const rt::RunReport &r, const rt::TestOutcome &t) { onRow(r, t); };
}

// --progress-lines: "fbc-progress DONE/TOTAL passed=P failed=F NAME".
void RunOutput::progressLine(const rt::TestOutcome &t) {
  bool failed = t.result == rt::Result::Fail || t.result == rt::Result::Error;
  passed_ += t.result == rt::Result::Pass;
  failed_ += failed;
  ++done_;
  std::fprintf(stderr, "fbc-progress %llu/%llu passed=%llu failed=%llu %s\n",
               static_cast<unsigned long long>(done_),
               static_cast<unsigned long long>(std::max(total_, done_)),
               static_cast<unsigned long long>(passed_), static_cast<unsigned long long>(failed_),
               rt::escapeControls(t.leaf ? t.name + " [leaf " + t.leaf->id + "]" : t.name).c_str());
  std::fflush(stderr);
}

void RunOutput::onRow(const rt::RunReport &r, const rt::TestOutcome &t) {
  if (opts_.progressLines)
    progressLine(t);
  if (!progress_) {
    if (streaming_)
      write(rt::textReportRow(r, t));
    return;
  }
  if (streaming_)
    progress_->around([&] { write(rt::textReportRow(r, t)); });
  progress_->row(t.result == rt::Result::Pass,
                 t.result == rt::Result::Fail || t.result == rt::Result::Error, estimates_[t.name]);
}

int RunOutput::finish(const rt::RunReport &report, ir::LoadedSpec &loaded) {
  rt::containers::setPullListener(nullptr);
  progress_.reset();
  if (!report.warnings.empty()) {
    frontend::DiagnosticList warnings;
    for (const rt::RunWarning &w : report.warnings)
      warnings.warning(w.loc.file, w.loc.pos, w.message);
    warnings.print(llvm::errs());
    llvm::errs().flush();
  }
  write(streaming_ ? rt::textReportTail(report) : rt::formatJsonReport(report));
  writeArtifacts(report, loaded);
  if (report.interrupted)
    return 130;
  return rt::exitCodeFor(report);
}

// The JUnit XML (the --junit file, else $XML_OUTPUT_FILE as Bazel sets it)
// and the bundle, which carries the same XML.
void RunOutput::writeArtifacts(const rt::RunReport &report, ir::LoadedSpec &loaded) const {
  const char *cmd = opts_.command.c_str();
  std::string junit = opts_.junit;
  if (junit.empty() && std::getenv("XML_OUTPUT_FILE"))
    junit = std::getenv("XML_OUTPUT_FILE");
  const std::optional<ShardRequest> &shard = s_.shard;
  std::string shardText =
      shard ? std::to_string(shard->index + 1) + "/" + std::to_string(shard->count) : "";
  std::string junitXml;
  if (!junit.empty() || s_.bundling) {
    std::vector<std::pair<std::string, std::string>> props;
    if (shard)
      props.emplace_back("shard", shardText);
    junitXml = rt::formatJUnit(report, props);
  }
  if (!junit.empty())
    if (llvm::Error err = bundle::writeFileAtomic(junit, junitXml))
      std::fprintf(stderr, "%s: warning: no JUnit XML written: %s\n", cmd,
                   llvm::toString(std::move(err)).c_str());
  if (!s_.bundling)
    return;
  bundle::RunBundleInfo info;
  std::string shown = bundle::resolveBundlePath(opts_.bundle, std::getenv("FBC_BUNDLE_DIR"),
                                                s_.startUnix, s_.cfg.seed, opts_.bundleBaseDir);
  info.path = opts_.bundleBaseDir.empty() || shown.front() == '/'
                  ? shown
                  : opts_.bundleBaseDir + "/" + shown;
  info.specPath = opts_.specRoot.empty() ? opts_.spec : opts_.specRoot;
  info.explore = s_.explore;
  info.requireFaultsFire = opts_.requireFaultsFire;
  info.junitXml = std::move(junitXml);
  info.shard = shardText;
  info.runId = bundle::newRunId();
  info.startUnix = s_.startUnix;
  info.version = FBC_VERSION;
  info.commit = FBC_COMMIT;
  if (!opts_.noPlan)
    info.planJson = prepared_.planJson;
  info.sources = loaded.sources().files();
  info.remotes = bundle::envRemotes(loaded.spec());
  for (auto &[image, id] : rt::containers::usedImages())
    info.images.push_back({image, id});
  if (llvm::Error err = bundle::writeRunBundle(info, report))
    std::fprintf(stderr, "%s: warning: no bundle written: %s\n", cmd,
                 llvm::toString(std::move(err)).c_str());
  else
    std::fprintf(stderr, "Bundle: %s\n", shown.c_str());
}

} // namespace fbc::tools
