// Checking values against an API contract's schemas (ir/contract.h): a
// client()'s responses under validate="response"|"strict", its requests
// under validate="request"|"strict". The subset of OpenAPI 3.0 schemas fbc
// checks: type (string integer number boolean array object), nullable,
// required, properties, additionalProperties: false, items, enum, allOf /
// anyOf / oneOf, minimum / maximum, minLength / maxLength, minItems /
// maxItems, and $refs to components/schemas. A violation reads
// `body.items[0].qty: got string, want integer`.
#pragma once

#include "frontend/lib/value.h"
#include "ir/contract.h"

#include <string>
#include <string_view>

namespace fbc::star {
class Thread;
}

namespace fbc::rt {

// "" when `v` (a JSON-decoded value) fits `s`; else the first violation,
// its place written from `at` ("body"). An enum compares `v` as compact
// JSON, the encoding the reader kept the contract's values in.
std::string checkSchema(star::Thread &t, const ir::Contract &c, const ir::Schema &s, star::Value v,
                        const std::string &at);

// "" when a response with `status`, `contentType` (the header, "" when
// none) and `body` is one `op` declares; else why not: an undeclared
// status or content type, an empty or malformed JSON body, a schema
// violation. Non-JSON media types are not inspected.
std::string checkResponse(star::Thread &t, const ir::Contract &c, const ir::ContractOperation &op,
                          long status, std::string_view contentType, const std::string &body);

// "" when `body` (sent as `contentType`) fits the request body `op`
// declares.
std::string checkRequest(star::Thread &t, const ir::Contract &c, const ir::ContractOperation &op,
                         std::string_view contentType, const std::string &body);

} // namespace fbc::rt
