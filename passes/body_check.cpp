// The body_check pass: the mistakes in a test body that can be known
// without running it, as located errors with the message the run would give
// (plus a "did you mean" where one is close) and a stable code
// (ir/diagnostic_codes.h). `fbc plan` and `fbc check` both report them, so a
// misspelt errno is an error before any service starts, not a FAIL row
// after.
//
// Walked: every test's body (the def, scenario function or test(body=)),
// its setup=, and every function of the same module they name (called, or
// passed as run=, transitively), nested defs and lambdas included. Read:
// literal arguments and the root module's frozen globals, never a local.
//   deny("EIOO")              UNKNOWN_ERRNO
//   delay("500")              BAD_DURATION (missing unit: did you mean "500ms"?)
//   deny(..., probabilty=.5)  UNKNOWN_KEYWORD (deny/delay/allow and the
//                             protocol rules response/error/drop/delay(delay=))
//   probability= / max_fires= / mode=  BAD_PROBABILITY / BAD_MAX_FIRES / BAD_MODE
//   fault(db, wirte=...)      UNKNOWN_SYSCALL (neither a syscall keyword nor an op)
//   fault(db, write="EIO")    BAD_ARGUMENT (a rule must be a fault value)
//   cache.mian                UNKNOWN_INTERFACE (no such interface or field)
//   cache.main.gett()         UNKNOWN_STEP (no such step method for the protocol;
//                             ir/protocols.h, the table the run's clients use)
//   bus.main.publish()        UNSUPPORTED_STEP (a warning: the reference has
//                             it, fbc has no client yet)
//   kv.main.send(dat="x")     UNKNOWN_KEYWORD (a keyword the step does not take)
//   app.get_ordr(...)         UNKNOWN_ATTRIBUTE (no operation of the client()'s contract)
//   trace(db, syscalls=["wirte"])  UNKNOWN_SYSCALL (an element of a literal list
//                             that is no syscall keyword; BAD_ARGUMENT if no string)
// A step call in the test body itself is also the axes pass's (stepSite),
// with the same message: the diagnostics pass keeps one per place and code.
// Nothing is executed: a value is known only when it is a literal or a
// module global bound at load time.
#include "passes/pass_manager.h"

#include "frontend/eval/function.h"
#include "frontend/lib/objects.h"
#include "frontend/syntax/walk.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/client_value.h"
#include "ir/builtins/values.h"
#include "ir/duration.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "ir/syscalls.h"
#include "passes/fault_calls.h"

#include <llvm/Support/Casting.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace fbc::passes {
namespace {

using namespace fbc::syntax;
using ir::DiagCode;
using llvm::dyn_cast;

const Expr *unparen(const Expr *e) {
  while (auto *p = dyn_cast<ParenExpr>(e))
    e = p->x;
  return e;
}

const Argument *keywordArg(const CallExpr *c, llvm::StringRef name) {
  for (const Argument &a : c->args)
    if (a.kind == Argument::Kind::Named && a.name && a.name->name == name)
      return &a;
  return nullptr;
}

std::vector<const Expr *> positionals(const CallExpr *c) {
  std::vector<const Expr *> out;
  for (const Argument &a : c->args)
    if (a.kind == Argument::Kind::Positional)
      out.push_back(a.value);
  return out;
}

bool hasStarArgs(const CallExpr *c) {
  for (const Argument &a : c->args)
    if (a.kind == Argument::Kind::Star || a.kind == Argument::Kind::StarStar)
      return true;
  return false;
}

// A service or one of its interfaces, as a body expression names it.
struct StaticRef {
  const ir::Service *service = nullptr;
  const ir::Interface *iface = nullptr;
};

class BodyChecker {
public:
  BodyChecker(const ir::Spec &spec, std::vector<ir::PlanDiagnostic> &out)
      : spec_(spec), out_(out) {}

  void check(const ir::FunctionRef &ref) {
    const star::ModuleEnv *mod = nullptr;
    const frontend::SourceFile *file = ref.loc.file;
    if (auto *fn = ref.value.as<star::Function>()) {
      mod = fn->module;
      if (fn->code->file)
        file = fn->code->file;
    }
    if (ref.syntax)
      function(ref.syntax, mod, file);
  }

private:
  struct Scope {
    const star::ModuleEnv *mod;
    const frontend::SourceFile *file;
    ir::Loc loc(Pos p) const { return ir::Loc{file, p}; }
  };

  void function(const Function *fn, const star::ModuleEnv *mod, const frontend::SourceFile *file) {
    if (!fn || !done_.insert(fn).second)
      return;
    Scope sc{mod, file};
    std::set<const Expr *> called;
    std::vector<const star::Function *> helpers;
    forEachExpr(fn, [&](const Expr *e) {
      if (auto *c = dyn_cast<CallExpr>(e)) {
        called.insert(unparen(c->fn));
        call(c, sc);
      } else if (auto *d = dyn_cast<DotExpr>(e)) {
        dot(d, called.count(d) > 0, sc);
      } else if (star::Value v = moduleGlobal(e, mod)) {
        // A function of the same module the body calls or hands on
        // (run=, parallel branches): checked as well.
        if (auto *f = v.as<star::Function>(); f && f->module == mod && f->code->syntax)
          helpers.push_back(f);
      }
    });
    for (const star::Function *f : helpers)
      function(f->code->syntax, f->module, f->code->file ? f->code->file : file);
  }

  void error(DiagCode code, std::string message, const ir::Loc &loc) {
    out_.push_back({frontend::Severity::Error, code, std::move(message), loc});
  }

  static std::optional<std::string> stringLit(const Expr *e, const Scope &sc) {
    e = unparen(e);
    if (auto *s = dyn_cast<StringLit>(e))
      return s->value.str();
    if (star::Value v = moduleGlobal(e, sc.mod))
      if (auto *s = v.as<star::String>())
        return std::string(s->view());
    return std::nullopt;
  }

  // What the literal is, for "got <type>" messages ("" when not a literal).
  static std::string literalType(const Expr *e) {
    e = unparen(e);
    if (llvm::isa<StringLit>(e))
      return "string";
    if (llvm::isa<IntLit>(e))
      return "int";
    if (llvm::isa<FloatLit>(e))
      return "float";
    if (llvm::isa<ListExpr>(e))
      return "list";
    if (llvm::isa<DictExpr>(e))
      return "dict";
    return "";
  }

  // ------------------------------------------------------------- calls

  void call(const CallExpr *c, const Scope &sc) {
    if (hasStarArgs(c))
      return; // which arguments is not known
    if (isBuiltinCall(c, "deny"))
      deny(c, sc);
    else if (isBuiltinCall(c, "delay"))
      delay(c, sc);
    else if (isBuiltinCall(c, "allow"))
      keywords(c, "allow", ir::builtins::ruleKeywords(), sc);
    else if (isBuiltinCall(c, "response") || isBuiltinCall(c, "error") || isBuiltinCall(c, "drop"))
      proxyRule(c, llvm::cast<Ident>(c->fn)->name, sc);
    else if (isBuiltinCall(c, "fault") || isBuiltinCall(c, "fault_start") ||
             isBuiltinCall(c, "fault_all"))
      faultCall(c, sc);
    else if (isBuiltinCall(c, "trace") || isBuiltinCall(c, "trace_start"))
      traceCall(c, llvm::cast<Ident>(c->fn)->name.str(), sc);
    else if (auto *d = dyn_cast<DotExpr>(unparen(c->fn)))
      stepCall(c, d, sc);
  }

  // svc.iface.m(kw=...), svc.m(kw=...): a keyword the step does not take,
  // as the run's step clients reject it (ir::stepKeywordMismatch).
  void stepCall(const CallExpr *c, const DotExpr *d, const Scope &sc) {
    StaticRef ref = resolve(d->x, sc);
    if (!ref.service)
      return;
    std::string method = d->name->name.str();
    const ir::Interface *iface = ref.iface;
    if (!iface && !ref.service->findInterface(method)) {
      bool ambiguous = false;
      iface = ir::isPromotedStep(method) ? ir::builtins::defaultInterface(*ref.service, ambiguous)
                                         : nullptr;
    }
    const ir::StepMethod *m = iface ? ir::findStepMethod(iface->protocol, method) : nullptr;
    if (!m)
      return; // not a step, or not one this protocol has (dot() says so)
    std::string what = ref.service->name + "." + iface->name + "." + method;
    for (const Argument &a : c->args)
      if (a.kind == Argument::Kind::Named && a.name)
        if (std::string why = ir::stepKeywordMismatch(*m, what, a.name->name.str()); !why.empty())
          error(DiagCode::UnknownKeyword, std::move(why), sc.loc(a.pos));
  }

  void deny(const CallExpr *c, const Scope &sc) {
    std::vector<const Expr *> pos = positionals(c);
    if (pos.size() == 1) {
      if (auto name = stringLit(pos[0], sc)) {
        if (!ir::findErrno(*name))
          error(DiagCode::UnknownErrno, ir::unknownErrnoMessage(*name), sc.loc(pos[0]->pos));
      } else if (std::string type = literalType(pos[0]); !type.empty()) {
        error(DiagCode::BadArgument, "deny: for parameter 1: got " + type + ", want string",
              sc.loc(pos[0]->pos));
      }
    }
    keywords(c, "deny", ir::builtins::ruleKeywords(), sc);
    knobs(c, "deny", sc);
  }

  void delay(const CallExpr *c, const Scope &sc) {
    std::vector<const Expr *> pos = positionals(c);
    if (pos.empty())
      return proxyRule(c, "delay", sc); // delay(delay=...): the protocol rule
    if (pos.size() == 1)
      duration(pos[0], sc);
    keywords(c, "delay", ir::builtins::ruleKeywords(), sc);
    knobs(c, "delay", sc);
  }

  void duration(const Expr *e, const Scope &sc) {
    std::optional<std::string> text = stringLit(e, sc);
    if (!text)
      return;
    std::optional<std::string> err =
        ir::builtins::durationError(*text, "delay() bad duration " + ir::quote(*text), true);
    if (!err)
      return;
    // "500": a number without its unit; milliseconds is the likely intent.
    std::string ignored;
    if (err->find("missing unit") != std::string::npos && ir::parseDuration(*text + "ms", ignored))
      *err += " (did you mean " + ir::quote(*text + "ms") + "?)";
    error(DiagCode::BadDuration, std::move(*err), sc.loc(e->pos));
  }

  void proxyRule(const CallExpr *c, llvm::StringRef fn, const Scope &sc) {
    keywords(c, fn, ir::builtins::proxyRuleKeywords(), sc);
    if (const Argument *d = keywordArg(c, "delay"))
      duration(d->value, sc);
    knobs(c, fn, sc);
  }

  void keywords(const CallExpr *c, llvm::StringRef fn, llvm::ArrayRef<std::string_view> valid,
                const Scope &sc) {
    for (const Argument &a : c->args) {
      if (a.kind != Argument::Kind::Named || !a.name)
        continue;
      std::string_view k(a.name->name.data(), a.name->name.size());
      if (std::find(valid.begin(), valid.end(), k) != valid.end())
        continue;
      error(DiagCode::UnknownKeyword,
            ir::builtins::unknownKeywordMessage(fn.str() + "():", k, valid), sc.loc(a.pos));
    }
  }

  // probability=, max_fires=, mode= as parseRuleKwargs (ir/builtins/faults.cpp)
  // checks them, when they are literals.
  void knobs(const CallExpr *c, llvm::StringRef fnName, const Scope &sc) {
    std::string fn = fnName.str() + "(): ";
    const Argument *prob = keywordArg(c, "probability");
    const Argument *maxFires = keywordArg(c, "max_fires");
    const Argument *mode = keywordArg(c, "mode");
    std::optional<double> p = 1;
    if (prob)
      p = probability(prob->value, fn, sc);
    if (maxFires) {
      const Expr *v = unparen(maxFires->value);
      ir::Loc at = sc.loc(maxFires->value->pos);
      std::optional<int64_t> n;
      if (auto *i = dyn_cast<IntLit>(v); i && i->bigText.empty())
        n = i->value;
      else if (auto *u = dyn_cast<UnaryExpr>(v); u && u->op == Op::Minus)
        if (auto *i = dyn_cast<IntLit>(unparen(u->x)); i && i->bigText.empty())
          n = -i->value;
      std::string type = literalType(v);
      if (!n && !type.empty() && type != "int")
        error(DiagCode::BadMaxFires, fn + "max_fires must be an integer, got " + type, at);
      else if (n && *n <= 0)
        error(DiagCode::BadMaxFires, fn + "max_fires must be > 0, got " + std::to_string(*n), at);
      else if (p && *p >= 1)
        error(DiagCode::BadMaxFires, fn + "max_fires= is only meaningful with probability < 1", at);
    }
    if (mode) {
      ir::Loc at = sc.loc(mode->value->pos);
      std::optional<std::string> m = stringLit(mode->value, sc);
      if (m && *m != "exhaustive" && *m != "stochastic")
        error(DiagCode::BadMode,
              fn + "mode= must be \"exhaustive\" or \"stochastic\", got " + ir::quote(*m), at);
      else if (m && *m == "stochastic" && maxFires)
        error(DiagCode::BadMode, fn + "max_fires= is incompatible with mode=\"stochastic\"", at);
      else if (m && *m == "exhaustive" && !maxFires)
        error(DiagCode::BadMode, fn + "mode=\"exhaustive\" requires max_fires= > 0", at);
    }
  }

  // A literal probability= as the builtin reads it (values above 1 and "N%"
  // are percentages); a located error when it is out of range or not a
  // number. nullopt: not known statically (or wrong).
  std::optional<double> probability(const Expr *e, const std::string &fn, const Scope &sc) {
    const Expr *v = unparen(e);
    ir::Loc at = sc.loc(e->pos);
    double p = 0;
    bool negative = false;
    if (auto *u = dyn_cast<UnaryExpr>(v); u && u->op == Op::Minus) {
      negative = true;
      v = unparen(u->x);
    }
    std::string shown;
    bool percent = false;
    if (auto *f = dyn_cast<FloatLit>(v)) {
      p = f->value;
      shown = ir::formatNumber(f->value);
      if (shown.find_first_of(".e") == std::string::npos)
        shown += ".0";
    } else if (auto *i = dyn_cast<IntLit>(v); i && i->bigText.empty()) {
      p = double(i->value);
      shown = std::to_string(i->value);
    } else if (auto s = stringLit(v, sc); s && !negative) {
      std::string text = *s;
      percent = !text.empty() && text.back() == '%';
      if (percent)
        text.pop_back();
      char *end = nullptr;
      p = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(p) ||
          text.find_first_of(" \t\n") != std::string::npos) {
        error(DiagCode::BadProbability,
              fn + "probability= must be a number or a percentage like \"30%\", got " +
                  ir::quote(*s),
              at);
        return std::nullopt;
      }
      shown = ir::quote(*s);
    } else {
      return std::nullopt;
    }
    if (negative) {
      p = -p;
      shown = "-" + shown;
    }
    if (percent || p > 1)
      p /= 100;
    if (!(p >= 0 && p <= 1)) {
      error(DiagCode::BadProbability,
            fn + "probability= must be between 0 and 1 (or \"0%\" and \"100%\"), got " + shown, at);
      return std::nullopt;
    }
    return p;
  }

  // fault(svc, kw=rule, ..., run=f), fault_start(svc, ...), fault_all([...], ...):
  // each keyword names a syscall keyword or an op of the service, and a
  // rule is a fault value.
  void faultCall(const CallExpr *c, const Scope &sc) {
    FaultCall call = resolveFaultCall(spec_, *c, sc.mod);
    std::string who = llvm::cast<Ident>(c->fn)->name.str();
    const ir::Service *svc = nullptr;
    for (const FaultTarget &t : call.targets)
      if (t.service && !t.viaInterface && t.assumption.empty()) {
        svc = t.service;
        break;
      }
    for (const Argument *a : call.keywords) {
      std::string key = a->name->name.str();
      if (svc && !svc->findOp(key) && !ir::isSyscallKeyword(key))
        error(DiagCode::UnknownSyscall,
              ir::unknownFaultKeywordMessage(who, key, svc->name, svc->opNames()), sc.loc(a->pos));
      else if (std::string type = literalType(a->value); !type.empty())
        error(DiagCode::BadArgument,
              who + "() " + key + "= must be a fault (delay/deny/allow), got " + type +
                  ". Example: " + key + "=deny(\"ECONNREFUSED\")",
              sc.loc(a->value->pos));
    }
  }

  // trace(svc, syscalls=[...], run=f), trace_start(svc, syscalls=[...]): each
  // element of a literal list is a syscall keyword, as the run checks it.
  void traceCall(const CallExpr *c, const std::string &who, const Scope &sc) {
    const Argument *list = keywordArg(c, "syscalls");
    auto *elems = list ? dyn_cast<ListExpr>(unparen(list->value)) : nullptr;
    if (!elems)
      return;
    for (const Expr *e : elems->elems) {
      if (std::optional<std::string> name = stringLit(e, sc)) {
        if (!ir::isSyscallKeyword(*name))
          error(DiagCode::UnknownSyscall, ir::unknownTraceSyscallMessage(who, *name),
                sc.loc(e->pos));
      } else if (std::string type = literalType(e); !type.empty()) {
        error(DiagCode::BadArgument, who + "() syscalls= element must be a string, got " + type,
              sc.loc(e->pos));
      }
    }
  }

  // ------------------------------------------------------------ attributes

  StaticRef resolve(const Expr *e, const Scope &sc) {
    e = unparen(e);
    if (auto *d = dyn_cast<DotExpr>(e)) {
      StaticRef base = resolve(d->x, sc);
      if (base.service && !base.iface)
        if (const ir::Interface *i = base.service->findInterface(d->name->name))
          return {base.service, i};
      return {};
    }
    star::Value v = moduleGlobal(e, sc.mod);
    if (!v)
      return {};
    if (auto *s = ir::builtins::valueAs<ir::builtins::ServiceValue>(v))
      return {spec_.findService(s->data.name), nullptr};
    if (auto *r = ir::builtins::valueAs<ir::builtins::InterfaceRefValue>(v))
      if (const ir::Service *s = spec_.findService(r->service))
        return {s, s->findInterface(r->iface.name)};
    return {};
  }

  void dot(const DotExpr *d, bool called, const Scope &sc) {
    if (star::Value v = moduleGlobal(unparen(d->x), sc.mod))
      if (auto *c = ir::builtins::valueAs<ir::builtins::ClientValue>(v))
        return clientAttr(*c, d, sc);
    StaticRef ref = resolve(d->x, sc);
    if (!ref.service)
      return;
    std::string name = d->name->name.str();
    std::optional<ir::builtins::AttrMistake> m =
        ref.iface ? ir::builtins::interfaceRefMistake(ref.service->name, *ref.iface, name)
                  : ir::builtins::serviceAttrMistake(*ref.service, name);
    if (!m)
      return;
    if (m->code == DiagCode::UnsupportedStep)
      return out_.push_back(
          {frontend::Severity::Warning, m->code, std::move(m->message), sc.loc(d->name->pos)});
    // svc.get() on a service of several interfaces: which one is the mistake.
    const ir::Service &s = *ref.service;
    bool ambiguous = false;
    ir::builtins::defaultInterface(s, ambiguous);
    if (!ref.iface && called && ambiguous && ir::isPromotedStep(name))
      m->message += " (a step on a service of several interfaces names one: " + s.name + "." +
                    s.interfaces.front().name + "." + name + "(...))";
    error(m->code, std::move(m->message), sc.loc(d->name->pos));
  }

  // app.get_ordr on a client() global: an operation its contract does not
  // have, as the run's ClientValue::attr fails it.
  void clientAttr(const ir::builtins::ClientValue &c, const DotExpr *d, const Scope &sc) {
    std::vector<std::string> names;
    c.attrNames(names);
    std::string name = d->name->name.str();
    if (std::find(names.begin(), names.end(), name) == names.end())
      error(DiagCode::UnknownAttribute, ir::builtins::clientAttrMistake(c, name),
            sc.loc(d->name->pos));
  }

  const ir::Spec &spec_;
  std::vector<ir::PlanDiagnostic> &out_;
  std::set<const Function *> done_;
};

} // namespace

void runBodyCheckPass(const ir::Spec &spec, ir::Plan &plan) {
  plan.bodyFindings.clear();
  BodyChecker checker(spec, plan.bodyFindings);
  for (const ir::Test &t : spec.tests) {
    checker.check(t.body);
    if (t.setup)
      checker.check(*t.setup);
  }
}

} // namespace fbc::passes
