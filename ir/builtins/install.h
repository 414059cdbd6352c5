// Binds the spec builtins into an interpreter before a spec runs.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <string_view>

namespace fbc::star {
class Interpreter;
}

namespace fbc::ir::builtins {

class SpecBuilder;

// Predeclares the load-time builtins (service, fault_assumption, ...), the
// body-time names (fault, parallel, assert_eq, ...) that fail when called
// at load time, and `struct`; the builder becomes Thread::userData.
void installSpecBuiltins(star::Interpreter &interp, SpecBuilder &builder);

// The names, sorted (for docs and tests).
llvm::ArrayRef<std::string_view> loadTimeBuiltinNames();
llvm::ArrayRef<std::string_view> bodyTimeBuiltinNames();

} // namespace fbc::ir::builtins
