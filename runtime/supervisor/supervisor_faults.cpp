// The fault scopes of the supervisor: applyFaults() pushes a call's rules
// as one scope on the rule table and records fault_applied for each;
// removeFaults() pops it and records fault_removed, plus fault_zero_traffic
// (with what the rule saw instead, and whether that makes the test
// fault_bypassed) for a rule nothing matched. Split from supervisor.cpp,
// which owns the services' processes; these touch only the rule table and
// the trace.
#include "runtime/supervisor/supervisor.h"

#include "ir/syscalls.h"

#include <algorithm>

namespace fbc::rt {

std::optional<ScopeId> Supervisor::applyFaults(std::vector<RuleSpec> rules, std::string &error) {
  std::vector<AppliedRule> applied;
  std::vector<std::vector<std::pair<std::string, std::string>>> events;
  for (const RuleSpec &r : rules) {
    std::string filter = ir::syscallFilterText(r.syscall);
    applied.push_back({r.target, r.syscall, r.label, r.action, filter, r.pathGlob,
                       r.action.kind == ActionKind::Trace, r.action.faults(), r.fault});
    std::vector<std::pair<std::string, std::string>> f{
        {"syscall", r.syscall}, {"action", describeAction(r.action)}, {"filter", filter}};
    if (r.action.kind == ActionKind::Deny)
      f.emplace_back("errno", errnoLabel(r.action.err));
    if (r.probability < 1.0)
      f.emplace_back("probability", std::to_string(r.probability));
    if (!r.pathGlob.empty())
      f.emplace_back("path", r.pathGlob);
    if (!r.label.empty())
      f.emplace_back("label", r.label);
    events.push_back(std::move(f));
  }
  std::optional<ScopeId> scope = rules_.push(std::move(rules), error);
  if (!scope)
    return std::nullopt;
  for (size_t i = 0; i < applied.size(); ++i)
    recordRuleEvent(EventType::FaultApplied, applied[i], std::move(events[i]));
  scopes_.emplace_back(*scope, std::move(applied));
  return scope;
}

void Supervisor::removeFaults(ScopeId scope) {
  std::vector<RuleStats> stats = rules_.pop(scope);
  auto it =
      std::find_if(scopes_.begin(), scopes_.end(), [&](const auto &s) { return s.first == scope; });
  if (it == scopes_.end())
    return;
  // A fault (an assumption, or the rules of one call) matched if any of its
  // deny/delay rules did: an op whose write was denied never reaches its
  // fsync, and that fault is not bypassed.
  auto faultMatched = [&](const std::string &fault) {
    for (size_t i = 0; i < it->second.size() && i < stats.size(); ++i)
      if (it->second[i].faults && it->second[i].fault == fault && stats[i].matches)
        return true;
    return false;
  };
  for (size_t i = 0; i < it->second.size(); ++i) {
    const AppliedRule &r = it->second[i];
    std::vector<std::pair<std::string, std::string>> f{{"syscall", r.syscall},
                                                       {"action", describeAction(r.action)}};
    if (i < stats.size()) {
      if (stats[i].matches == 0 && !r.tracing)
        recordRuleEvent(EventType::FaultZeroTraffic, r,
                        zeroTrafficFields(r, stats[i], faultMatched(r.fault)));
      f.emplace_back("matches", std::to_string(stats[i].matches));
      f.emplace_back("hits", std::to_string(stats[i].fires));
    }
    if (!r.label.empty())
      f.emplace_back("label", r.label);
    recordRuleEvent(EventType::FaultRemoved, r, std::move(f));
  }
  scopes_.erase(it);
}

void Supervisor::recordRuleEvent(EventType type, const AppliedRule &r,
                                 std::vector<std::pair<std::string, std::string>> fields) {
  TraceEvent e;
  e.type = type;
  e.service = r.target;
  e.rule.action = r.action;
  e.fields = std::move(fields);
  trace_.record(std::move(e));
}

namespace {

std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &s : items)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

} // namespace

std::vector<std::pair<std::string, std::string>>
Supervisor::zeroTrafficFields(const AppliedRule &r, const RuleStats &st, bool faultMatched) const {
  const SeenInstead &seen = st.seen;
  std::string svc = trace_.serviceName(r.target);
  std::vector<std::pair<std::string, std::string>> f{{"syscall", r.syscall},
                                                     {"action", describeAction(r.action)}};
  if (!r.label.empty())
    f.emplace_back("label", r.label);
  if (!r.pathGlob.empty())
    f.emplace_back("path", r.pathGlob);
  f.emplace_back("watched", r.filter);
  f.emplace_back("passed_over", std::to_string(seen.passedOver));
  if (!seen.paths.empty())
    f.emplace_back("seen_paths", joined(seen.paths));
  if (!seen.destinations.empty())
    f.emplace_back("seen_destinations", joined(seen.destinations));
  if (seen.unresolved)
    f.emplace_back("unresolved_paths", std::to_string(seen.unresolved));
  std::string calls = r.filter;
  std::replace(calls.begin(), calls.end(), ',', '/');
  std::string hint;
  if (seen.passedOver == 0)
    hint = "no " + calls + " call of " + svc + " reached the rule while it was in force";
  else if (!seen.destinations.empty() && seen.paths.empty())
    hint = "the " + calls + " calls it saw went to other addresses than " + svc + "'s ports";
  else if (r.pathGlob.empty())
    hint = "every " + calls +
           " call it saw named a system path, which a rule without path= "
           "never faults";
  else if (seen.passedOver == 1)
    hint = "its path glob did not match the one " + calls + " call it saw";
  else
    hint = "its path glob matched none of the " + std::to_string(seen.passedOver) + " " + calls +
           " calls it saw";
  if (!r.fault.empty())
    f.emplace_back("fault", r.fault);
  // Whether this rule makes the test fault_bypassed: a deny/delay whose
  // fault saw nothing at all.
  bool bypassed = r.faults && !faultMatched;
  if (r.faults && faultMatched)
    hint += " (not bypassed: another rule of the same fault matched)";
  f.emplace_back("hint", hint);
  f.emplace_back("bypassed", bypassed ? "true" : "false");
  return f;
}

} // namespace fbc::rt
