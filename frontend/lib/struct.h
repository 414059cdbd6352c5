// The `struct` builtin (Go's starlarkstruct.Make). It is not universal: the
// embedder predeclares it where specs may use it.
#pragma once

#include "frontend/lib/value.h"

#include <string>
#include <utility>
#include <vector>

namespace fbc::star {

class Heap;
class Struct;

// The immutable `struct` builtin function value.
Value makeStructBuiltin();

// A struct with the given fields (any order; sorted here). Duplicate names
// are the caller's responsibility.
Struct *makeStruct(Heap &h, std::vector<std::pair<std::string, Value>> fields);

} // namespace fbc::star
