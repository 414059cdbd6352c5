// One end-to-end test per behaviour the docs promise and nothing else
// checked (issue #18): each runs the real fbc binary on a spec from
// run_specs/ and asserts what docs/ says happens.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

namespace fbc::rt::e2e {
namespace {} // namespace
} // namespace fbc::rt::e2e
