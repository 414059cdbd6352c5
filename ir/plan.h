// ir::Plan: what `fbc plan` computes from an ir::Spec, and what the
// lowering to leaves (backend/) will enumerate. The passes in passes/ fill it:
//
//   axes         per test, the fan-out axes read from the test body's AST and
//                from the fault assumptions the test installs
//   cost         per test the product of its axes; the plan entries (matrix
//                cells grouped per scenario) and the total
//   coverage     dependency edges and the fault tests that cover them
//   suggest      a fault_scenario stub per uncovered edge
//   diagnostics  warnings: unmodeled_fanout, choose() only in a helper
//
// Leaf enumeration contract (shared with the runtime). A test's leaves are
// the mixed-radix product of PlanTest::axes in vector order, the FIRST axis
// varying fastest: leaf i decodes as
//     rem = i; for axis in axes: digit = rem % size(axis); rem /= size(axis)
// The axes are ordered choose axes (body AST pre-order), then probability
// sites (assumption rules in install order, then body fault() calls in
// source order), then interleaving sites (source order). A probability
// site's digit d pins occurrence k of the rule to bit k of d (occurrence 0
// is the least significant bit); an "all"/"critical"/N interleaving site's
// digit d selects the d-th lexicographic permutation of its branches. So the
// count a plan prints is the number of leaves a run executes.
#pragma once

#include "frontend/source/diagnostic.h"
#include "ir/diagnostic_codes.h"
#include "ir/fanout_sites.h"
#include "ir/spec.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace fbc::ir {

// An instance count: exact, or a lower bound ("at least"). Arithmetic
// saturates at UINT64_MAX, and a saturated count is a lower bound: a count
// is never silently rounded down.
struct Count {
  uint64_t value = 1;
  bool exact = true;

  Count &operator*=(const Count &o);
  Count &operator+=(const Count &o);
  // Arithmetic passed 2^64 - 1 (or an axis has 2^64 or more outcomes): the
  // true count is at least 2^64, and no computed value is claimed.
  bool saturated() const;
  // "N", "at least N", or "at least 2^64 (saturated)".
  std::string str() const;
  static Count saturatedCount();
};

enum class AxisKind { Choose, Probability, Interleaving };
const char *axisKindName(AxisKind k); // choose, probability, interleaving

// Why an axis size is not known statically.
enum class UnknownReason {
  None,
  ComputedOptions,  // choose(): the option list is computed in the body
  ComputedMaxFires, // max_fires= is not a literal or a module constant
  ComputedBranches, // parallel(*fns): the branch count is computed
  ComputedPolicy,   // interleavings= is not a literal or a module constant
  TooLarge,         // 2^max_fires or B! does not fit 64 bits
  Explored,         // parallel(interleavings="dpor"): its orderings are found at run time
};
// "" for None, else "computed_options", "computed_max_fires", ... "too_large".
const char *unknownReasonName(UnknownReason r);

// A choose() option as a value the run can hand to test(assume=): a
// literal or module constant of one of these kinds, read by the axes pass;
// Opaque for anything else (a computed value, a list, a function).
struct OptionConstant {
  enum class Kind : uint8_t { Opaque, None, Bool, Int, Float, String };
  Kind kind = Kind::Opaque;
  int64_t i = 0; // Bool (0 or 1), Int
  double f = 0;  // Float
  std::string s; // String
  bool operator==(const OptionConstant &) const = default;
};

struct PlanAxis {
  AxisKind kind = AxisKind::Choose;
  // choose: the axis name ("choose#k" when the name is not a literal);
  // probability: the rule label, else "<service>:<keyword>";
  // interleaving: "<file>:<line>" of the parallel() call.
  std::string name;
  std::optional<uint64_t> size; // nullopt: unknown (counted as 1)
  UnknownReason unknown = UnknownReason::None;
  Loc loc; // the choose / deny / delay / parallel call (or the rule keyword)
  // Every call folded into this axis, `loc` first: the run finds a choose()
  // or parallel() call's axis by its call site, never by name.
  std::vector<Loc> sites;

  // choose: the options, rendered ("0ms", "10", "True").
  std::vector<std::string> values;
  // choose: the same options as constants (parallel to values), and
  // whether the name is a string constant (false: "choose#k").
  std::vector<OptionConstant> constants;
  bool named = false;
  // probability
  int64_t maxFires = 0; // 0 when unknown
  std::optional<double> probability;
  std::string fault; // the assumption it comes from; "" for body fault()
  // Where its rules come into force, every rule folded into the axis: the
  // run finds a probabilistic rule's axis by these, never by `name`.
  std::vector<RuleSite> ruleSites;
  // interleaving
  uint32_t branches = 0; // 0 when unknown
  std::string policy;    // "all", "critical", "<N>", "dpor", "" when unknown
  // "dpor": preemptions=N when given (the explored orders' bound).
  std::optional<uint32_t> preemptions;
  // The builtin that fans out (parallel, wait_all, wait_n, wait_first) and,
  // for wait_n with a literal n, how many branches it waits for (0: all,
  // or not known).
  FanOut fanOut = FanOut::Parallel;
  uint32_t waitsFor = 0;
  bool dpor() const { return kind == AxisKind::Interleaving && policy == "dpor"; }

  // The size used in products: the known size, else 1.
  uint64_t factor() const { return size ? *size : 1; }
};

// An interleaving axis's branches as the plan prints them: "3 branches"
// for parallel(), "wait_n(2 of 3 branches)" for the builtins that wait.
std::string fanOutBranchesText(const PlanAxis &a);

// What an axis multiplies its test's count by: its size; a saturated count
// for one too large for 64 bits (max_fires=64); "at least 1" for one whose
// size is computed. The cost pass and the pipeline verifier both use it.
Count axisCount(const PlanAxis &a);

// A `helper()` call in a test body whose callee (transitively) calls a
// named choose(): not attributed to the test (the run does not fan out on
// it either), reported as a warning at the call site.
struct HelperChoose {
  std::string helper;
  std::string axis; // the first choose() name found in the helper
  Loc loc;          // the call in the test body
};

// A probabilistic deny()/delay() without max_fires=: it runs stochastically
// and the plan counts it once.
struct UnmodeledFanout {
  std::string where; // "fault_assumption \"x\" rule fsync" or "fault() in test_y"
  double probability = 1;
  Loc loc;
};

// A call in a test body whose literal arguments will fail when the body
// runs (parallel() policies and branches, deny()/delay() max_fires= and
// mode=): the plan reports it with the message the run gives.
struct BodyArgError {
  std::string message;
  Loc loc;
  // BAD_ARGUMENT, UNKNOWN_STEP, DECLARATION_IN_BODY, or UNSUPPORTED_STEP (a
  // step the reference's protocol plugin has and fbc does not, ir::stepGap:
  // a warning, not an error).
  DiagCode code = DiagCode::BadArgument;
};

// What the axes pass reads from a test's body and the assumptions it
// installs. It is a function of (body, faults) alone, so tests with the same
// ones share one: the cells of a fault matrix that differ only in a scenario
// without axes (thousands in a large spec) hold one copy per fault.
struct PlanTestShape {
  std::vector<PlanAxis> axes; // in leaf-enumeration order (see above)
  std::vector<HelperChoose> helperChooses;
  std::vector<UnmodeledFanout> unmodeled;
  std::vector<BodyArgError> argErrors;
};

// One ir::Test (a matrix cell is its own test here).
struct PlanTest {
  const Test *test = nullptr; // into the Spec the plan was built from
  // Null when the test has no axes and nothing to report (most tests).
  std::shared_ptr<const PlanTestShape> shape;
  Count count; // product of the axes

  const std::vector<PlanAxis> &axes() const { return (shape ? *shape : kNoShape).axes; }
  const std::vector<HelperChoose> &helperChooses() const {
    return (shape ? *shape : kNoShape).helperChooses;
  }
  const std::vector<UnmodeledFanout> &unmodeled() const {
    return (shape ? *shape : kNoShape).unmodeled;
  }
  const std::vector<BodyArgError> &argErrors() const {
    return (shape ? *shape : kNoShape).argErrors;
  }
  // This test's own copy, for a pass that rewrites it (copy on write).
  PlanTestShape &editShape();

private:
  static const PlanTestShape kNoShape;
};

// One node of the plan tree and one element of JSON `tests[]`: a test, or
// all the cells of the fault matrices that share a scenario function
// (named test_matrix_<scenario>).
struct PlanEntry {
  std::string name;
  TestKind kind = TestKind::Def;
  // Indices into Plan::tests, in name order (a matrix entry's cells: JSON
  // matrix_cells are their names).
  std::vector<uint32_t> tests;
  Count count;
  // fault_matrix
  std::string scenario;
  std::vector<std::string> matrixFaults; // sorted, unique
  // fault_scenario
  std::vector<std::string> faults; // sorted
  std::string expect;              // display form; "(mixed)" for mixed matrix expects
  std::string timeout;             // Go duration (test_builtin only)
  // What the test composes beyond its faults: the monitors it runs
  // (ir::testMonitors: names, in order), test(terminate_when=) and
  // test(assume=) (predicate names); empty when none.
  std::vector<std::string> monitors;
  std::string terminateWhen;
  std::vector<std::string> assumes;
};

struct PlanEdge {
  std::string from, to;
  std::string protocol;                // of the target interface; "" if none
  std::string via;                     // "depends_on" | "env" | "client" (from a client())
  std::string envKey;                  // via env: the env variable
  std::vector<std::string> faultTests; // sorted test names faulting `to`
  // Plain `def test_*` tests whose body (or a function of the same module
  // it names) installs a fault on `to` with a statically known target
  // (fault/fault_start/fault_all on the service, one of its interfaces, or
  // an assumption targeting it), sorted. They cover the edge in the table
  // and for --suggest (`via: "test body"` in JSON); `faultTests` keeps the
  // seed's rule (fault_scenario and matrix cells only).
  std::vector<std::string> bodyFaultTests;
  bool covered() const { return !faultTests.empty() || !bodyFaultTests.empty(); }
};

struct PlanCoverage {
  bool computed = false;
  std::vector<PlanEdge> edges; // sorted by (from, to)
  uint64_t uncovered = 0;
  std::vector<std::string> coveredProtocols;   // sorted
  std::vector<std::string> uncoveredProtocols; // sorted; only on uncovered edges
};

struct Suggestion {
  uint32_t edge = 0; // index into PlanCoverage::edges
  std::string text;  // the stub, lines ending in '\n' (no trailing blank line)
};

struct PlanDiagnostic {
  frontend::Severity severity = frontend::Severity::Warning;
  DiagCode code = DiagCode::UnmodeledFanout; // ir/diagnostic_codes.h
  std::string message;
  Loc loc;
};

struct Plan {
  const Spec *spec = nullptr;
  std::vector<PlanTest> tests;    // parallel to Spec::tests
  std::vector<PlanEntry> entries; // sorted by name
  Count total{0, true};
  // Which axis kinds have an unknown size somewhere (for the "at least" note).
  bool unknownChoose = false, unknownProbability = false, unknownInterleaving = false;
  bool explored = false; // a parallel(interleavings="dpor") site (orderings found at run time)
  PlanCoverage coverage;
  bool suggested = false;
  std::vector<Suggestion> suggestions; // sorted by (from, to)
  // What the body_check pass found in the test bodies and the helpers they
  // call (the diagnostics pass merges them into `diagnostics`).
  std::vector<PlanDiagnostic> bodyFindings;
  std::vector<PlanDiagnostic> diagnostics; // sorted by location, then code
};

// The plan IR's text dump (`fbc ir --stage=plan`, `--print-after=<pass>`):
// every field, one entity per line, deterministic.
void printPlanText(const Plan &plan, llvm::raw_ostream &os);

// Reports the plan's diagnostics in the common `file:line:col: warning:`
// form with the source line and a caret.
void reportPlanDiagnostics(const Plan &plan, frontend::DiagnosticList &out);

} // namespace fbc::ir
