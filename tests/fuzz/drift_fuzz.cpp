// libFuzzer target: plan drift (bundle/plan_drift.h), the comparison `fbc
// replay` makes between the bundle's plan.json and the replayed plan. The
// input is the old plan, a NUL byte and the new plan (no NUL: both are the
// input). Whatever the bytes, it returns an error or lines that each say
// "plan drift: ...", and a plan it reads does not drift from itself.
#include "bundle/plan_drift.h"

#include <cstdio>
#include <cstdlib>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "drift_fuzz: broken promise: %s\n", what);
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view in(reinterpret_cast<const char *>(data), size);
  size_t nul = in.find('\0');
  std::string_view oldPlan = nul == std::string_view::npos ? in : in.substr(0, nul);
  std::string_view newPlan = nul == std::string_view::npos ? in : in.substr(nul + 1);
  llvm::Expected<std::vector<std::string>> lines = fbc::bundle::planDrift(oldPlan, newPlan);
  if (!lines) {
    llvm::consumeError(lines.takeError());
  } else {
    for (const std::string &l : *lines)
      check(l.starts_with("plan drift: "), "a drift line that does not say what it is");
  }
  llvm::Expected<std::vector<std::string>> self = fbc::bundle::planDrift(oldPlan, oldPlan);
  if (!self) {
    llvm::consumeError(self.takeError());
    return 0;
  }
  check(self->empty(), "a plan drifts from itself");
  return 0;
}
