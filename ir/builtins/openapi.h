// The one OpenAPI reader (openapi.cpp): client(openapi=) and
// mock_service(openapi=) both build their ir::Contract here.
#pragma once

#include "ir/builtins/call_site.h"
#include "ir/contract.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fbc::ir::builtins {

// Reads the OpenAPI 3.x document at `path` (relative to the root spec's
// folder) into a contract; `rename` maps operationIds to method names.
// Fails the call at `at` with `prefix` + why: an unreadable or malformed
// document, one that is not OpenAPI 3, a $ref outside the document, an
// operation name collision, a rename key that matches no operation.
std::shared_ptr<const Contract>
readOpenApi(const CallSite &site, const Loc &at, const std::string &prefix, const std::string &path,
            const std::vector<std::pair<std::string, std::string>> &rename);

} // namespace fbc::ir::builtins
