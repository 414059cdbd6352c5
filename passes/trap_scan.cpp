// The trap scan: see trap_scan.h.
#include "passes/trap_scan.h"

#include "frontend/eval/function.h"
#include "frontend/eval/program.h"
#include "frontend/lib/objects.h"
#include "frontend/syntax/walk.h"
#include "ir/builtins/surface.h"
#include "ir/composed_assumptions.h"
#include "ir/fanout_sites.h"
#include "ir/host_needs.h"
#include "ir/protocols.h"
#include "ir/syscalls.h"
#include "passes/fault_calls.h"

#include <llvm/Support/Casting.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace fbc::passes {
namespace {

using namespace fbc::syntax;

class Scanner {
public:
  explicit Scanner(const ir::Spec &spec, std::span<const ChoiceSite> choices = {})
      : spec_(spec), sets_(spec.services.size()), proxies_(spec.services.size()),
        choices_(choices) {}

  // An option of a planned choose() list, left out of this scan: scanned on
  // its own for the leaves that take it.
  struct Option {
    size_t axis;
    uint64_t option;
    const Expr *expr;
    const star::ModuleEnv *module;
    const frontend::SourceFile *file;
  };
  const std::vector<Option> &options() const { return options_; }

  void function(star::Value v) {
    auto *fn = v.as<star::Function>();
    if (!fn || !fn->code || !fn->code->syntax)
      return;
    if (!visited_.insert(fn->code->syntax).second)
      return;
    module_ = fn->module;
    file_ = fn->code->file;
    forEachExpr(fn->code->syntax, [&](const Expr *e) { visit(e); });
  }

  void option(const Option &o) {
    module_ = o.module;
    file_ = o.file;
    forEachExpr(o.expr, [&](const Expr *e) { visit(e); });
  }

  void drain() {
    while (!pending_.empty()) {
      star::Value v = pending_.back();
      pending_.pop_back();
      function(v);
    }
  }

  // Every rule the assumption `name` installs, composed ones included; op
  // keywords stand for the op's syscalls.
  void assumption(std::string_view name) {
    for (const ir::FaultAssumption *a : ir::composedAssumptions(spec_, name)) {
      const ir::Service *svc = a->target.valid() ? spec_.findService(a->target.service) : nullptr;
      if (!svc)
        continue;
      if (!a->proxyRules.empty())
        proxy(*svc, a->target.interface);
      for (const ir::PacketRule &r : a->packetRules)
        if (const ir::HostNeed *n = ir::callNeed(r.builtin))
          need(*n, r.loc);
      const ir::Interface *iface = svc->findInterface(a->target.interface);
      for (const ir::ProxyRule &r : a->proxyRules) {
        if (const ir::HostNeed *n = ir::callNeed(ir::proxyActionName(r.action)))
          need(*n, r.loc);
        if (iface)
          if (std::optional<ir::HostNeed> n = ir::proxyRuleNeed(r, svc->name, *iface))
            need(*n, r.loc);
      }
      for (const ir::FaultRule &r : a->rules) {
        if (const ir::Op *op = svc->findOp(r.keyword))
          for (const std::string &sc : op->syscalls)
            add(*svc, sc);
        else
          add(*svc, r.keyword);
      }
    }
  }

  const std::vector<ir::HostNeed> &needs() const { return needs_; }
  bool callsParallel() const { return parallel_; }
  const std::vector<bool> &nondet() const { return nondet_; }

  // nondet(svc, ...): the services it names by a global (a computed
  // argument names none; the run warns about it).
  void nondetCall(const CallExpr &c) {
    for (const Argument &a : c.args)
      if (a.kind == Argument::Kind::Positional)
        if (star::Value v = moduleGlobal(a.value, module_))
          if (auto *s = ir::builtins::valueAs<ir::builtins::ServiceValue>(v))
            if (const ir::Service *svc = spec_.findService(s->data.name))
              nondet_[size_t(svc - spec_.services.data())] = true;
  }
  const std::set<std::string> &faulted() const { return faulted_; }

  // Call keyword sites ordered by where they are written (TrapScan::callKeywords).
  struct WrittenOrder {
    bool operator()(const TrapScan::CallKeyword &a, const TrapScan::CallKeyword &b) const {
      return std::tie(a.at.file->path(), a.at.pos.line, a.at.pos.col, a.service, a.keyword) <
             std::tie(b.at.file->path(), b.at.pos.line, b.at.pos.col, b.service, b.keyword);
    }
  };
  using CallKeywords = std::set<TrapScan::CallKeyword, WrittenOrder>;
  const CallKeywords &callKeywords() const { return callKeywords_; }

  std::vector<std::vector<std::string>> result(bool proxies) const {
    std::vector<std::vector<std::string>> out;
    for (const std::set<std::string> &s : proxies ? proxies_ : sets_)
      out.emplace_back(s.begin(), s.end());
    return out;
  }

private:
  void need(const ir::HostNeed &n, ir::Loc loc) {
    if (std::find(needs_.begin(), needs_.end(), n) != needs_.end())
      return;
    needs_.push_back(n);
    needs_.back().loc = loc;
  }

  // A call of a builtin that needs something of the machine.
  void neededCall(const CallExpr &c) {
    auto *id = llvm::dyn_cast<Ident>(c.fn);
    if (!id || !isBuiltinCall(&c, id->name))
      return;
    if (const ir::HostNeed *n = ir::callNeed(id->name))
      need(*n, ir::Loc{file_, id->pos});
  }

  // A proxy in front of interface `iface` of `svc` ("" : every interface).
  void proxy(const ir::Service &svc, const std::string &iface) {
    std::set<std::string> &set = proxies_[size_t(&svc - spec_.services.data())];
    if (svc.findInterface(iface))
      set.insert(iface);
    else
      for (const ir::Interface &i : svc.interfaces)
        set.insert(i.name);
  }

  void add(const ir::Service &svc, const std::string &syscall) {
    sets_[size_t(&svc - spec_.services.data())].insert(syscall);
  }

  // A fault()'s keywords on `svc`: a named op gives its syscalls, a syscall
  // keyword itself (anything else fails when the call runs). `at`: the
  // fault call's '(' (a site of its keywords), invalid for trace()'s.
  void keywords(const ir::Service &svc, const std::vector<std::string> &keywords,
                const ir::Loc &at = {}) {
    for (const std::string &k : keywords) {
      const ir::Op *op = svc.findOp(k);
      if (op) {
        for (const std::string &sc : op->syscalls)
          add(svc, sc);
      } else if (ir::isSyscallKeyword(k)) {
        add(svc, k);
      }
      if (at.valid() && (op || ir::isSyscallKeyword(k)))
        callKeywords_.insert({at, size_t(&svc - spec_.services.data()), k});
    }
  }

  void widen(const std::vector<std::string> &kws, const ir::Loc &at = {}) {
    for (const ir::Service &svc : spec_.services)
      keywords(svc, kws, at);
  }

  static std::vector<std::string> names(const FaultCall &c) {
    std::vector<std::string> out;
    for (const Argument *a : c.keywords)
      out.push_back(a->name->name.str());
    return out;
  }

  static bool direct(const FaultTarget &t) { return t.service && !t.viaInterface; }

  void faultCall(const CallExpr &call) {
    FaultCall c = resolveFaultCall(spec_, call, module_);
    std::vector<std::string> kws = names(c);
    ir::Loc at{file_, call.lparen};
    const FaultTarget *t = c.targets.empty() ? nullptr : &c.targets.front();
    // A packet rule held in a global (the calls themselves are found by
    // visit()).
    for (const Expr *r : c.rules)
      if (star::Value v = moduleGlobal(r, module_))
        if (auto *p = ir::builtins::valueAs<ir::builtins::PacketRuleValue>(v))
          if (const ir::HostNeed *n = ir::callNeed(p->data.builtin))
            need(*n, p->data.loc);
    if (!c.rules.empty()) {
      // fault(svc.iface, error(...), ...): protocol rules, through a proxy
      // (every interface when the target is not statically known).
      if (t && t->service && t->viaInterface) {
        faulted_.insert(t->service->name);
        return proxy(*t->service, t->interface);
      }
      for (const ir::Service &svc : spec_.services)
        proxy(svc, "");
      return;
    }
    if (t && direct(*t)) {
      if (!kws.empty())
        faulted_.insert(t->service->name);
      return keywords(*t->service, kws, at);
    }
    if (t && !t->assumption.empty()) {
      for (const ir::FaultAssumption *a : ir::composedAssumptions(spec_, t->assumption))
        if (a->target.valid() && spec_.findService(a->target.service))
          faulted_.insert(a->target.service);
      return assumption(t->assumption);
    }
    // Not statically known: every service may be the target, and the
    // target may be any assumption.
    widen(kws, at);
    if (kws.empty())
      for (const ir::FaultAssumption &a : spec_.assumptions)
        assumption(a.name);
  }

  // fault_all([a, b], **keywords): the keywords on each listed service; a
  // list that is not literal, or an element that is not a service global,
  // widens to every service.
  void faultAllCall(const CallExpr &call) {
    FaultCall c = resolveFaultCall(spec_, call, module_);
    std::vector<std::string> kws = names(c);
    ir::Loc at{file_, call.lparen};
    bool all = c.listLiteral;
    for (const FaultTarget &t : c.targets)
      all = all && direct(t);
    if (!all)
      return widen(kws, at);
    for (const FaultTarget &t : c.targets) {
      if (!kws.empty())
        faulted_.insert(t.service->name);
      keywords(*t.service, kws, at);
    }
  }

  // trace(svc, syscalls=["write", ...]) / trace_start(...): the listed
  // syscalls on the service (widened to every service when the target is
  // not a service global). A list that is not literal cannot be seen; the
  // run then says which syscall is not intercepted.
  void traceCall(const CallExpr &call) {
    FaultCall c = resolveFaultCall(spec_, call, module_);
    std::vector<std::string> syscalls;
    for (const Argument *a : c.keywords)
      if (a->name->name == "syscalls")
        if (auto *list = llvm::dyn_cast<ListExpr>(a->value))
          for (const Expr *e : list->elems)
            if (auto *lit = llvm::dyn_cast<StringLit>(e))
              syscalls.push_back(lit->value.str());
    if (!c.targets.empty() && direct(c.targets.front()))
      keywords(*c.targets.front().service, syscalls);
    else
      widen(syscalls);
  }

  // A planned choose("name", [o0, o1, ...]) at a site of axis `axis`: its
  // options are scanned apart (options_), not here.
  bool plannedChoice(const CallExpr &c) {
    if (!isBuiltinCall(&c, "choose") || c.args.size() != 2 || !file_)
      return false;
    const Expr *opts = c.args[1].value;
    while (auto *p = llvm::dyn_cast<ParenExpr>(opts))
      opts = p->x;
    auto *list = llvm::dyn_cast<ListExpr>(opts);
    if (!list)
      return false;
    for (const ChoiceSite &site : choices_) {
      if (site.loc.file != file_ || site.loc.pos.line != c.lparen.line ||
          site.loc.pos.col != c.lparen.col || site.options != list->elems.size())
        continue;
      for (size_t k = 0; k < list->elems.size(); ++k) {
        forEachExpr(list->elems[k], [&](const Expr *e) { skip_.insert(e); });
        options_.push_back({site.axis, k, list->elems[k], module_, file_});
      }
      return true;
    }
    return false;
  }

  // Every fault builtin call, and every root-file function named anywhere
  // (called or passed as run=), which is then reachable too.
  void visit(const Expr *e) {
    if (skip_.count(e))
      return;
    if (auto *c = llvm::dyn_cast<CallExpr>(e)) {
      neededCall(*c);
      for (const char *fan : ir::kFanOutBuiltins)
        if (isBuiltinCall(c, fan))
          parallel_ = true;
      if (isBuiltinCall(c, "nondet"))
        nondetCall(*c);
      if (isBuiltinCall(c, "fault") || isBuiltinCall(c, "fault_start"))
        faultCall(*c);
      else if (isBuiltinCall(c, "fault_all"))
        faultAllCall(*c);
      else if (isBuiltinCall(c, "trace") || isBuiltinCall(c, "trace_start"))
        traceCall(*c);
      else
        plannedChoice(*c);
    } else if (llvm::isa<Ident>(e)) {
      if (star::Value v = moduleGlobal(e, module_); v && v.as<star::Function>())
        pending_.push_back(v);
    }
  }

  const ir::Spec &spec_;
  std::vector<std::set<std::string>> sets_;
  std::vector<std::set<std::string>> proxies_; // interface names per service
  std::span<const ChoiceSite> choices_;
  const star::ModuleEnv *module_ = nullptr;
  const frontend::SourceFile *file_ = nullptr;
  std::set<const Expr *> skip_;
  std::vector<Option> options_;
  std::set<const syntax::Function *> visited_;
  std::vector<star::Value> pending_;
  std::vector<ir::HostNeed> needs_;
  bool parallel_ = false;
  std::vector<bool> nondet_ = std::vector<bool>(spec_.services.size(), false);
  std::set<std::string> faulted_; // service names, statically known targets only
  CallKeywords callKeywords_;
};

} // namespace

TrapScan scanTraps(const ir::Spec &spec, const ir::Test &t, std::span<const ChoiceSite> choices) {
  Scanner scan(spec, choices);
  for (const std::string &a : t.faults)
    scan.assumption(a);
  if (t.body.value)
    scan.function(t.body.value);
  if (t.setup && t.setup->value)
    scan.function(t.setup->value);
  if (t.expect && t.expect->kind == ir::ExpectKind::Function && t.expect->fn.value)
    scan.function(t.expect->fn.value);
  scan.drain();
  TrapScan out;
  out.all = scan.result(/*proxies=*/false);
  std::vector<std::set<std::string>> proxies(spec.services.size());
  auto addProxies = [&](const Scanner &sc) {
    std::vector<std::vector<std::string>> p = sc.result(/*proxies=*/true);
    for (size_t s = 0; s < p.size(); ++s)
      proxies[s].insert(p[s].begin(), p[s].end());
  };
  addProxies(scan);
  out.needs = scan.needs();
  out.parallel = scan.callsParallel();
  out.nondet = scan.nondet();
  std::set<std::string> faulted = scan.faulted();
  Scanner::CallKeywords callKeywords = scan.callKeywords();
  for (const Scanner::Option &o : scan.options()) {
    Scanner one(spec);
    one.option(o);
    one.drain();
    for (const ir::HostNeed &n : one.needs())
      if (std::find(out.needs.begin(), out.needs.end(), n) == out.needs.end())
        out.needs.push_back(n);
    out.options.push_back({o.axis, o.option, one.result(/*proxies=*/false)});
    faulted.insert(one.faulted().begin(), one.faulted().end());
    callKeywords.insert(one.callKeywords().begin(), one.callKeywords().end());
    addProxies(one);
  }
  out.callKeywords.assign(callKeywords.begin(), callKeywords.end());
  for (const std::set<std::string> &p : proxies)
    out.proxies.emplace_back(p.begin(), p.end());
  out.faulted.assign(faulted.begin(), faulted.end());
  return out;
}

} // namespace fbc::passes
