// Static name resolution: binds every identifier to a local / cell / free /
// global / predeclared / universal slot, allocates slots per function, and
// enforces the dialect ("cannot reassign global x declared at f:3:1",
// "for loop not within a function", ...). Reports every error it finds.
#pragma once

#include "frontend/source/diagnostic.h"
#include "frontend/syntax/ast.h"
#include "frontend/syntax/dialect.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <vector>

namespace fbc::resolve {

struct Environment {
  // Names the embedder predeclares (spec builtins), and the universe.
  llvm::function_ref<bool(llvm::StringRef)> isPredeclared;
  llvm::function_ref<bool(llvm::StringRef)> isUniversal;
  // Optional: appends every predeclared and universal name, the further
  // candidates of "undefined: x (did you mean y?)" (Go's resolver cannot
  // enumerate them, so it suggests only the file's own names).
  llvm::function_ref<void(std::vector<llvm::StringRef> &)> allPredeclared = nullptr;
};

// Returns false if any error was reported.
bool resolveFile(syntax::AstContext &ctx, syntax::File &file, const syntax::Dialect &dialect,
                 const Environment &env, frontend::DiagnosticList &diags);

} // namespace fbc::resolve
