// The body half of the axes pass: walks a test body's AST (nested defs and
// lambdas included) for its fan-out sites: choose(), fault*() probability
// sites, parallel(interleavings=), steps a protocol lacks, declarations and
// gateway calls the run refuses, and helpers that reach a named choose().
#include "passes/axes_sites.h"

#include "frontend/eval/function.h"
#include "frontend/eval/program.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/syntax/walk.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/surface.h"
#include "ir/builtins/values.h"
#include "ir/composed_assumptions.h"
#include "ir/fanout_sites.h"
#include "ir/gateway_calls.h"
#include "ir/protocols.h"
#include "passes/fault_calls.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Support/Casting.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace fbc::passes::axes {
namespace {

using llvm::dyn_cast;
using llvm::isa;
using namespace fbc::syntax;

} // namespace

struct BodyScanner::State {
  explicit State(const ir::Spec &spec) : spec_(spec) {}

  struct Scope {
    const star::ModuleEnv *mod;
    const frontend::SourceFile *file;
    ir::Loc loc(Pos p) const { return ir::Loc{file, p}; }
  };

  static star::Value global(const Expr *e, const Scope &sc) { return moduleGlobal(e, sc.mod); }

  static std::optional<std::string> stringConst(const Expr *e, const Scope &sc) {
    while (auto *p = dyn_cast<ParenExpr>(e))
      e = p->x;
    if (auto *s = dyn_cast<StringLit>(e))
      return s->value.str();
    if (star::Value v = global(e, sc))
      if (auto *s = v.as<star::String>())
        return std::string(s->view());
    return std::nullopt;
  }

  static std::optional<int64_t> intConst(const Expr *e, const Scope &sc) {
    while (auto *p = dyn_cast<ParenExpr>(e))
      e = p->x;
    if (auto *i = dyn_cast<IntLit>(e))
      return i->bigText.empty() ? std::optional<int64_t>(i->value) : std::nullopt;
    if (auto *u = dyn_cast<UnaryExpr>(e))
      if (u->op == syntax::Op::Minus)
        if (auto v = intConst(u->x, sc))
          return -*v;
    if (star::Value v = global(e, sc))
      if (v.isSmallInt())
        return v.smallInt();
    return std::nullopt;
  }

  // probability= as the fault builtins read it (values above 1 and "N%"
  // are percentages).
  static std::optional<double> probabilityConst(const Expr *e, const Scope &sc) {
    while (auto *p = dyn_cast<ParenExpr>(e))
      e = p->x;
    double p = 0;
    bool percent = false;
    if (auto *f = dyn_cast<FloatLit>(e)) {
      p = f->value;
    } else if (auto i = intConst(e, sc)) {
      p = double(*i);
    } else if (auto s = stringConst(e, sc)) {
      std::string text = *s;
      if (!text.empty() && text.back() == '%') {
        percent = true;
        text.pop_back();
      }
      char *end = nullptr;
      p = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size())
        return std::nullopt;
    } else if (star::Value v = global(e, sc)) {
      auto *f = v.as<star::Float>();
      if (!f)
        return std::nullopt;
      p = f->value;
    } else {
      return std::nullopt;
    }
    if (percent || p > 1)
      p /= 100;
    if (!std::isfinite(p))
      return std::nullopt;
    return p;
  }

  static const Argument *keyword(const CallExpr *c, llvm::StringRef name) {
    for (const Argument &a : c->args)
      if (a.kind == Argument::Kind::Named && a.name && a.name->name == name)
        return &a;
    return nullptr;
  }

  void scanBody(const Function &fn, const star::ModuleEnv *mod, const frontend::SourceFile *file,
                BodyScan &out) {
    Scope sc{mod, file};
    unsigned unnamed = 0;
    std::set<std::pair<uint32_t, uint32_t>> helperSites;
    auto visit = [&](const CallExpr *c) {
      if (isBuiltinCall(c, "choose"))
        chooseSite(c, sc, unnamed, out);
      else if (isBuiltinCall(c, "fault") || isBuiltinCall(c, "fault_start") ||
               isBuiltinCall(c, "fault_all"))
        faultSite(c, sc, out);
      else if (std::optional<ir::FanOut> fan = fanOutCall(c))
        parallelSite(c, *fan, sc, out);
      else if (auto *id = dyn_cast<Ident>(c->fn);
               id && ir::isGatewayBuiltin(id->name) && isBuiltinCall(c, id->name))
        gatewaySite(c, id->name, sc, out);
      else if (const char *decl = declarationCall(c))
        out.errors.push_back({ir::builtins::declarationInBodyMessage(decl), sc.loc(c->lparen),
                              ir::DiagCode::DeclarationInBody});
      else if (auto *d = dyn_cast<DotExpr>(c->fn))
        stepSite(d, sc, out);
      else if (star::Value v = global(c->fn, sc))
        if (auto *f = v.as<star::Function>()) {
          std::set<const star::FunctionCode *> visiting;
          std::string axis = helperChoose(f, visiting);
          if (!axis.empty() && helperSites.insert({c->lparen.line, c->lparen.col}).second)
            out.helpers.push_back({std::string(f->code->name), axis, sc.loc(c->fn->pos)});
        }
    };
    forEachCall(&fn, visit);
  }

  // A step call on an interface (svc.iface.m(), iface_ref.m(), svc.m() on
  // the default interface): a method its protocol does not have
  // (ir/protocols.h) fails at run time, so it is an error at the call.
  void stepSite(const DotExpr *d, const Scope &sc, BodyScan &out) {
    std::string method = d->name->name.str();
    const Expr *x = d->x;
    while (auto *p = dyn_cast<ParenExpr>(x))
      x = p->x;
    const ir::Interface *iface = nullptr;
    std::string service;
    if (auto *inner = dyn_cast<DotExpr>(x)) { // svc.iface.m()
      if (auto *s = ir::builtins::valueAs<ir::builtins::ServiceValue>(global(inner->x, sc))) {
        iface = s->data.findInterface(inner->name->name);
        service = s->data.name;
      }
    } else if (star::Value v = global(x, sc)) {
      if (auto *r = ir::builtins::valueAs<ir::builtins::InterfaceRefValue>(v)) {
        iface = &r->iface;
        service = r->service;
      } else if (auto *s = ir::builtins::valueAs<ir::builtins::ServiceValue>(v)) {
        // svc.m(): only the promoted step names reach the default interface
        // (its only one, or the one named "default").
        bool ambiguous = false;
        if (ir::isPromotedStep(method) && !s->data.findInterface(method))
          iface = ir::builtins::defaultInterface(s->data, ambiguous);
        service = s->data.name;
      }
    }
    if (!iface)
      return;
    if (std::optional<ir::builtins::AttrMistake> m =
            ir::builtins::interfaceRefMistake(service, *iface, method))
      out.errors.push_back({std::move(m->message), sc.loc(d->name->pos), m->code});
  }

  // service(), fault_scenario(), ...: the run refuses them in a body.
  static const char *declarationCall(const CallExpr *c) {
    for (const char *name : ir::builtins::kDeclarationBuiltins)
      if (isBuiltinCall(c, name))
        return name;
    return nullptr;
  }

  void chooseSite(const CallExpr *c, const Scope &sc, unsigned &unnamed, BodyScan &out) {
    // Only choose(name, options) with two positional arguments fans out;
    // other shapes are single-leaf (anonymous) or a run-time error.
    if (c->args.size() != 2)
      return;
    for (const Argument &a : c->args)
      if (a.kind != Argument::Kind::Positional)
        return;
    ir::PlanAxis ax;
    ax.kind = ir::AxisKind::Choose;
    ax.loc = sc.loc(c->lparen);
    if (auto name = stringConst(c->args[0].value, sc)) {
      ax.name = *name;
      ax.named = true;
    } else {
      ax.name = "choose#" + std::to_string(++unnamed);
    }
    const Expr *opts = c->args[1].value;
    while (auto *p = dyn_cast<ParenExpr>(opts))
      opts = p->x;
    if (auto *list = dyn_cast<ListExpr>(opts)) {
      for (const Expr *x : list->elems) {
        ax.values.push_back(renderLiteral(x));
        ax.constants.push_back(constantOf(x, global(x, sc)));
      }
      ax.size = std::max<uint64_t>(1, list->elems.size());
    } else if (star::Value v = global(opts, sc)) {
      auto *list = v.as<star::List>();
      if (!list)
        return; // a run-time error: the test runs once
      for (star::Value x : list->elems) {
        ax.values.push_back(renderValue(x));
        ax.constants.push_back(constantOf(x));
      }
      ax.size = std::max<uint64_t>(1, list->elems.size());
    } else {
      ax.unknown = ir::UnknownReason::ComputedOptions;
    }
    addUnique(out.choose, std::move(ax));
  }

  void faultSite(const CallExpr *c, const Scope &sc, BodyScan &out) {
    // The services the rules go on: one site per service, as the run keys
    // them (<service>:<keyword> unless labelled).
    FaultCall call = resolveFaultCall(spec_, *c, sc.mod);
    auto serviceName = [](const FaultTarget &t) { return t.service ? t.service->name : "?"; };
    std::vector<std::string> services{"*"};
    std::vector<int> indices{-1}; // ir::RuleSite::service, parallel to services
    ir::Loc at = sc.loc(c->lparen);
    if (call.hasTarget && !isBuiltinCall(c, "fault_all")) {
      // fault(assumption, run=...): the assumption's rules.
      if (!call.targets[0].assumption.empty()) {
        std::vector<ir::PlanAxis> sites;
        assumptionSites(spec_, {call.targets[0].assumption}, sites, out.unmodeled);
        for (ir::PlanAxis &s : sites) {
          s.fault.clear();
          addUnique(out.probability, std::move(s));
        }
        return;
      }
      services = {serviceName(call.targets[0])};
      indices = {serviceIndex(spec_, call.targets[0].service)};
      if (!call.rules.empty()) {
        // fault(svc.iface, error(...), ...): protocol rules, keyed
        // "<svc>.<iface>:<action>" unless labelled.
        const FaultTarget &t = call.targets[0];
        std::string iface = t.service && t.viaInterface ? t.service->name + "." + t.interface : "?";
        for (const Expr *rule : call.rules) {
          while (auto *p = dyn_cast<ParenExpr>(rule))
            rule = p->x;
          if (star::Value g = global(rule, sc)) {
            if (auto *r = ir::builtins::valueAs<ir::builtins::ProxyRuleValue>(g)) {
              std::string action(ir::proxyActionName(r->data.action));
              ruleSite(proxyKnobs(r->data), iface, action, "", r->data.loc,
                       "fault() " + r->data.display(), {r->data.loc, at, action, indices[0]},
                       out.probability, out.unmodeled);
            }
            continue;
          }
          auto *rc = dyn_cast<CallExpr>(rule);
          if (!rc)
            continue;
          for (const char *action : {"response", "error", "delay", "drop"})
            if (isBuiltinCall(rc, action))
              literalRule(rc, sc, iface, action, std::string("fault() ") + action + "()",
                          {sc.loc(rc->pos), at, action, indices[0]}, out);
        }
        return;
      }
    } else if (call.listLiteral) {
      // fault_all([a, b], ...): the same rules on each listed service.
      services.clear();
      indices.clear();
      for (const FaultTarget &t : call.targets) {
        services.push_back(serviceName(t));
        indices.push_back(serviceIndex(spec_, t.service));
      }
    }
    std::string where = std::string(llvm::cast<Ident>(c->fn)->name) + "()";
    size_t errors = 0, unmodeled = 0;
    for (size_t i = 0; i < services.size(); ++i) {
      const std::string &service = services[i];
      // A call's argument errors and warnings are reported once, not per
      // listed service.
      if (i == 1) {
        errors = out.errors.size();
        unmodeled = out.unmodeled.size();
      }
      for (const Argument &a : c->args) {
        if (a.kind != Argument::Kind::Named || !a.name)
          continue;
        std::string kw = a.name->name.str();
        const Expr *v = a.value;
        while (auto *p = dyn_cast<ParenExpr>(v))
          v = p->x;
        if (star::Value g = global(v, sc)) {
          if (auto *f = ir::builtins::valueAs<ir::builtins::FaultValue>(g)) {
            ir::Fault fault = f->data;
            ruleSite(fault, service, kw, "", sc.loc(a.pos), where + " " + kw,
                     {fault.loc, at, kw, indices[i]}, out.probability, out.unmodeled);
          }
          continue;
        }
        auto *call = dyn_cast<CallExpr>(v);
        if (!call || !(isBuiltinCall(call, "deny") || isBuiltinCall(call, "delay")))
          continue;
        literalRule(call, sc, service, kw, where + " " + kw,
                    {sc.loc(call->pos), at, kw, indices[i]}, out);
      }
      if (i > 0) {
        out.errors.resize(errors);
        out.unmodeled.resize(unmodeled);
      }
    }
  }

  // deny(...)/delay(...) written in the body: read its keywords statically.
  // `site`: where the run will find the rule (the deny() call as the
  // rule's value records it: its start, not its '(').
  void literalRule(const CallExpr *call, const Scope &sc, const std::string &service,
                   const std::string &kw, std::string where, ir::RuleSite site, BodyScan &out) {
    const Argument *prob = keyword(call, "probability");
    const Argument *maxFires = keyword(call, "max_fires");
    const Argument *mode = keyword(call, "mode");
    const Argument *label = keyword(call, "label");
    std::optional<double> p = prob ? probabilityConst(prob->value, sc) : std::optional<double>(1);
    std::optional<std::string> m =
        mode ? stringConst(mode->value, sc) : std::optional<std::string>("");
    // Literal max_fires=/mode= the run rejects: the body_check pass reports
    // them; such a rule is no axis and no unmodeled site.
    {
      std::optional<int64_t> n = maxFires ? intConst(maxFires->value, sc) : std::nullopt;
      if ((n && *n <= 0) || (maxFires && p && *p >= 1) ||
          (mode && m && *m != "exhaustive" && *m != "stochastic") ||
          (maxFires && m && *m == "stochastic") || (!maxFires && m && *m == "exhaustive"))
        return;
    }
    if (!maxFires) {
      if (p && *p < 1 && m && *m != "stochastic")
        out.unmodeled.push_back({std::move(where), *p, sc.loc(call->lparen)});
      return;
    }
    // The run's test (ir::fansOutByProbability) on what the plan can read:
    // max_fires= is here, and with mode="stochastic" it was refused above.
    if (p && !ir::fansOutByProbability(*p, 1, ir::FaultMode::None))
      return; // a run-time error (max_fires needs probability < 1)
    ir::PlanAxis ax;
    ax.kind = ir::AxisKind::Probability;
    ax.loc = sc.loc(call->lparen);
    ax.ruleSites.push_back(std::move(site));
    ax.probability = p;
    std::optional<std::string> l = label ? stringConst(label->value, sc) : std::nullopt;
    // A label= the plan cannot read keys the site by its keyword alone.
    if (label && !l) {
      ax.name = "<label>:";
      ax.name += kw;
    } else {
      ax.name = ir::probabilitySiteKey(l.value_or(""), service, kw);
    }
    if (auto n = intConst(maxFires->value, sc)) {
      if (*n <= 0)
        return; // a run-time error
      ax.maxFires = *n;
      if (*n < 64)
        ax.size = uint64_t(1) << *n;
      else
        ax.unknown = ir::UnknownReason::TooLarge;
    } else {
      ax.unknown = ir::UnknownReason::ComputedMaxFires;
    }
    addUnique(out.probability, std::move(ax));
  }

  // An argument of bandwidth()/partition()/watch()/... as far as the plan
  // can read it: literals, lambdas, and the module's globals.
  static ir::GatewayArg gatewayArg(const Argument &a, const Scope &sc) {
    const Expr *e = a.value;
    while (auto *p = dyn_cast<ParenExpr>(e))
      e = p->x;
    std::string name = a.name ? a.name->name.str() : "";
    ir::GatewayArg out;
    out.name = name;
    if (star::Value v = global(e, sc))
      return ir::builtins::gatewayArgOf(v, name);
    if (auto s = stringConst(e, sc)) {
      out.kind = ir::GatewayArg::Kind::String;
      out.str = *s;
    } else if (auto n = intConst(e, sc)) {
      out.kind = ir::GatewayArg::Kind::Int;
      out.num = *n;
    } else if (isa<LambdaExpr>(e)) {
      out.kind = ir::GatewayArg::Kind::Callable;
    } else if (auto *l = dyn_cast<ListExpr>(e)) {
      out.kind = ir::GatewayArg::Kind::List;
      for (const Expr *item : l->elems)
        out.items.push_back(gatewayArg(
            Argument{Argument::Kind::Positional, item->pos, nullptr, const_cast<Expr *>(item)},
            sc));
    } else if (isa<DictExpr>(e) || isa<FloatLit>(e) || isa<TupleExpr>(e)) {
      out.kind = ir::GatewayArg::Kind::Other;
      out.type = isa<DictExpr>(e) ? "dict" : isa<FloatLit>(e) ? "float" : "tuple";
    }
    return out;
  }

  // bandwidth() mtu() partition*() watch*() in a body: literal arguments
  // the run rejects, with its message (ir/gateway_calls.h).
  void gatewaySite(const CallExpr *c, llvm::StringRef name, const Scope &sc, BodyScan &out) {
    std::vector<ir::GatewayArg> args;
    for (const Argument &a : c->args) {
      if (a.kind == Argument::Kind::Star || a.kind == Argument::Kind::StarStar)
        return; // how many arguments is not known
      args.push_back(gatewayArg(a, sc));
    }
    std::optional<ir::GatewayArgError> e = ir::gatewayArgError(name, args);
    if (!e)
      return;
    // Positional arguments come first in `args` as in the call.
    Pos at = e->arg < c->args.size() ? c->args[e->arg].value->pos : c->lparen;
    out.errors.push_back({e->message, sc.loc(at)});
  }

  // parallel(), wait_all(), wait_n(), wait_first(): the builtin a call
  // names, if it is one of them.
  static std::optional<ir::FanOut> fanOutCall(const CallExpr *c) {
    for (const char *name : ir::kFanOutBuiltins)
      if (isBuiltinCall(c, name))
        return ir::fanOutOf(name);
    return std::nullopt;
  }

  // A fan-out call: the branches (wait_n's first argument is its n, not a
  // branch), its policy, and the run's messages for literal mistakes.
  void parallelSite(const CallExpr *c, ir::FanOut fan, const Scope &sc, BodyScan &out) {
    const char *fn = ir::fanOutName(fan);
    uint32_t branches = 0;
    bool starArgs = false;
    const Argument *policyArg = nullptr, *preemptArg = nullptr, *countArg = nullptr;
    for (const Argument &a : c->args) {
      if (a.kind == Argument::Kind::Positional && fan == ir::FanOut::WaitN && !countArg)
        countArg = &a;
      else if (a.kind == Argument::Kind::Positional)
        ++branches;
      else if (a.kind == Argument::Kind::Star)
        starArgs = true;
      else if (a.kind == Argument::Kind::Named && a.name && a.name->name == "interleavings")
        policyArg = &a;
      else if (a.kind == Argument::Kind::Named && a.name && a.name->name == "preemptions")
        preemptArg = &a;
    }
    ir::PlanAxis ax;
    ax.kind = ir::AxisKind::Interleaving;
    ax.loc = sc.loc(c->lparen);
    ax.name = (sc.file ? sc.file->path() : std::string("?")) + ":" + std::to_string(c->lparen.line);
    ax.fanOut = fan;
    // Literal arguments the run rejects: the same messages (ir/fanout_sites.h),
    // at the call.
    auto argError = [&](std::string msg, ir::DiagCode code = ir::DiagCode::BadArgument) {
      out.errors.push_back({std::move(msg), ax.loc, code});
    };
    std::optional<ir::ParallelPolicy> policy;
    if (policyArg) {
      std::string error;
      if (auto n = intConst(policyArg->value, sc)) {
        if (!(policy = ir::parallelPolicyOf(*n, error, fn)))
          return argError(error);
      } else if (auto s = stringConst(policyArg->value, sc)) {
        if (!(policy = ir::parallelPolicyOf(*s, error, fn)))
          return argError(error);
      }
    }
    for (const Argument &a : c->args)
      if (a.kind == Argument::Kind::Named && a.name && a.name->name != "interleavings" &&
          a.name->name != "preemptions")
        return argError(ir::parallelUnknownKeyword(a.name->name.str(), fn),
                        ir::DiagCode::UnknownKeyword);
    if (!starArgs && branches < 2)
      return argError(ir::parallelTooFewBranches(fn));
    if (countArg) {
      if (auto n = intConst(countArg->value, sc)) {
        if (*n < 1 || (!starArgs && *n > int64_t(branches)))
          return argError(ir::waitCountRangeError(*n, branches));
        ax.waitsFor = uint32_t(*n);
      } else if (stringConst(countArg->value, sc)) {
        return argError(ir::waitCountTypeError("string"));
      }
    }
    if (preemptArg) {
      bool dporOrComputed =
          policyArg && (!policy || policy->kind == ir::ParallelPolicy::Kind::Dpor);
      if (std::optional<std::string> e = preemptionsError(*preemptArg, dporOrComputed, sc, ax, fn))
        return argError(*e);
    }
    if (policy && policy->kind == ir::ParallelPolicy::Kind::Dpor) {
      // Not a launch-order axis: the run explores the release orders of
      // the branches' mediated calls (at least one leaf).
      ax.policy = policy->str();
      ax.branches = starArgs ? 0 : branches;
      ax.unknown = ir::UnknownReason::Explored;
      return addUnique(out.interleaving, std::move(ax));
    }
    if (!policyArg || (policy && policy->kind == ir::ParallelPolicy::Kind::Single))
      return; // single execution
    if (policy)
      ax.policy = policy->str();
    else
      ax.unknown = ir::UnknownReason::ComputedPolicy;
    if (starArgs) {
      if (ax.unknown == ir::UnknownReason::None)
        ax.unknown = ir::UnknownReason::ComputedBranches;
    } else {
      ax.branches = branches;
    }
    if (ax.unknown == ir::UnknownReason::None) {
      if (std::optional<uint64_t> size = policy->size(branches))
        ax.size = *size;
      else
        ax.unknown = ir::UnknownReason::TooLarge; // B! does not fit and nothing caps it
    }
    addUnique(out.interleaving, std::move(ax));
  }

  // preemptions=N: an error message, or nullopt with a literal N in `ax`.
  static std::optional<std::string> preemptionsError(const Argument &arg, bool dporOrComputed,
                                                     const Scope &sc, ir::PlanAxis &ax,
                                                     const char *fn) {
    if (!dporOrComputed)
      return ir::parallelPreemptionsWithoutDpor(fn);
    if (auto n = intConst(arg.value, sc)) {
      if (*n < 0 || *n > ir::kMaxPreemptions)
        return ir::parallelPreemptionsError(*n, fn);
      ax.preemptions = uint32_t(*n);
    }
    return std::nullopt;
  }

  // The first named choose() a module function reaches (through further
  // module functions), or "".
  std::string helperChoose(const star::Function *f,
                           std::set<const star::FunctionCode *> &visiting) {
    auto memo = helperMemo_.find(f->code);
    if (memo != helperMemo_.end())
      return memo->second;
    if (!f->code->syntax || !visiting.insert(f->code).second)
      return "";
    Scope sc{f->module, f->code->file};
    std::string found;
    auto visit = [&](const CallExpr *c) {
      if (!found.empty())
        return;
      if (isBuiltinCall(c, "choose")) {
        if (c->args.size() == 2 && c->args[0].kind == Argument::Kind::Positional &&
            c->args[1].kind == Argument::Kind::Positional) {
          auto name = stringConst(c->args[0].value, sc);
          found = name ? *name : "choose";
        }
      } else if (star::Value v = global(c->fn, sc)) {
        if (auto *g = v.as<star::Function>())
          found = helperChoose(g, visiting);
      }
    };
    forEachCall(f->code->syntax, visit);
    helperMemo_[f->code] = found;
    return found;
  }

  const ir::Spec &spec_;
  std::map<const star::FunctionCode *, std::string> helperMemo_;
};

BodyScanner::BodyScanner(const ir::Spec &spec) : state_(std::make_unique<State>(spec)) {}
BodyScanner::~BodyScanner() = default;

void BodyScanner::scan(const syntax::Function &fn, const star::ModuleEnv *mod,
                       const frontend::SourceFile *file, BodyScan &out) {
  state_->scanBody(fn, mod, file, out);
}

} // namespace fbc::passes::axes
