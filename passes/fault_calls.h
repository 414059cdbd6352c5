// The static resolver of fault-builtin calls in a test's AST, shared by the
// axes pass (probability sites) and the trap scan (the syscalls each
// service's filter must trap): what a fault(), fault_start(), fault_all(),
// trace() or trace_start() call targets, read through the root module's
// globals (bound once and frozen after load).
#pragma once

#include "frontend/lib/value.h"
#include "frontend/syntax/ast.h"
#include "ir/spec.h"

#include <string>
#include <vector>

namespace fbc::star {
struct ModuleEnv;
}

namespace fbc::passes {

// The value of a root-module global named by `e` (parentheses skipped), or
// of a name the module's top-level load() bound; null otherwise.
star::Value moduleGlobal(const syntax::Expr *e, const star::ModuleEnv *mod);

// Whether `call` calls the predeclared builtin `name` (not a shadowing
// global or local).
bool isBuiltinCall(const syntax::CallExpr *call, llvm::StringRef name);

// One target of a call: a service global, an interface of one (`svc.main`
// or an interface_ref global: `viaInterface`), a fault_assumption global,
// or nothing known statically.
struct FaultTarget {
  const ir::Service *service = nullptr;
  bool viaInterface = false;
  std::string interface; // the interface's name when viaInterface and known
  std::string assumption;
  bool known() const { return service || !assumption.empty(); }
};

struct FaultCall {
  bool hasTarget = false; // a positional argument was given
  // fault_all: one per element of a list literal (listLiteral); otherwise
  // the one positional target.
  std::vector<FaultTarget> targets;
  bool listLiteral = false;
  // The named arguments other than run= (fault rules: keyword = fault).
  std::vector<const syntax::Argument *> keywords;
  // The positional arguments after the target (proxy rules of
  // fault(svc.iface, error(...), ...)).
  std::vector<const syntax::Expr *> rules;
};

FaultCall resolveFaultCall(const ir::Spec &spec, const syntax::CallExpr &call,
                           const star::ModuleEnv *mod);

} // namespace fbc::passes
