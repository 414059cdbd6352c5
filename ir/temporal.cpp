// The display forms of matchers and temporal properties (ir/spec.h): one
// formatter for `fbc ir`, `fbc plan` and run reasons.
#include "ir/temporal.h"

#include "frontend/syntax/walk.h"
#include "ir/composed_assumptions.h"
#include "ir/quote.h"

#include <llvm/Support/Casting.h>

#include <algorithm>

namespace fbc::ir {

std::string Matcher::display() const {
  std::string out;
  switch (kind) {
  case MatcherKind::Event:
    out = "event(";
    for (size_t i = 0; i < criteria.size(); ++i)
      out.append(i ? ", " : "")
          .append(criteria[i].first)
          .append("=")
          .append(quote(criteria[i].second));
    return out + ")";
  case MatcherKind::Any:
  case MatcherKind::All:
    out = kind == MatcherKind::Any ? "any(" : "all(";
    for (size_t i = 0; i < children.size(); ++i)
      out.append(i ? ", " : "").append(children[i].display());
    return out + ")";
  case MatcherKind::Never:
    return "never()";
  case MatcherKind::Predicate:
    return "predicate(" + fn.name + ")";
  }
  return out;
}

std::string TemporalAnchor::display() const {
  return matcher ? matcher->display() : quote(name);
}

const char *temporalKindName(TemporalKind k) {
  return k == TemporalKind::Always ? "always" : "eventually";
}

std::string Temporal::name() const {
  return std::string(temporalKindName(kind)) + "(" + pred.name + ")";
}

std::string Temporal::display() const {
  std::string out = name();
  if (anchor)
    out += " anchor=" + anchor->display();
  if (start.set() || end.set())
    out += " between=(" + start.display() + ", " + end.display() + ")";
  return out;
}

} // namespace fbc::ir

namespace fbc::ir {

std::vector<uint32_t> testMonitors(const Spec &spec, const Test &t) {
  std::vector<uint32_t> out;
  auto add = [&](uint32_t i) {
    if (std::find(out.begin(), out.end(), i) == out.end())
      out.push_back(i);
  };
  for (uint32_t i = 0; i < spec.monitors.size(); ++i)
    if (!spec.monitors[i].claimed)
      add(i);
  for (const std::string &f : t.faults)
    for (const FaultAssumption *a : composedAssumptions(spec, f))
      for (uint32_t i : a->monitors)
        add(i);
  if (t.temporal)
    for (uint32_t i : t.temporal->monitors)
      add(i);
  return out;
}

namespace {

// The reference's causal queries, which need vector clocks fbc's events do
// not carry: trace.causal_chain() and the event methods.
constexpr std::string_view kCausal[] = {
    "causal_chain", "concurrent_with",    "directly_caused_by",  "duration_since",
    "followed_by",  "followed_by_within", "happens_after",       "happens_before",
    "preceded_by",  "preceded_by_within", "same_correlation_as", "same_service_as"};

// The first causal query `fn` makes itself, or "".
std::string causalUse(const FunctionRef *fn) {
  std::string out;
  if (!fn || !fn->syntax)
    return out;
  syntax::forEachExpr(fn->syntax, [&](const syntax::Expr *e) {
    auto *d = llvm::dyn_cast<syntax::DotExpr>(e);
    if (!out.empty() || !d)
      return;
    for (std::string_view c : kCausal)
      if (std::string_view(d->name->name.data(), d->name->name.size()) == c)
        out = std::string(c);
  });
  return out;
}

} // namespace

std::vector<HostNeed> temporalNeeds(const Spec &spec, const Test &t) {
  std::vector<const FunctionRef *> fns = {&t.body, t.setup.get()};
  for (uint32_t i : testMonitors(spec, t))
    fns.insert(fns.end(), {spec.monitors[i].update.get(), spec.monitors[i].check.get()});
  if (t.temporal)
    for (const auto &x : {t.temporal->expect, t.temporal->terminateWhen})
      if (x)
        fns.push_back(&x->pred);
  std::vector<HostNeed> out;
  for (const FunctionRef *fn : fns)
    if (std::string use = causalUse(fn); !use.empty()) {
      HostNeed n;
      n.feature = HostFeature::Unbuilt;
      n.subject = "." + use + "()";
      n.what = "causal queries need vector clocks, which fbc's events do not carry";
      n.loc = fn->loc;
      out.push_back(std::move(n));
      break;
    }
  return out;
}

} // namespace fbc::ir
