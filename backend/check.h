// `fbc check SPEC`: everything that can be known about a spec without
// running it, as findings with stable codes (ir/diagnostic_codes.h):
//   - the load (syntax, validation, verifier): SPEC_LOAD_FAILED, the
//     loader's located message;
//   - the plan passes' diagnostics, the body_check pass included (unknown
//     errno, bad duration, unknown keyword, interface or step, ...): the
//     same errors `fbc plan` reports;
//   - the cost gate (--max-instances N): PLAN_COST_EXCEEDED;
//   - vacuity (passes/vacuity.h): TEST_NO_ASSERTIONS, NO_POSITIVE_CONTROL,
//     warnings unless `strict`.
// Nothing runs: no test body, no service (docs/check.md).
#pragma once

#include "ir/load/load_spec.h"
#include "ir/plan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::backend {

struct CheckOptions {
  bool strict = false;                  // vacuity warnings are errors
  std::optional<uint64_t> maxInstances; // PLAN_COST_EXCEEDED above it
};

struct CheckFinding {
  frontend::Severity severity = frontend::Severity::Error;
  ir::DiagCode code = ir::DiagCode::SpecLoadFailed;
  std::string message;
  ir::Loc loc;
  // A finding without a source file of its own (a load error in a frame
  // the SourceManager does not hold): its "file:line:col".
  std::string where;
};

struct CheckReport {
  std::string spec; // the path as given
  bool loaded = false;
  size_t tests = 0;
  ir::Count instances{0, true};
  std::vector<CheckFinding> findings; // sorted by file, line, column, code
  size_t errors() const;
  size_t warnings() const;
};

// Checks the loaded spec (ok() or not: a failed load is one finding).
CheckReport checkSpec(const std::string &path, ir::LoadedSpec &loaded, const CheckOptions &opts);

// text: each finding as a located diagnostic ("file:line:col: error:
// message [CODE]", the source line, a caret) and its suggestion, then one
// summary line ("ok  spec.star — 3 tests, 4 plan instances" or
// "spec.star: 2 errors, 1 warning — ..."). A failed load prints the
// loader's own diagnostics instead (the caller did).
void emitCheckText(const CheckReport &r, llvm::raw_ostream &os);
// json: {"version":1,"spec","ok","tests","instances","instances_exact",
// "errors","warnings","findings":[{"severity","code","message","file",
// "line","col","suggestion"}]}
void emitCheckJson(const CheckReport &r, llvm::raw_ostream &os);

} // namespace fbc::backend
