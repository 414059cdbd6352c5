// The rule a service name follows (service(), mock_service()): it becomes a
// cgroup directory, bundle entries (services/<name>.stdout), file names and
// a hostname, so it may hold only letters, digits, '_', '-' and '.' (not
// first, no ".."), at most kMaxServiceName characters.
#pragma once

#include "ir/builtins/call_site.h"

#include <cstddef>
#include <string_view>

namespace fbc::ir::builtins {

inline constexpr size_t kMaxServiceName = 63;

// Fails at `at`, prefixed by `fn` ("service()"), when `name` breaks the rule.
void checkServiceName(const CallSite &site, const Loc &at, std::string_view fn,
                      std::string_view name);

} // namespace fbc::ir::builtins
