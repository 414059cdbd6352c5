// `fbc check`: see check.h.
#include "backend/check.h"

#include "backend/plan_emit.h"
#include "ir/json_writer.h"
#include "passes/pass_manager.h"
#include "passes/vacuity.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <tuple>

namespace fbc::backend {

namespace {

void addLoadFailure(const ir::LoadedSpec &loaded, CheckReport &r) {
  for (const frontend::Diagnostic &d : loaded.diagnostics().all())
    if (d.severity == frontend::Severity::Error)
      r.findings.push_back(
          {d.severity, ir::DiagCode::SpecLoadFailed, d.message, ir::Loc{d.file, d.pos}, ""});
  if (const auto &e = loaded.runtimeError()) {
    CheckFinding f{frontend::Severity::Error, ir::DiagCode::SpecLoadFailed, e->message(), {}, ""};
    if (const star::TraceFrame *frame = e->innermostSourceFrame()) {
      // The frame names its file by path; the loader holds its text.
      for (const frontend::SourceFile *file :
           const_cast<ir::LoadedSpec &>(loaded).sources().files())
        if (file->path() == frame->file)
          f.loc = ir::Loc{file, frame->pos};
      if (!f.loc.valid())
        f.where = frame->file + ":" + std::to_string(frame->pos.line) + ":" +
                  std::to_string(frame->pos.col);
    }
    r.findings.push_back(std::move(f));
  }
  if (r.findings.empty())
    r.findings.push_back(
        {frontend::Severity::Error, ir::DiagCode::SpecLoadFailed, "the spec did not load", {}, ""});
}

std::string fileOf(const CheckFinding &f) {
  return f.loc.file ? f.loc.file->path() : f.where;
}

} // namespace

size_t CheckReport::errors() const {
  return std::count_if(findings.begin(), findings.end(), [](const CheckFinding &f) {
    return f.severity == frontend::Severity::Error;
  });
}

size_t CheckReport::warnings() const {
  return std::count_if(findings.begin(), findings.end(), [](const CheckFinding &f) {
    return f.severity == frontend::Severity::Warning;
  });
}

CheckReport checkSpec(const std::string &path, ir::LoadedSpec &loaded, const CheckOptions &opts) {
  CheckReport r;
  r.spec = path;
  if (!loaded.ok()) {
    addLoadFailure(loaded, r);
    return r;
  }
  r.loaded = true;
  const ir::Spec &spec = loaded.spec();
  ir::Plan plan = passes::buildPlan(spec, /*coverage=*/false);
  r.tests = spec.tests.size();
  r.instances = plan.total;
  for (const ir::PlanDiagnostic &d : plan.diagnostics)
    r.findings.push_back({d.severity, d.code, d.message, d.loc, ""});
  for (ir::PlanDiagnostic &d : passes::vacuityFindings(spec))
    r.findings.push_back({opts.strict ? frontend::Severity::Error : frontend::Severity::Warning,
                          d.code, std::move(d.message), d.loc, ""});
  if (opts.maxInstances && plan.total.value > *opts.maxInstances)
    r.findings.push_back({frontend::Severity::Error, ir::DiagCode::PlanCostExceeded,
                          "plan expands to " + planInstancesText(plan.total) +
                              ", over the limit of " + std::to_string(*opts.maxInstances),
                          ir::Loc{loaded.rootFile(), {}}, ""});
  std::stable_sort(r.findings.begin(), r.findings.end(),
                   [](const CheckFinding &a, const CheckFinding &b) {
                     return std::make_tuple(fileOf(a), a.loc.pos.line, a.loc.pos.col, a.code) <
                            std::make_tuple(fileOf(b), b.loc.pos.line, b.loc.pos.col, b.code);
                   });
  return r;
}

void emitCheckText(const CheckReport &r, llvm::raw_ostream &os) {
  // A failed load: the loader printed its located diagnostics already.
  for (const CheckFinding &f : r.loaded ? r.findings : std::vector<CheckFinding>{}) {
    frontend::Diagnostic d;
    d.severity = f.severity;
    d.file = f.loc.file;
    d.pos = f.loc.pos;
    d.message = f.message + " [" + std::string(ir::codeName(f.code)) + "]";
    if (!d.file && !f.where.empty())
      d.message = f.where + ": " + d.message;
    frontend::printDiagnostic(os, d);
    os << "  suggestion: " << ir::codeSuggestion(f.code) << '\n';
  }
  auto plural = [](size_t n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::string shape = plural(r.tests, "test") + ", " + planInstancesText(r.instances);
  size_t errors = r.errors(), warnings = r.warnings();
  if (!r.loaded)
    os << r.spec << ": does not load\n";
  else if (errors == 0 && warnings == 0)
    os << "ok  " << r.spec << " — " << shape << '\n';
  else if (errors == 0)
    os << "ok  " << r.spec << " — " << shape << "; " << plural(warnings, "warning") << '\n';
  else
    os << r.spec << ": " << plural(errors, "error") << ", " << plural(warnings, "warning") << " — "
       << shape << '\n';
}

void emitCheckJson(const CheckReport &r, llvm::raw_ostream &os) {
  ir::JsonWriter w(os);
  w.beginObject();
  w.field("version", 1);
  w.field("spec", r.spec);
  w.field("ok", r.loaded && r.errors() == 0);
  w.field("loaded", r.loaded);
  w.field("tests", uint64_t(r.tests));
  w.field("instances", r.instances.value);
  w.field("instances_exact", r.instances.exact);
  w.field("errors", uint64_t(r.errors()));
  w.field("warnings", uint64_t(r.warnings()));
  w.key("findings");
  w.beginArray();
  for (const CheckFinding &f : r.findings) {
    w.beginObject();
    w.field("severity", f.severity == frontend::Severity::Error ? "error" : "warning");
    w.field("code", ir::codeName(f.code));
    w.field("message", f.message);
    if (f.loc.file)
      w.field("file", f.loc.file->path());
    else if (!f.where.empty())
      w.field("location", f.where);
    if (f.loc.pos.valid()) {
      w.field("line", uint64_t(f.loc.pos.line));
      w.field("col", uint64_t(f.loc.pos.col));
    }
    w.field("suggestion", ir::codeSuggestion(f.code));
    w.endObject();
  }
  w.endArray();
  w.endObject();
  w.finish();
}

} // namespace fbc::backend
