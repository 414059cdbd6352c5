// What `fbc plan` (passes/axes.cpp) and `fbc run` (runtime/) must agree on
// about a fan-out site, kept once:
//   - the key of a probability site: the rule's label, else
//     "<service>:<keyword>";
//   - the parallel() policy: which interleavings= values are valid, the
//     messages for the invalid ones, and the size of a site (B!,
//     min(2B-1, B!), min(N, B!)).
// The plan checks literal arguments with these at plan time and the run
// checks the values it is called with; both give the same message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fbc::ir {

// The probability-site key: `label` if not empty, else "service:keyword".
std::string probabilitySiteKey(std::string_view label, std::string_view service,
                               std::string_view keyword);

// parallel(f1, ..., fB, interleavings=P).
struct ParallelPolicy {
  enum class Kind { Single, All, Critical, N };
  Kind kind = Kind::Single;
  uint64_t cap = 1; // N
  // "all", "critical", "<N>"; "" for Single (no axis).
  std::string str() const;
  // The number of launch orders a site of `branches` callables has, or
  // nullopt when B! does not fit 64 bits and no cap bounds it ("all").
  // Single: 1.
  std::optional<uint64_t> size(uint32_t branches) const;
};

// interleavings=<int>: the policy, or nullopt with the run's message.
std::optional<ParallelPolicy> parallelPolicyOf(int64_t n, std::string &error);
// interleavings=<n> that is not a positive 64-bit count (`n` as written).
std::string parallelPolicyCountError(std::string_view n);
// interleavings="<s>": "1", "all", "critical"; the reserved and unknown
// values give nullopt and the message.
std::optional<ParallelPolicy> parallelPolicyOf(std::string_view s, std::string &error);
// interleavings= of another type (`typeName`, as Starlark's type()).
std::string parallelPolicyTypeError(std::string_view typeName);
// Any keyword other than interleavings=.
std::string parallelUnknownKeyword(std::string_view keyword);
// Fewer than two callables.
std::string parallelTooFewBranches();
// Argument `index` (1-based) is not callable.
std::string parallelNotCallable(size_t index, std::string_view typeName);

} // namespace fbc::ir
