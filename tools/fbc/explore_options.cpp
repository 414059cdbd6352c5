#include "tools/fbc/explore_options.h"

#include "ir/duration.h"

#include <CLI/CLI.hpp>

namespace fbc::tools {

void addExploreOptions(CLI::App &sub, ExploreFlags &flags) {
  sub.add_option("--explore", flags.policy,
                 "hold the services' calls while parallel() branches run and release them in "
                 "every order (all) or in random orders (sample), one leaf per order");
  sub.add_option("--explore-budget", flags.budget,
                 "at most N leaves per explored test (default: all and dpor 1000, sample 100)");
  sub.add_option("--explore-settle", flags.settle,
                 "how far apart the two reads of a quiescence check are (default 2ms)");
  sub.add_option("--explore-quiet-bound", flags.quietBound,
                 "the longest wait for quiescence before a release (default 1s)");
}

namespace {

bool duration(const std::string &flag, const std::string &v, bool zeroOk, int64_t &out,
              std::string &error) {
  std::string why;
  std::optional<int64_t> d = ir::parseDuration(v, why);
  if (!d || *d < 0 || (!zeroOk && *d == 0)) {
    error = "bad " + flag + " \"" + v + "\": " + (d ? "must be positive" : why);
    return false;
  }
  out = *d;
  return true;
}

} // namespace

bool exploreOptions(const ExploreFlags &flags, ir::ExploreOptions &out, std::string &error) {
  out = ir::ExploreOptions{};
  // Without --explore the other flags set how parallel(interleavings="dpor")
  // sites are explored.
  if (flags.policy.empty()) {
  } else if (flags.policy == "all") {
    out.policy = ir::ExploreOptions::Policy::All;
  } else if (flags.policy == "sample") {
    out.policy = ir::ExploreOptions::Policy::Sample;
  } else {
    error = "bad --explore \"" + flags.policy + "\": want all or sample";
    return false;
  }
  out.budget = ir::defaultExploreBudget(out.policy);
  if (!flags.budget.empty()) {
    const std::string &b = flags.budget;
    bool ok =
        b.size() <= 9 && b[0] != '0' && b.find_first_not_of("0123456789") == std::string::npos;
    if (!ok) {
      error = "bad --explore-budget \"" + b + "\": want a number of leaves (1..999999999)";
      return false;
    }
    out.budget = std::stoull(b);
  }
  if (!flags.settle.empty() &&
      !duration("--explore-settle", flags.settle, true, out.settleNs, error))
    return false;
  if (!flags.quietBound.empty() &&
      !duration("--explore-quiet-bound", flags.quietBound, false, out.quietBoundNs, error))
    return false;
  return true;
}

} // namespace fbc::tools
