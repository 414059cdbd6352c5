// The fault-call resolver: see fault_calls.h.
#include "passes/fault_calls.h"

#include "frontend/eval/program.h"
#include "ir/builtins/values.h"

#include <llvm/Support/Casting.h>

namespace fbc::passes {

using namespace fbc::syntax;
using llvm::dyn_cast;

star::Value moduleGlobal(const Expr *e, const star::ModuleEnv *mod) {
  while (auto *p = dyn_cast<ParenExpr>(e))
    e = p->x;
  auto *id = dyn_cast<Ident>(e);
  if (!id || !id->binding || !mod)
    return {};
  // A name a top-level load() bound is a file-local, not a global (a cell
  // once a function uses it, a free variable in that function).
  syntax::Scope scope = id->binding->scope;
  if (scope == syntax::Scope::Local || scope == syntax::Scope::Cell || scope == syntax::Scope::Free)
    return mod->loaded(id->binding->first);
  if (id->binding->scope != syntax::Scope::Global)
    return {};
  uint32_t i = id->binding->index;
  if (i < mod->globals.size() && i < mod->names.size() && mod->names[i] == id->name)
    return mod->globals[i];
  return mod->get(id->name);
}

bool isBuiltinCall(const CallExpr *call, llvm::StringRef name) {
  auto *id = dyn_cast<Ident>(call->fn);
  if (!id || id->name != name)
    return false;
  return !id->binding || id->binding->scope == syntax::Scope::Predeclared;
}

namespace {

FaultTarget resolveTarget(const ir::Spec &spec, const Expr *e, const star::ModuleEnv *mod) {
  FaultTarget out;
  while (auto *p = dyn_cast<ParenExpr>(e))
    e = p->x;
  if (auto *d = dyn_cast<DotExpr>(e)) {
    e = d->x;
    out.viaInterface = true;
    out.interface = d->name->name.str();
  }
  star::Value v = moduleGlobal(e, mod);
  if (!v)
    return out;
  if (auto *s = ir::builtins::valueAs<ir::builtins::ServiceValue>(v)) {
    out.service = spec.findService(s->data.name);
  } else if (auto *r = ir::builtins::valueAs<ir::builtins::InterfaceRefValue>(v)) {
    out.service = spec.findService(r->service);
    out.viaInterface = true;
    out.interface = r->iface.name;
  } else if (!out.viaInterface) {
    if (auto *a = ir::builtins::valueAs<ir::builtins::AssumptionValue>(v))
      out.assumption = a->data.name;
  }
  return out;
}

} // namespace

FaultCall resolveFaultCall(const ir::Spec &spec, const CallExpr &call, const star::ModuleEnv *mod) {
  FaultCall out;
  const Expr *target = nullptr;
  for (const Argument &a : call.args) {
    if (a.kind == Argument::Kind::Named && a.name && a.name->name != "run")
      out.keywords.push_back(&a);
    else if (a.kind == Argument::Kind::Positional && !target)
      target = a.value;
    else if (a.kind == Argument::Kind::Positional)
      out.rules.push_back(a.value);
  }
  if (!target)
    return out;
  out.hasTarget = true;
  const Expr *e = target;
  while (auto *p = dyn_cast<ParenExpr>(e))
    e = p->x;
  auto *list = dyn_cast<ListExpr>(e);
  if (list && isBuiltinCall(&call, "fault_all")) {
    out.listLiteral = true;
    for (const Expr *x : list->elems)
      out.targets.push_back(resolveTarget(spec, x, mod));
  } else {
    out.targets.push_back(resolveTarget(spec, target, mod));
  }
  return out;
}

} // namespace fbc::passes
