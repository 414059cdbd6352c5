// "Did you mean" suggestions for misspelled names, with the rules of Go
// Starlark's internal/spell package: case and underscores are ignored, and
// a candidate must be within an edit distance of half the name. One
// difference: a swap of two adjacent letters is one edit ("sned" -> "send"),
// where Go's Levenshtein distance counts two.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <string>
#include <string_view>

namespace fbc::star {

// The candidate nearest to `name`, or "" if none is close enough. Ties go
// to the earliest candidate.
std::string_view nearestName(std::string_view name, llvm::ArrayRef<std::string> candidates);
std::string_view nearestName(std::string_view name, llvm::ArrayRef<std::string_view> candidates);

// "<type> has no .<name> field or method (did you mean .<nearest>?)": the
// error for an attribute a value lacks, given the attributes it has.
std::string noFieldMessage(std::string_view type, std::string_view name,
                           llvm::ArrayRef<std::string> names);

} // namespace fbc::star
