// Runs a function on a thread with a large stack. The evaluator recurses
// on the C++ stack (a Starlark call is a few C++ frames), so deep but legal
// Starlark recursion needs more than the default 8 MiB; Thread::maxDepth
// bounds it well inside this.
#pragma once

#include <functional>

namespace fbc::star {

// Returns fn's result. The stack is reserved, not committed: pages are
// touched only as deep as the program actually goes.
int runWithLargeStack(const std::function<int()> &fn, size_t stackBytes = size_t(1) << 30);

} // namespace fbc::star
