// Monitors over a test's events (TemporalRun::runMonitors) and the choices
// a test(assume=) predicate sees (leafChoices): see temporal.h.
//
// A monitor is run over its scope's events in seq order once the body has
// ended: the same calls, in the same order, with the same states, as the
// reference's call on each event as it is recorded, whose violations are
// likewise only read after the body (they never stop it).
#include "runtime/temporal/temporal.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/ops.h"
#include "ir/quote.h"

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

// A choose() option as the value the predicate sees; null when the plan
// could not read it as a constant (ir::OptionConstant::Kind::Opaque).
Value optionValue(star::Thread &t, const ir::OptionConstant &c) {
  using K = ir::OptionConstant::Kind;
  switch (c.kind) {
  case K::None:
    return star::none();
  case K::Bool:
    return star::boolean(c.i != 0);
  case K::Int:
    return star::makeInt(t.heap, c.i);
  case K::Float:
    return star::makeFloat(t.heap, c.f);
  case K::String:
    return star::makeString(t.heap, c.s);
  case K::Opaque:
    break;
  }
  return Value();
}

} // namespace

Value leafChoices(star::Thread &t, const ir::LeafTest *lt, const ir::LeafAssignment &leaf,
                  std::string &error) {
  auto *d = t.heap.make<star::Dict>();
  if (!lt)
    return Value::object(d);
  for (size_t a = 0; a < lt->axes.size(); ++a) {
    const ir::LeafAxis &axis = lt->axes[a];
    if (axis.kind() != ir::AxisKind::Choose || !axis.plan.named)
      continue;
    uint64_t digit = a < leaf.digits.size() ? leaf.digits[a] : 0;
    const std::vector<ir::OptionConstant> &options = axis.plan.constants;
    Value v = digit < options.size() ? optionValue(t, options[digit]) : Value();
    if (!v) {
      error = "test(assume=) needs the options of choose(" + ir::quote(axis.name()) +
              ") as constants (None, bools, numbers, strings; literals or module constants), "
              "to give the predicate this leaf's choice";
      return Value();
    }
    d->table.set(t, star::makeString(t.heap, axis.name()), v);
  }
  return Value::object(d);
}

} // namespace fbc::rt
