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

std::optional<FanOut> fanOutOf(std::string_view builtin) {
  if (builtin == "parallel")
    return FanOut::Parallel;
  if (builtin == "wait_all")
    return FanOut::WaitAll;
  if (builtin == "wait_n")
    return FanOut::WaitN;
  if (builtin == "wait_first")
    return FanOut::WaitFirst;
  return std::nullopt;
}

const char *fanOutName(FanOut f) {
  switch (f) {
  case FanOut::Parallel:
    return "parallel";
  case FanOut::WaitAll:
    return "wait_all";
  case FanOut::WaitN:
    return "wait_n";
  case FanOut::WaitFirst:
    return "wait_first";
  }
  return "parallel";
}

namespace {

std::string callName(std::string_view fn) {
  return std::string(fn) + "()";
}

} // namespace

std::string parallelPolicyCountError(std::string_view n, std::string_view fn) {
  return callName(fn) + ": interleavings= must be a positive integer, got " + std::string(n);
}

std::optional<ParallelPolicy> parallelPolicyOf(int64_t n, std::string &error, std::string_view fn) {
  if (n <= 0) {
    error = parallelPolicyCountError(std::to_string(n), fn);
    return std::nullopt;
  }
  ParallelPolicy p;
  p.cap = uint64_t(n);
  p.kind = n == 1 ? ParallelPolicy::Kind::Single : ParallelPolicy::Kind::N;
  return p;
}

std::optional<ParallelPolicy> parallelPolicyOf(std::string_view s, std::string &error,
                                               std::string_view fn) {
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
    error = callName(fn) + ": interleavings=\"sut-internal\" requires L5 "
                           "(instruction-boundary determinism); not available in this release "
                           "(see RFC-040 Appendix A)";
  else
    error = callName(fn) +
            ": interleavings= must be 1, an integer N, \"all\", \"critical\", or "
            "\"dpor\"; got " +
            quote(s);
  return std::nullopt;
}

std::string parallelPolicyTypeError(std::string_view typeName, std::string_view fn) {
  return callName(fn) + ": interleavings= must be int or string, got " + std::string(typeName);
}

std::string parallelUnknownKeyword(std::string_view keyword, std::string_view fn) {
  return callName(fn) + ": unrecognized keyword argument " + quote(keyword);
}

std::string parallelPreemptionsError(int64_t n, std::string_view fn) {
  return callName(fn) + ": preemptions= must be an integer from 0 to " +
         std::to_string(kMaxPreemptions) + ", got " + std::to_string(n);
}

std::string parallelPreemptionsTypeError(std::string_view typeName, std::string_view fn) {
  return callName(fn) + ": preemptions= must be int, got " + std::string(typeName);
}

std::string parallelPreemptionsWithoutDpor(std::string_view fn) {
  return callName(fn) + ": preemptions= bounds interleavings=\"dpor\" and needs it";
}

std::string parallelTooFewBranches(std::string_view fn) {
  return callName(fn) + " requires at least 2 callables";
}

std::string parallelNotCallable(size_t index, std::string_view typeName, std::string_view fn) {
  return callName(fn) + " argument " + std::to_string(index) + " is not callable (got " +
         std::string(typeName) + ")";
}

std::string waitCountTypeError(std::string_view typeName) {
  return "wait_n(): its first argument, n, must be an int, got " + std::string(typeName);
}

std::string waitCountRangeError(int64_t n, size_t branches) {
  return "wait_n(): n must be from 1 to the number of callables (" + std::to_string(branches) +
         "), got " + std::to_string(n);
}

} // namespace fbc::ir
