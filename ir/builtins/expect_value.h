// Reading an expect= / default_expect= / overrides value: a Starlark
// callable or an expect_*() predicate.
#pragma once

#include "frontend/lib/value.h"
#include "ir/spec.h"

namespace fbc::ir::builtins {

// Precondition: v is callable.
Expect expectFrom(star::Value v);

} // namespace fbc::ir::builtins
