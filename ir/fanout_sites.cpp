// The probability-site key and the parallel() policy: see fanout_sites.h.
#include "ir/fanout_sites.h"

#include "ir/quote.h"

#include <algorithm>

namespace fbc::ir {

bool sameLoc(const Loc &a, const Loc &b) {
  return a.file == b.file && a.pos.line == b.pos.line && a.pos.col == b.pos.col;
}

bool ruleSiteMatches(const RuleSite &planned, const RuleSite &site) {
  return sameLoc(planned.rule, site.rule) && sameLoc(planned.at, site.at) &&
         planned.keyword == site.keyword &&
         (planned.service < 0 || planned.service == site.service);
}

std::string RuleSite::str() const {
  // Appended piece by piece (GCC 12 mistakes a chain of + for overlapping copies).
  std::string s = rule.str();
  s.append("@").append(at.str()).append(" ").append(keyword);
  if (service >= 0)
    s.append("/").append(std::to_string(service));
  return s;
}

bool fansOutByProbability(double probability, int64_t maxFires, FaultMode mode) {
  return maxFires > 0 && probability < 1 && mode != FaultMode::Stochastic;
}

std::string probabilitySiteKey(std::string_view label, std::string_view service,
                               std::string_view keyword) {
  if (!label.empty())
    return std::string(label);
  return std::string(service) + ":" + std::string(keyword);
}

std::string ParallelPolicy::str() const {
  switch (kind) {
  case Kind::Single:
    return "";
  case Kind::All:
    return "all";
  case Kind::Critical:
    return "critical";
  case Kind::N:
    return std::to_string(cap);
  case Kind::Dpor:
    return "dpor";
  }
  return "";
}

std::optional<uint64_t> ParallelPolicy::size(uint32_t branches) const {
  if (kind == Kind::Single)
    return 1;
  if (kind == Kind::Dpor)
    return std::nullopt;
  // B!, or 0 when it does not fit.
  uint64_t fact = 1;
  for (uint64_t i = 2; i <= branches; ++i) {
    if (fact > UINT64_MAX / i) {
      fact = 0;
      break;
    }
    fact *= i;
  }
  uint64_t critical = 2 * uint64_t(branches) - 1;
  switch (kind) {
  case Kind::All:
    return fact ? std::optional<uint64_t>(fact) : std::nullopt;
  case Kind::Critical:
    return fact ? std::min(critical, fact) : critical;
  case Kind::N:
    return fact ? std::min(cap, fact) : cap;
  case Kind::Single:
  case Kind::Dpor:
    break;
  }
  return 1;
}

std::string parallelPolicyCountError(std::string_view n) {
  return "parallel(): interleavings= must be a positive integer, got " + std::string(n);
}

std::optional<ParallelPolicy> parallelPolicyOf(int64_t n, std::string &error) {
  if (n <= 0) {
    error = parallelPolicyCountError(std::to_string(n));
    return std::nullopt;
  }
  ParallelPolicy p;
  p.cap = uint64_t(n);
  p.kind = n == 1 ? ParallelPolicy::Kind::Single : ParallelPolicy::Kind::N;
  return p;
}

std::optional<ParallelPolicy> parallelPolicyOf(std::string_view s, std::string &error) {
  ParallelPolicy p;
  if (s == "1")
    return p;
  if (s == "all") {
    p.kind = ParallelPolicy::Kind::All;
    return p;
  }
  if (s == "critical") {
    p.kind = ParallelPolicy::Kind::Critical;
    return p;
  }
  if (s == "dpor") {
    p.kind = ParallelPolicy::Kind::Dpor;
    return p;
  }
  if (s == "sut-internal")
    error = "parallel(): interleavings=\"sut-internal\" requires L5 "
            "(instruction-boundary determinism); not available in this release (see "
            "RFC-040 Appendix A)";
  else
    error = "parallel(): interleavings= must be 1, an integer N, \"all\", \"critical\", or "
            "\"dpor\"; got " +
            quote(s);
  return std::nullopt;
}

std::string parallelPolicyTypeError(std::string_view typeName) {
  return "parallel(): interleavings= must be int or string, got " + std::string(typeName);
}

std::string parallelUnknownKeyword(std::string_view keyword) {
  return "parallel(): unrecognized keyword argument " + quote(keyword);
}

std::string parallelPreemptionsError(int64_t n) {
  return "parallel(): preemptions= must be an integer from 0 to " +
         std::to_string(kMaxPreemptions) + ", got " + std::to_string(n);
}

std::string parallelPreemptionsTypeError(std::string_view typeName) {
  return "parallel(): preemptions= must be int, got " + std::string(typeName);
}

std::string parallelPreemptionsWithoutDpor() {
  return "parallel(): preemptions= bounds interleavings=\"dpor\" and needs it";
}

std::string parallelTooFewBranches() {
  return "parallel() requires at least 2 callables";
}

std::string parallelNotCallable(size_t index, std::string_view typeName) {
  return "parallel() argument " + std::to_string(index) + " is not callable (got " +
         std::string(typeName) + ")";
}

} // namespace fbc::ir
