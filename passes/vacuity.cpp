// Vacuity findings: see vacuity.h.
#include "passes/vacuity.h"

#include "frontend/eval/function.h"
#include "frontend/syntax/walk.h"
#include "ir/quote.h"
#include "passes/fault_calls.h"

#include <llvm/Support/Casting.h>

#include <map>
#include <set>

namespace fbc::passes {
namespace {

using namespace fbc::syntax;
using llvm::dyn_cast;

// A function body as the walk sees it: its syntax and the module its
// global names resolve in.
struct Fn {
  const Function *syntax = nullptr;
  const star::ModuleEnv *mod = nullptr;
};

Fn fnOf(const ir::FunctionRef &ref) {
  if (auto *f = ref.value.as<star::Function>())
    return {f->code->syntax, f->module};
  return {ref.syntax, nullptr};
}

// The name a call is made by: `assert_eq` in assert_eq(...), `check` in
// helpers.check(...).
llvm::StringRef calleeName(const CallExpr *c) {
  const Expr *fn = c->fn;
  while (auto *p = dyn_cast<ParenExpr>(fn))
    fn = p->x;
  if (auto *id = dyn_cast<Ident>(fn))
    return id->name;
  if (auto *d = dyn_cast<DotExpr>(fn))
    return d->name->name;
  return "";
}

bool isAssertion(llvm::StringRef name) {
  return name.startswith("assert") || name.startswith("expect_") || name == "fail" ||
         name == "always" || name == "eventually" || name == "never";
}

bool isFaultCall(const CallExpr *c) {
  return isBuiltinCall(c, "fault") || isBuiltinCall(c, "fault_start") ||
         isBuiltinCall(c, "fault_all");
}

// What a function and everything it reaches does, memoised per function.
struct Reach {
  std::set<const Function *> functions; // itself included
  bool asserts = false;
  bool faults = false;
};

class Walker {
public:
  const Reach &reach(Fn fn) {
    auto it = memo_.find(fn.syntax);
    if (it != memo_.end())
      return it->second;
    Reach &r = memo_[fn.syntax];
    if (!fn.syntax)
      return r;
    r.functions.insert(fn.syntax);
    std::vector<Fn> named;
    forEachExpr(fn.syntax, [&](const Expr *e) {
      if (auto *c = dyn_cast<CallExpr>(e)) {
        r.asserts = r.asserts || isAssertion(calleeName(c));
        r.faults = r.faults || isFaultCall(c);
      } else if (star::Value v = moduleGlobal(e, fn.mod)) {
        if (auto *f = v.as<star::Function>(); f && f->code->syntax)
          named.push_back({f->code->syntax, f->module});
      }
    });
    // Recursion between module functions: the entry above stops it.
    for (Fn g : named) {
      Reach sub = reach(g);
      Reach &self = memo_[fn.syntax];
      self.functions.insert(sub.functions.begin(), sub.functions.end());
      self.asserts = self.asserts || sub.asserts;
      self.faults = self.faults || sub.faults;
    }
    return memo_[fn.syntax];
  }

  // The module functions a fault(..., run=X) callback runs: X itself when
  // it is one, else those X's body names (a lambda's).
  void scenarioOf(Fn fn, std::set<const Function *> &out) {
    if (!fn.syntax)
      return;
    forEachExpr(fn.syntax, [&](const Expr *e) {
      auto *c = dyn_cast<CallExpr>(e);
      if (!c || !isFaultCall(c))
        return;
      const Argument *run = nullptr;
      for (const Argument &a : c->args)
        if (a.kind == Argument::Kind::Named && a.name && a.name->name == "run")
          run = &a;
      const Expr *body = run ? run->value : nullptr;
      while (body && llvm::isa<ParenExpr>(body))
        body = llvm::cast<ParenExpr>(body)->x;
      if (!body)
        return namedFunctions(fn, out); // fault_start(): the body's own calls
      if (star::Value v = moduleGlobal(body, fn.mod))
        if (auto *f = v.as<star::Function>(); f && f->code->syntax)
          return (void)out.insert(f->code->syntax);
      forEachExpr(body, [&](const Expr *x) {
        if (star::Value v = moduleGlobal(x, fn.mod))
          if (auto *f = v.as<star::Function>(); f && f->code->syntax)
            out.insert(f->code->syntax);
      });
    });
  }

private:
  void namedFunctions(Fn fn, std::set<const Function *> &out) {
    forEachExpr(fn.syntax, [&](const Expr *x) {
      if (star::Value v = moduleGlobal(x, fn.mod))
        if (auto *f = v.as<star::Function>(); f && f->code->syntax)
          out.insert(f->code->syntax);
    });
  }

  std::map<const Function *, Reach> memo_;
};

bool setsExpectation(const ir::Test &t) {
  return t.expect || t.temporal || t.requireFaultsFire;
}

} // namespace

std::vector<ir::PlanDiagnostic> vacuityFindings(const ir::Spec &spec) {
  Walker w;
  std::vector<ir::PlanDiagnostic> out;
  auto warn = [&](ir::DiagCode code, std::string msg, const ir::Loc &loc) {
    out.push_back({frontend::Severity::Warning, code, std::move(msg), loc});
  };

  // What the tests without faults run: the positive controls.
  std::set<const Function *> unfaulted;
  std::vector<bool> faulted(spec.tests.size());
  for (size_t i = 0; i < spec.tests.size(); ++i) {
    const ir::Test &t = spec.tests[i];
    const Reach &r = w.reach(fnOf(t.body));
    bool assumes = (t.kind == ir::TestKind::FaultScenario || t.kind == ir::TestKind::FaultMatrix) &&
                   !t.faults.empty();
    faulted[i] = assumes || r.faults;
    if (!faulted[i])
      unfaulted.insert(r.functions.begin(), r.functions.end());
  }

  std::set<std::string> reported; // a matrix row: once per scenario
  for (size_t i = 0; i < spec.tests.size(); ++i) {
    const ir::Test &t = spec.tests[i];
    Fn body = fnOf(t.body);
    const Reach &r = w.reach(body);
    bool asserts = r.asserts || setsExpectation(t);
    if (t.setup)
      asserts = asserts || w.reach(fnOf(*t.setup)).asserts;
    std::string name = t.planName();
    if (!asserts && reported.insert("A" + name).second)
      warn(ir::DiagCode::TestNoAssertions,
           name + " asserts nothing and sets no expectation: it can only pass", t.loc);
    if (!faulted[i])
      continue;
    std::set<const Function *> scenario;
    bool assumes = t.kind == ir::TestKind::FaultScenario || t.kind == ir::TestKind::FaultMatrix;
    if (assumes && !t.faults.empty())
      scenario.insert(body.syntax);
    else
      w.scenarioOf(body, scenario);
    bool controlled = false;
    for (const Function *f : scenario)
      controlled = controlled || unfaulted.count(f) > 0;
    if (controlled || !reported.insert("P" + name).second)
      continue;
    std::string what = assumes && !t.faults.empty() ? "its scenario " + ir::quote(t.body.name)
                       : scenario.empty() ? std::string("its faulted steps (written inline)")
                                          : std::string("the functions its fault() runs");
    warn(ir::DiagCode::NoPositiveControl,
         name + " is a fault test, but no test runs " + what +
             " without faults: a pass says nothing about the fault",
         t.loc);
  }
  return out;
}

} // namespace fbc::passes
