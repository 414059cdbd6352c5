// Method tables of the core types. `x.f(...)` looks the method up here and
// calls it without allocating a bound method; `x.f` alone binds one.
#pragma once

#include "frontend/lib/value.h"

#include <llvm/ADT/ArrayRef.h>

namespace fbc::star {

using MethodFn = Value (*)(Thread &t, Value self, const Args &args);

struct Method {
  const char *name;
  MethodFn fn;
};

// The methods of a core kind, sorted by name (empty for kinds without
// methods). Each table is defined next to its type in frontend/lib/.
llvm::ArrayRef<Method> methodsOf(Kind k);
// Binary search in methodsOf(k); null when absent.
const Method *findMethod(Kind k, std::string_view name);

// Per-kind tables (frontend/lib/<type>.cpp).
llvm::ArrayRef<Method> stringMethods();
llvm::ArrayRef<Method> bytesMethods();
llvm::ArrayRef<Method> listMethods();
llvm::ArrayRef<Method> dictMethods();
llvm::ArrayRef<Method> setMethods();

} // namespace fbc::star
