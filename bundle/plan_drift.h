// Plan drift (`fbc replay`): the plan of the spec snapshot as this fbc
// builds it, compared with the plan.json the bundle recorded. The seed
// promises replay "will validate that the new run's plan matches the old
// one and warn on drift"; each difference becomes one line naming the test
// and what changed.
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <string_view>
#include <vector>

namespace fbc::bundle {

// One line per drifted test, in the old plan's order, then the new tests:
//   plan drift: test_x had 12 instances, now 18 (choose axis "retries"
//   gained 2 options)
// Empty: the plans agree (spec_path, determinism and coverage are not
// compared: the snapshot runs from another folder). Errors: a plan that is
// not the plan.json schema.
llvm::Expected<std::vector<std::string>> planDrift(std::string_view oldPlan,
                                                   std::string_view newPlan);

} // namespace fbc::bundle
