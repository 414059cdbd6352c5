// The universe: the names every Starlark file can see without declaring
// them (None, True, False and the builtin functions of Go's library.go).
// The values are immutable and shared by all threads.
#pragma once

#include "frontend/lib/value.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string_view>
#include <utility>

namespace fbc::star {

// The universal value called `name`, or null if there is none.
Value lookupUniverse(std::string_view name);
// Whether `name` is a universal name (for the resolver).
bool isUniversal(llvm::StringRef name);
// All universal names and values, sorted by name.
llvm::ArrayRef<std::pair<const char *, Value>> universeMembers();

} // namespace fbc::star
