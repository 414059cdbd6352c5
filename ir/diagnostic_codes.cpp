#include "ir/diagnostic_codes.h"

#include <cassert>

namespace fbc::ir {

namespace {

using enum DiagCode;
constexpr DiagStage kCheck = DiagStage::Check;
constexpr DiagStage kRun = DiagStage::Run;

// In the enum's order (codeInfo indexes it).
constexpr DiagCodeInfo kCodes[] = {
    {SpecLoadFailed, "SPEC_LOAD_FAILED", kCheck,
     "the spec did not load: a syntax, type or validation error while it ran",
     "Fix the located error; `fbc check` reports the first one the loader meets."},
    {UnknownErrno, "UNKNOWN_ERRNO", kCheck, "deny() names an errno fbc does not know",
     "Use an errno name from the supported list (EIO, ENOSPC, ECONNREFUSED, ...); names are "
     "case-insensitive."},
    {BadDuration, "BAD_DURATION", kCheck, "a duration string that does not parse",
     "Write a Go duration with a unit: \"500ms\", \"2s\", \"1m30s\"."},
    {UnknownKeyword, "UNKNOWN_KEYWORD", kCheck,
     "a keyword argument the builtin or step method does not take",
     "Check the keyword's spelling against the list the message gives (docs/ir.md, docs/run.md "
     "for steps)."},
    {BadProbability, "BAD_PROBABILITY", kCheck, "probability= outside [0, 1] or not a number",
     "Give a number in [0, 1] (values above 1 are percentages) or a string like \"30%\"."},
    {BadMaxFires, "BAD_MAX_FIRES", kCheck, "max_fires= that the run rejects",
     "Give max_fires= a positive integer, with probability < 1 and without "
     "mode=\"stochastic\"."},
    {BadMode, "BAD_MODE", kCheck, "mode= that the run rejects",
     "Use mode=\"exhaustive\" (with max_fires=) or mode=\"stochastic\"."},
    {UnknownSyscall, "UNKNOWN_SYSCALL", kCheck,
     "a fault() keyword or trace() syscall that is neither a syscall keyword nor a named op of "
     "the service",
     "Name a syscall keyword (write, read, connect, openat, fsync, ...) or an op() of the "
     "service."},
    {UnknownInterface, "UNKNOWN_INTERFACE", kCheck,
     "an attribute of a service that is none of its interfaces, fields or step methods",
     "Use one of the service's interface names as declared in service(..., "
     "interface(NAME, ...))."},
    {UnknownStep, "UNKNOWN_STEP", kCheck,
     "an attribute of an interface that is none of its fields (.addr, .port, ...) or its "
     "protocol's step methods",
     "Call a step method of the interface's protocol (docs/run.md lists them per protocol)."},
    {UnsupportedStep, "UNSUPPORTED_STEP", kCheck,
     "a step the reference's protocol has and fbc has no step client for (a warning)",
     "Leave the call out of tests run by fbc for now: a body that reaches it is an error "
     "row."},
    {UnknownAttribute, "UNKNOWN_ATTRIBUTE", kCheck,
     "an attribute that no value of its type has: a field a step's result never has "
     "(resp.stauts), an operation a client() does not have",
     "Use one of the attributes the message lists (docs/run.md lists a response's and a "
     "result's)."},
    {DeclarationInBody, "DECLARATION_IN_BODY", kCheck,
     "a declaration builtin (service(), fault_scenario(), ...) called from a test body",
     "Declare at load time: at top level or in a function the top level calls."},
    {BadArgument, "BAD_ARGUMENT", kCheck,
     "an argument of a body builtin or a step that the run rejects (a missing, doubled or "
     "ill-typed one)",
     "Change the argument as the message says; a body that passes it is an error row."},
    {UnmodeledFanout, "UNMODELED_FANOUT", kCheck,
     "a probability < 1 rule without max_fires=: the plan counts it once",
     "Add max_fires=N to explore all 2^N outcomes, or mode=\"stochastic\" to say it is meant."},
    {HelperChoose, "HELPER_CHOOSE", kCheck,
     "a named choose() reached only through a helper function: not a plan axis",
     "Call choose() in the test body itself to make it an axis."},
    {PlanCostExceeded, "PLAN_COST_EXCEEDED", kCheck,
     "the plan has more instances than --max-instances allows",
     "Reduce a choose() axis, or raise --max-instances if the cost is intended; `fbc plan` "
     "shows which axes multiply."},
    {TestNoAssertions, "TEST_NO_ASSERTIONS", kCheck,
     "a test that asserts nothing and sets no expectation: it can only pass",
     "Assert on what the test does (assert_eq, assert_true, expect_*) or give it expect=."},
    {NoPositiveControl, "NO_POSITIVE_CONTROL", kCheck,
     "a fault test whose scenario no test runs without faults: a pass proves nothing about "
     "the fault",
     "Add a test that runs the same scenario unfaulted (fault_scenario without faults=, or a "
     "def test calling it)."},
    {AssertionFailed, "ASSERTION_FAILED", kRun, "an assertion in the body failed",
     "Read the traceback and the trace: the system behaved otherwise under the fault."},
    {ExpectationViolated, "EXPECTATION_VIOLATED", kRun,
     "the test's expect= (or a temporal property) did not hold",
     "Compare the expectation with the trace; fix the system or the expectation."},
    {StrictDeterminismViolation, "STRICT_DETERMINISM_VIOLATION", kRun,
     "under determinism(strict=True), a passing test's services used a source of "
     "nondeterminism fbc does not mediate (a clock, randomness, the network, ...)",
     "Tolerate the source the reason names with determinism(allow=[...]) or service(..., "
     "nondeterministic_ok=[...]), or remove the leak from the service."},
    {BodyError, "BODY_ERROR", kRun,
     "the body raised an error that is not an assertion: a Starlark error, a builtin's or a "
     "step's (a fail row: a service's answer can cause it)",
     "Read the traceback's innermost frame: a mistake in the body, or a step the service did "
     "not answer as the body expected."},
    {FaultNotFired, "FAULT_NOT_FIRED", kRun,
     "a fault rule never fired: a fault_bypassed pass, or a fail under require_faults_fire",
     "Make the scenario reach the faulted syscall, or target the syscall the service really "
     "makes (`fbc run -v` shows the trace)."},
    {FaultNotFilterable, "FAULT_NOT_FILTERABLE", kRun,
     "a fault on a syscall the service's filter does not trap: it could not fire",
     "Write the target and the syscall in the fault() call itself so the static scan sees "
     "them."},
    {ServiceCrashed, "SERVICE_CRASHED", kRun,
     "a service crashed at start, or exited or was killed during a test that then failed",
     "Read the service's output in the bundle (services/NAME.log) for why it died."},
    {HealthcheckTimeout, "HEALTHCHECK_TIMEOUT", kRun, "a service never passed its healthcheck",
     "Check the service starts on its own and listens where the healthcheck looks; raise "
     "the healthcheck's timeout= if it is slow."},
    {ServiceLaunchFailed, "SERVICE_LAUNCH_FAILED", kRun,
     "a service's process could not be started: its exec failed (not a program for this "
     "machine, a missing working directory), its container could not be made (a missing "
     "image, a program the image lacks, a ports= the leaf cannot publish) or its cgroup",
     "Fix what the reason's parentheses name: the service's binary, image or environment (run "
     "the command by hand to see it fail the same way)."},
    {PortInUse, "PORT_IN_USE", kRun,
     "a port of a service accepted connections before the service started: another process "
     "holds it",
     "Stop the process that listens on the port (`ss -ltnp` names it) or give the service "
     "another port."},
    {PidsLimitReached, "PIDS_LIMIT_REACHED", kRun,
     "a service reached its pids limit and had a fork or clone refused: the test ran against "
     "a crippled service",
     "Raise the limit with service(..., pids_max=N) if the service needs that many processes "
     "and threads, else find what forks without end."},
    {TestTimeout, "TEST_TIMEOUT", kRun, "the body did not finish within the test's timeout",
     "Find where the body waited in the report; raise timeout= only if the wait is expected."},
    {CannotRun, "CANNOT_RUN", kRun,
     "the test needs something this machine or this fbc does not have (a container engine, a "
     "gateway, a privilege, the service's binary)",
     "Install what the row's reason names, or run the test where it is available."},
    {Interrupted, "INTERRUPTED", kRun, "the run was interrupted before the test finished",
     "Re-run the test; nothing about it was decided."},
};

static_assert(std::size(kCodes) == size_t(DiagCode::Interrupted) + 1, "every DiagCode has a row");

} // namespace

llvm::ArrayRef<DiagCodeInfo> diagnosticCodes() {
  return kCodes;
}

const DiagCodeInfo &codeInfo(DiagCode c) {
  const DiagCodeInfo &info = kCodes[size_t(c)];
  assert(info.code == c && "kCodes is in the enum's order");
  return info;
}

const DiagCodeInfo *findDiagCode(std::string_view name) {
  for (const DiagCodeInfo &i : kCodes)
    if (i.name == name)
      return &i;
  return nullptr;
}

} // namespace fbc::ir
