// What `fbc plan` (passes/axes.cpp) and `fbc run` (runtime/) must agree on
// about a fan-out site, kept once:
//   - where a probability rule is put in force (RuleSite): the identity of
//     a probability site, by which the run finds a rule's axis in the leaf
//     program;
//   - the key of a probability site: the rule's label, else
//     "<service>:<keyword>" (it names the axis in reports, and rules with
//     one key share one axis; it identifies nothing);
//   - the parallel() policy: which interleavings= values are valid, the
//     messages for the invalid ones, and the size of a site (B!,
//     min(2B-1, B!), min(N, B!)).
// The plan checks literal arguments with these at plan time and the run
// checks the values it is called with; both give the same message.
#pragma once

#include "ir/spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fbc::ir {

// Where a probabilistic rule comes into force. The plan records, per
// probability axis, every site folded into it (PlanAxis::ruleSites); the
// run builds the same site for each rule it pushes and takes the digit of
// the axis holding it.
//   - fault(svc, kw=rule) / fault_start / fault_all([...], kw=rule) in a
//     test body: `rule` the deny()/delay() call, `at` the fault() call,
//     `keyword` kw (the call and the keyword name the keyword argument: the
//     run sees a builtin's call site, not its arguments' positions);
//   - fault(svc.iface, rule, ...): `at` the fault() call, `keyword` the
//     protocol action (error, delay, ...);
//   - a fault_assumption's `kw=rule`: `at` the keyword argument; its
//     rules=[...]: `at` the fault_assumption() call, `keyword` the action.
// `service` tells apart the services of one fault_all(); -1 when the plan
// cannot resolve the target (a local variable): any service's rule there.
struct RuleSite {
  Loc rule;
  Loc at;
  std::string keyword;
  int service = -1;
  // "rule@at keyword" with "/service" when known: for messages.
  std::string str() const;
};
// Whether a rule in force at `site` (its service known) is planned as `planned`.
bool ruleSiteMatches(const RuleSite &planned, const RuleSite &site);
// Whether two locations are the same position of the same file.
bool sameLoc(const Loc &a, const Loc &b);

// Whether a rule with these knobs is a probability axis of the leaves (one
// leaf per pattern of its first max_fires occurrences): max_fires set,
// probability < 1, mode not "stochastic". The plan counts such a rule's
// site (passes/axes) and the run pins its occurrences by the same test.
bool fansOutByProbability(double probability, int64_t maxFires, FaultMode mode);

// The probability-site key: `label` if not empty, else "service:keyword".
std::string probabilitySiteKey(std::string_view label, std::string_view service,
                               std::string_view keyword);

// parallel(f1, ..., fB, interleavings=P). Dpor: the release orders of the
// branches' mediated calls are explored at run time (docs/run.md,
// "Exploring orderings"), no launch order and no statically known size.
struct ParallelPolicy {
  enum class Kind { Single, All, Critical, N, Dpor };
  Kind kind = Kind::Single;
  uint64_t cap = 1; // N
  // "all", "critical", "<N>", "dpor"; "" for Single (no axis).
  std::string str() const;
  // The number of launch orders a site of `branches` callables has, or
  // nullopt when B! does not fit 64 bits and no cap bounds it ("all").
  // Single: 1. Dpor: nullopt (found at run time).
  std::optional<uint64_t> size(uint32_t branches) const;
};

// The builtins that fan out into branches: parallel(f1, ..., fB) and
// wait_all(f1, ...), wait_n(n, f1, ...), wait_first(f1, ...), which start
// the branches as parallel() does and return once all / n / the first of
// them have finished. They share the policy keywords, their checks and
// their axes; the messages below name the builtin `fn` that was called.
enum class FanOut { Parallel, WaitAll, WaitN, WaitFirst };
std::optional<FanOut> fanOutOf(std::string_view builtin);
const char *fanOutName(FanOut f);
inline constexpr const char *kFanOutBuiltins[] = {"parallel", "wait_all", "wait_first", "wait_n"};

// interleavings=<int>: the policy, or nullopt with the run's message.
std::optional<ParallelPolicy> parallelPolicyOf(int64_t n, std::string &error,
                                               std::string_view fn = "parallel");
// interleavings=<n> that is not a positive 64-bit count (`n` as written).
std::string parallelPolicyCountError(std::string_view n, std::string_view fn = "parallel");
// interleavings="<s>": "1", "all", "critical", "dpor"; the reserved and unknown
// values give nullopt and the message.
std::optional<ParallelPolicy> parallelPolicyOf(std::string_view s, std::string &error,
                                               std::string_view fn = "parallel");
// interleavings= of another type (`typeName`, as Starlark's type()).
std::string parallelPolicyTypeError(std::string_view typeName, std::string_view fn = "parallel");
// Any keyword other than interleavings= and preemptions=.
std::string parallelUnknownKeyword(std::string_view keyword, std::string_view fn = "parallel");
// preemptions=N (interleavings="dpor" only): the most context switches
// away from a thread that could go on that an explored order may make.
// A negative N, or one past 1,000,000.
std::string parallelPreemptionsError(int64_t n, std::string_view fn = "parallel");
// preemptions= of another type.
std::string parallelPreemptionsTypeError(std::string_view typeName,
                                         std::string_view fn = "parallel");
// preemptions= without interleavings="dpor".
std::string parallelPreemptionsWithoutDpor(std::string_view fn = "parallel");
inline constexpr int64_t kMaxPreemptions = 1000000;
// Fewer than two callables.
std::string parallelTooFewBranches(std::string_view fn = "parallel");
// Argument `index` (1-based) is not callable.
std::string parallelNotCallable(size_t index, std::string_view typeName,
                                std::string_view fn = "parallel");
// wait_n(n, ...): n missing or not an int.
std::string waitCountTypeError(std::string_view typeName);
// wait_n(n, ...) with n outside 1..branches.
std::string waitCountRangeError(int64_t n, size_t branches);

} // namespace fbc::ir
