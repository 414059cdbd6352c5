// The display forms of matchers and temporal properties (ir/spec.h): one
// formatter for `fbc ir`, `fbc plan` and run reasons.
#include "ir/temporal.h"

#include "ir/composed_assumptions.h"
#include "ir/quote.h"

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

std::vector<HostNeed> temporalNeeds(const Spec &spec, const Test &t) {
  std::vector<HostNeed> out;
  auto need = [&](std::string subject, const char *what, Loc loc) {
    HostNeed n;
    n.feature = HostFeature::Unbuilt;
    n.subject = std::move(subject);
    n.what = what;
    n.loc = loc;
    out.push_back(std::move(n));
  };
  for (uint32_t i : testMonitors(spec, t))
    need("monitor " + quote(spec.monitors[i].name), "monitors are not run by fbc yet",
         spec.monitors[i].loc);
  if (!t.temporal)
    return out;
  if (t.temporal->expect)
    need("expect=" + t.temporal->expect->name(), "temporal properties are not run by fbc yet",
         t.temporal->expect->loc);
  if (t.temporal->terminateWhen)
    need("terminate_when=" + t.temporal->terminateWhen->name(),
         "temporal properties are not run by fbc yet", t.temporal->terminateWhen->loc);
  if (!t.temporal->assumes.empty())
    need("assume=", "assume= predicates are not run by fbc yet", t.temporal->assumes[0].loc);
  return out;
}

} // namespace fbc::ir
