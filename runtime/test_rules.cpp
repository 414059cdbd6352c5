#include "runtime/test_rules.h"

#include "frontend/eval/function.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/program.h"
#include "frontend/syntax/ast.h"
#include "frontend/syntax/walk.h"
#include "ir/builtins/values.h"
#include "ir/composed_assumptions.h"
#include "ir/syscalls.h"

#include <algorithm>
#include <set>

namespace fbc::rt {
namespace {

// The service's position in Spec::services (its ServiceId), by the spec's
// name index.
std::optional<ServiceId> serviceIndex(const ir::Spec &spec, std::string_view name) {
  const ir::Service *s = spec.findService(name);
  if (!s)
    return std::nullopt;
  return static_cast<ServiceId>(s - spec.services.data());
}

// The rules of one assumption on its target service (op keywords expanded
// to the op's syscalls).
void addAssumptionRules(const ir::Spec &spec, const ir::FaultAssumption &a,
                        std::vector<RuleSpec> &out) {
  if (!a.target.valid())
    return;
  std::optional<ServiceId> id = serviceIndex(spec, a.target.service);
  if (!id)
    return;
  const ir::Service &svc = spec.services[*id];
  for (const ir::FaultRule &fr : a.rules)
    keywordRules(*id, svc, fr.keyword, fr.fault, out);
}

// Every rule the assumption `name` installs, composed ones included.
void addAssumption(const ir::Spec &spec, std::string_view name, std::vector<RuleSpec> &out) {
  for (const ir::FaultAssumption *a : ir::composedAssumptions(spec, name))
    addAssumptionRules(spec, *a, out);
}

// Walks functions' syntax for fault() calls.
class Scanner {
public:
  Scanner(const ir::LoadedSpec &loaded, std::vector<RuleSpec> &out)
      : loaded_(loaded), spec_(loaded.spec()), out_(out) {}

  void function(star::Value v) {
    auto *fn = v.as<star::Function>();
    if (!fn || !fn->code || !fn->code->syntax)
      return;
    if (!visited_.insert(fn->code->syntax).second)
      return;
    module_ = fn->module;
    body(*fn->code->syntax);
  }

private:
  // The value of a global identifier of the root module, or null.
  star::Value globalValue(const syntax::Expr *e) const {
    while (auto *p = llvm::dyn_cast<syntax::ParenExpr>(e))
      e = p->x;
    auto *id = llvm::dyn_cast<syntax::Ident>(e);
    if (!id || !id->binding || id->binding->scope != syntax::Scope::Global || !module_)
      return star::Value();
    if (id->binding->index < module_->globals.size())
      return module_->globals[id->binding->index];
    return star::Value();
  }

  void widenKeywords(const std::vector<std::string> &keywords) {
    for (size_t s = 0; s < spec_.services.size(); ++s)
      serviceKeywords(static_cast<ServiceId>(s), keywords);
  }

  void serviceKeywords(ServiceId id, const std::vector<std::string> &keywords) {
    const ir::Service &svc = spec_.services[id];
    for (const std::string &k : keywords) {
      if (const ir::Op *op = svc.findOp(k)) {
        for (const std::string &sc : op->syscalls) {
          RuleSpec r;
          r.target = id;
          r.syscall = sc;
          out_.push_back(std::move(r));
        }
      } else if (ir::isSyscallKeyword(k)) {
        RuleSpec r;
        r.target = id;
        r.syscall = k;
        out_.push_back(std::move(r));
      }
    }
  }

  // The service a root-module global names, if `e` is one.
  std::optional<ServiceId> serviceOf(const syntax::Expr *e) const {
    star::Value v = e ? globalValue(e) : star::Value();
    auto *svc = v ? ir::builtins::valueAs<ir::builtins::ServiceValue>(v) : nullptr;
    return svc ? serviceIndex(spec_, svc->data.name) : std::nullopt;
  }

  // A fault builtin call's first positional argument (null if none) and its
  // keywords other than run=.
  static std::pair<const syntax::Expr *, std::vector<std::string>>
  targetAndKeywords(const syntax::CallExpr &call) {
    const syntax::Expr *target = nullptr;
    std::vector<std::string> keywords;
    for (const syntax::Argument &a : call.args) {
      if (a.kind == syntax::Argument::Kind::Named && a.name && a.name->name != "run")
        keywords.push_back(a.name->name.str());
      else if (a.kind == syntax::Argument::Kind::Positional && !target)
        target = a.value;
    }
    return {target, std::move(keywords)};
  }

  void faultCall(const syntax::CallExpr &call) {
    auto [target, keywords] = targetAndKeywords(call);
    if (std::optional<ServiceId> id = serviceOf(target)) {
      serviceKeywords(*id, keywords);
      return;
    }
    star::Value v = target ? globalValue(target) : star::Value();
    if (auto *a = v ? ir::builtins::valueAs<ir::builtins::AssumptionValue>(v) : nullptr) {
      addAssumption(spec_, a->data.name, out_);
      return;
    }
    // Not statically known: every service may be the target, and the
    // target may be any assumption.
    widenKeywords(keywords);
    if (keywords.empty())
      for (const ir::FaultAssumption &a : spec_.assumptions)
        addAssumption(spec_, a.name, out_);
  }

  // fault_all([a, b], **keywords): the keywords on each listed service; a
  // list that is not literal, or an element that is not a service global,
  // widens to every service.
  void faultAllCall(const syntax::CallExpr &call) {
    auto [target, keywords] = targetAndKeywords(call);
    auto *list = llvm::dyn_cast_or_null<syntax::ListExpr>(target);
    std::vector<ServiceId> ids;
    for (const syntax::Expr *e : list ? list->elems : llvm::ArrayRef<syntax::Expr *>{}) {
      std::optional<ServiceId> id = serviceOf(e);
      if (!id)
        break;
      ids.push_back(*id);
    }
    if (!list || ids.size() != list->elems.size()) {
      widenKeywords(keywords);
      return;
    }
    for (ServiceId id : ids)
      serviceKeywords(id, keywords);
  }

  // trace(svc, syscalls=["write", ...]) / trace_start(...): the listed
  // syscalls on the service (widened to every service when the target is
  // not a service global). A list that is not literal cannot be seen; the
  // run then says which syscall is not intercepted.
  void traceCall(const syntax::CallExpr &call) {
    const syntax::Expr *target = targetAndKeywords(call).first;
    std::vector<std::string> syscalls;
    for (const syntax::Argument &a : call.args)
      if (a.kind == syntax::Argument::Kind::Named && a.name && a.name->name == "syscalls")
        if (auto *list = llvm::dyn_cast<syntax::ListExpr>(a.value))
          for (const syntax::Expr *e : list->elems)
            if (auto *lit = llvm::dyn_cast<syntax::StringLit>(e))
              syscalls.push_back(lit->value.str());
    if (std::optional<ServiceId> id = serviceOf(target))
      serviceKeywords(*id, syscalls);
    else
      widenKeywords(syscalls);
  }

  // Every fault() / fault_start() / fault_all() / trace() / trace_start()
  // call, and every root-file function named
  // anywhere (called or passed as run=), which is then reachable too.
  void body(const syntax::Function &fn) {
    syntax::forEachExpr(&fn, [&](const syntax::Expr *e) {
      if (auto *c = llvm::dyn_cast<syntax::CallExpr>(e)) {
        auto *id = llvm::dyn_cast<syntax::Ident>(c->fn);
        if (!id || !id->binding || id->binding->scope != syntax::Scope::Predeclared)
          return;
        if (id->name == "fault" || id->name == "fault_start")
          faultCall(*c);
        else if (id->name == "fault_all")
          faultAllCall(*c);
        else if (id->name == "trace" || id->name == "trace_start")
          traceCall(*c);
      } else if (llvm::isa<syntax::Ident>(e)) {
        if (star::Value v = globalValue(e); v && v.as<star::Function>())
          pending_.push_back(v);
      }
    });
  }

public:
  void drain() {
    while (!pending_.empty()) {
      star::Value v = pending_.back();
      pending_.pop_back();
      function(v);
    }
  }

private:
  const ir::LoadedSpec &loaded_;
  const ir::Spec &spec_;
  std::vector<RuleSpec> &out_;
  star::ModuleEnv *module_ = nullptr;
  std::set<const syntax::Function *> visited_;
  std::vector<star::Value> pending_;
};

} // namespace

void applyFault(const ir::Fault &f, RuleSpec &r) {
  switch (f.action) {
  case ir::FaultAction::Deny: {
    const ir::ErrnoInfo *e = ir::findErrno(f.errnoName);
    r.action = Action::deny(e ? e->number : 5);
    break;
  }
  case ir::FaultAction::Delay:
    r.action = Action::delay(f.delayNs);
    break;
  case ir::FaultAction::Allow:
    r.action = Action::allow();
    break;
  }
  r.probability = f.probability;
  if (f.maxFires > 0 && f.probability < 1 && f.mode != ir::FaultMode::Stochastic)
    r.leafBits = static_cast<uint64_t>(f.maxFires);
  r.label = f.label;
  if (!f.path.empty())
    r.pathGlob = f.path;
}

void keywordRules(ServiceId target, const ir::Service &svc, const std::string &keyword,
                  const ir::Fault &f, std::vector<RuleSpec> &out) {
  const ir::Op *op = svc.findOp(keyword);
  std::vector<std::string> one{keyword};
  for (const std::string &sc : op ? op->syscalls : one) {
    RuleSpec r;
    r.target = target;
    r.syscall = sc;
    applyFault(f, r);
    r.siteKey = r.label.empty() ? svc.name + ":" + keyword : r.label;
    if (op) {
      if (f.path.empty())
        r.pathGlob = op->path;
      if (r.label.empty())
        r.label = keyword;
    }
    out.push_back(std::move(r));
  }
}

void assumptionRules(const ir::Spec &spec, const std::string &name, std::vector<RuleSpec> &out) {
  addAssumption(spec, name, out);
}

std::vector<RuleSpec> potentialRules(const ir::LoadedSpec &loaded, const ir::Test &t) {
  const ir::Spec &spec = loaded.spec();
  std::vector<RuleSpec> out;
  for (const std::string &a : t.faults)
    assumptionRules(spec, a, out);
  Scanner scan(loaded, out);
  if (t.body.value)
    scan.function(t.body.value);
  if (t.setup && t.setup->value)
    scan.function(t.setup->value);
  if (t.expect && t.expect->kind == ir::ExpectKind::Function && t.expect->fn.value)
    scan.function(t.expect->fn.value);
  scan.drain();
  return out;
}

} // namespace fbc::rt
