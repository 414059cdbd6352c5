// Which tests `fbc run --test FILTER` (and `fbc replay --test`) selects: a
// name, a name without its "test_" prefix, a glob, or "~regex" (RE2, a
// partial match). A fault_matrix test matches by its own name or by the
// name `fbc plan` shows it under (test_matrix_<scenario>: all of that
// scenario's cells).
#pragma once

#include "ir/spec.h"

#include <string>
#include <vector>

namespace fbc::backend {

// The selected tests in execution order (every test for an empty filter),
// or false with `error` (a bad regex; nothing matched, listing the tests).
bool selectTests(const ir::Spec &spec, const std::string &filter,
                 std::vector<const ir::Test *> &out, std::string &error);

} // namespace fbc::backend
