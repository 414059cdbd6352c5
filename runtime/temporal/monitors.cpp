// Monitors over a test's events (TemporalRun::runMonitors) and the choices
// a test(assume=) predicate sees (leafChoices): see temporal.h.
//
// A monitor is run over its scope's events in seq order once the body has
// ended: the same calls, in the same order, with the same states, as the
// reference's call on each event as it is recorded, whose violations are
// likewise only read after the body (they never stop it).
#include "runtime/temporal/temporal.h"

#include "frontend/eval/numeric.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/thread.h"
#include "frontend/syntax/walk.h"
#include "ir/quote.h"
#include "passes/fault_calls.h"

#include <llvm/Support/Casting.h>

namespace fbc::rt {

using star::Value;

namespace {

// A fresh, mutable copy of a monitor's state_init for this test (the spec's
// value is frozen): dicts and lists are copied, deeply.
Value freshState(star::Thread &t, Value v) {
  if (auto *d = v.as<star::Dict>()) {
    auto *out = t.heap.make<star::Dict>();
    for (const star::HashTable::Entry &e : d->table.entries())
      if (!e.value.isNull())
        out->table.set(t, e.key, freshState(t, e.value));
    return Value::object(out);
  }
  if (auto *l = v.as<star::List>()) {
    std::vector<Value> elems;
    for (Value x : l->elems)
      elems.push_back(freshState(t, x));
    return Value::object(t.heap.make<star::List>(std::move(elems)));
  }
  return v;
}

std::string violation(const ir::Monitor &m, const std::string &what) {
  return "monitor violation: monitor " + ir::quote(m.name) + " " + what;
}

} // namespace

std::optional<std::string> TemporalRun::runMonitors(star::Thread &t) const {
  std::vector<Value> states;
  for (const MonitorScope &s : monitors)
    states.push_back(freshState(t, s.def->stateInit ? s.def->stateInit : star::none()));
  for (const FlatEvent &e : events)
    for (size_t i = 0; i < monitors.size(); ++i) {
      const MonitorScope &s = monitors[i];
      if (e.seq <= s.from || e.seq > s.to || !eventMatches(t, s.def->on, e))
        continue;
      Value ev = eventValue(t, e);
      if (s.def->update) {
        try {
          Value args[] = {ev, states[i]};
          states[i] = star::call(t, s.def->update->value, llvm::ArrayRef<Value>(args));
        } catch (const star::EvalError &err) {
          return violation(*s.def, "update raised: " + err.message());
        }
      }
      if (!s.def->check)
        continue;
      bool ok;
      try {
        Value args[] = {ev, states[i]};
        ok = star::truth(star::call(t, s.def->check->value, llvm::ArrayRef<Value>(args)));
      } catch (const star::EvalError &err) {
        return violation(*s.def, "check raised: " + err.message());
      }
      if (!ok)
        return violation(*s.def, "violated at event seq=" + std::to_string(e.seq) + " type=" +
                                     ir::quote(e.type) + " service=" + ir::quote(e.service));
    }
  return std::nullopt;
}

namespace {

// A literal option of a choose() list as its value; null when it is not one.
Value literal(star::Thread &t, const syntax::Expr *e) {
  using namespace syntax;
  if (auto *s = llvm::dyn_cast<StringLit>(e))
    return star::makeString(t.heap, s->value);
  if (auto *i = llvm::dyn_cast<IntLit>(e))
    return i->bigText.empty() ? star::makeInt(t.heap, i->value) : Value();
  if (auto *f = llvm::dyn_cast<FloatLit>(e))
    return star::makeFloat(t.heap, f->value);
  if (auto *u = llvm::dyn_cast<UnaryExpr>(e); u && u->op == Op::Minus)
    if (auto *i = llvm::dyn_cast<IntLit>(u->x); i && i->bigText.empty())
      return star::makeInt(t.heap, -i->value);
  if (auto *id = llvm::dyn_cast<Ident>(e)) {
    if (id->name == "True")
      return star::boolean(true);
    if (id->name == "False")
      return star::boolean(false);
    if (id->name == "None")
      return star::none();
  }
  return Value();
}

// The options list of the body's choose("name", [...]) call.
const syntax::ListExpr *chooseOptions(const ir::Test &test, const std::string &name) {
  const syntax::ListExpr *found = nullptr;
  for (const ir::FunctionRef *f : {&test.body, test.setup.get()}) {
    if (!f || !f->syntax)
      continue;
    syntax::forEachExpr(f->syntax, [&](const syntax::Expr *e) {
      auto *call = llvm::dyn_cast<syntax::CallExpr>(e);
      if (found || !call || !passes::isBuiltinCall(call, "choose") || call->args.size() != 2)
        return;
      auto *n = llvm::dyn_cast<syntax::StringLit>(call->args[0].value);
      if (n && n->value == name)
        found = llvm::dyn_cast<syntax::ListExpr>(call->args[1].value);
    });
  }
  return found;
}

} // namespace

Value leafChoices(star::Thread &t, const ir::Test &test, const ir::LeafTest *lt,
                  const ir::LeafAssignment &leaf, std::string &error) {
  auto *d = t.heap.make<star::Dict>();
  if (!lt)
    return Value::object(d);
  for (size_t a = 0; a < lt->axes.size(); ++a) {
    const ir::LeafAxis &axis = lt->axes[a];
    if (axis.kind() != ir::AxisKind::Choose || axis.name().rfind("choose#", 0) == 0)
      continue;
    uint64_t digit = a < leaf.digits.size() ? leaf.digits[a] : 0;
    const syntax::ListExpr *options = chooseOptions(test, axis.name());
    Value v =
        options && digit < options->elems.size() ? literal(t, options->elems[digit]) : Value();
    if (!v) {
      error = "test(assume=) needs the options of choose(" + ir::quote(axis.name()) +
              ") in the test's body as literals, to give the predicate this leaf's choice";
      return Value();
    }
    d->table.set(t, star::makeString(t.heap, axis.name()), v);
  }
  return Value::object(d);
}

} // namespace fbc::rt
