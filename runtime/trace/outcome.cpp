// Naming and counting the results of a run, and the fault summaries of a
// row (each rule's applied/removed pair from the trace).
#include "runtime/trace/outcome.h"

#include "ir/duration.h"

#include <algorithm>

namespace fbc::rt {

const char *resultName(Result r) {
  switch (r) {
  case Result::Pass:
    return "pass";
  case Result::Fail:
    return "fail";
  case Result::Error:
    return "error";
  case Result::Inconclusive:
    return "inconclusive";
  case Result::Halted:
    return "halted";
  }
  return "error";
}

std::string ExploreCoverage::statement() const {
  std::string out = "explored " + std::to_string(classes) + (classes == 1 ? " class" : " classes") +
                    " of the orderings of " + (eventsVary ? "up to " : "") +
                    std::to_string(events) + " mediated event" + (events == 1 ? "" : "s") + "; ";
  if (incomplete.empty())
    return out + "complete at the mediated boundary under conservative independence";
  return out + "not complete: " + incomplete;
}

const char *ExploreCoverage::notCovered() {
  return "orderings inside a process between two mediated events; dependence through what no "
         "held call touches (shared memory, a mapped file, a call outside the explore set) or "
         "what a server does beyond the keys and tables a request names (a trigger, a view, a "
         "foreign key, a default from a shared sequence); a request a proxy delay() holds back "
         "longer than --explore-quiet-bound";
}

std::string TestOutcome::outcomeWord() const {
  switch (result) {
  case Result::Pass:
    return faultBypassed ? "fault_bypassed" : "passed";
  case Result::Fail:
    if (strictDeterminismViolation)
      return "strict_determinism_violation";
    return expectationViolated ? "expectation_violated" : "failed";
  case Result::Error:
    return "errored";
  case Result::Inconclusive:
    return "inconclusive";
  case Result::Halted:
    return "halted";
  }
  return "errored";
}

std::vector<const FaultSummary *> TestOutcome::bypassedRules() const {
  std::vector<const FaultSummary *> out;
  for (const FaultSummary &f : faults)
    if (f.bypassed())
      out.push_back(&f);
  return out;
}

std::string FaultSummary::target() const {
  return isProtocolRule() ? service + "." + interface : service;
}

std::string FaultSummary::ruleText() const {
  if (isProtocolRule())
    return rule;
  std::string s = syscall;
  if (action == "deny")
    s += "=deny(" + errnoName + ")";
  else if (action == "delay")
    s += "=delay(" + delay + ")";
  else if (action != "trace")
    s += "=" + action + "()";
  if (!path.empty())
    s += " path=\"" + path + "\"";
  if (!label.empty())
    s += " label=\"" + label + "\"";
  return s;
}

std::string FaultSummary::bypassedText() const {
  return target() + " " + ruleText() + " (" + hint + ")";
}

void decideFaultVerdict(TestOutcome &o, bool requireFaultsFire) {
  std::vector<const FaultSummary *> rules = o.bypassedRules();
  if (o.result != Result::Pass || rules.empty())
    return;
  o.faultBypassed = true;
  if (!requireFaultsFire)
    return;
  o.result = Result::Fail;
  o.reason = "require_faults_fire: " + std::to_string(rules.size()) +
             (rules.size() == 1 ? " fault rule" : " fault rules") + " never fired:";
  for (size_t i = 0; i < rules.size(); ++i)
    o.reason += (i ? "; " : " ") + rules[i]->bypassedText();
}

namespace {

// A service of the row exited on its own while the test ran.
bool serviceDied(const TestOutcome &o) {
  for (const TraceEvent &e : o.events)
    if (e.type == EventType::ServiceStopped && e.flag(EventField::Unexpected))
      return true;
  return false;
}

} // namespace

std::optional<ir::DiagCode> rowCode(const TestOutcome &o) {
  using enum ir::DiagCode;
  switch (o.result) {
  case Result::Pass:
    return o.faultBypassed ? std::optional(FaultNotFired) : std::nullopt;
  case Result::Halted:
    return std::nullopt;
  case Result::Inconclusive:
    return TestTimeout;
  case Result::Fail:
    if (o.faultBypassed) // decideFaultVerdict(): require_faults_fire
      return FaultNotFired;
    if (o.strictDeterminismViolation)
      return StrictDeterminismViolation;
    if (o.expectationViolated)
      return ExpectationViolated;
    if (serviceDied(o))
      return ServiceCrashed;
    return o.cause;
  case Result::Error:
    return o.cause;
  }
  return std::nullopt;
}

void ResultCounts::add(std::string_view o) {
  expectationViolated += o == "expectation_violated";
  faultBypassed += o == "fault_bypassed";
  strictDeterminismViolation += o == "strict_determinism_violation";
  if (o == "passed" || o == "fault_bypassed")
    ++passed;
  else if (o == "failed" || o == "expectation_violated" || o == "strict_determinism_violation")
    ++failed;
  else if (o == "inconclusive")
    ++inconclusive;
  else if (o == "halted")
    ++halted;
  else
    ++errored;
}

ResultCounts RunReport::counts() const {
  ResultCounts c;
  for (const TestOutcome &t : tests)
    c.add(t.outcomeWord());
  return c;
}

// Applied/removed pairs of every fault rule, in application order.
std::vector<FaultSummary> faultSummaries(const std::vector<TraceEvent> &events,
                                         const std::vector<std::string> &names) {
  std::vector<FaultSummary> out;
  std::vector<std::pair<ServiceId, size_t>> open;
  // The open rule event `e` names: the latest applied of that service and
  // keyword, label and action, or interface and rule (scopes end innermost
  // first).
  auto openRule = [&](const TraceEvent &e) -> FaultSummary * {
    std::string iface = e.text(EventField::Interface), rule = e.text(EventField::Rule);
    std::string sc = e.text(EventField::Syscall), label = e.text(EventField::Label);
    std::string_view action = actionWord(e.rule.action.kind);
    for (auto it = open.rbegin(); it != open.rend(); ++it) {
      FaultSummary &f = out[it->second];
      if (it->first != e.service || f.interface != iface)
        continue;
      if (iface.empty() ? f.syscall == sc && f.label == label && f.action == action
                        : f.rule == rule)
        return &f;
    }
    return nullptr;
  };
  auto serviceName = [&](ServiceId id) -> std::string {
    return id < names.size() ? names[id] : "test";
  };
  for (const TraceEvent &e : events) {
    if (e.type == EventType::FaultApplied) {
      FaultSummary f;
      f.service = serviceName(e.service);
      f.syscall = e.text(EventField::Syscall);
      const Action &a = e.rule.action;
      f.action = actionWord(a.kind);
      if (a.kind == ActionKind::Deny)
        f.errnoName = errnoLabel(a.err);
      if (a.kind == ActionKind::Delay)
        f.delay = ir::formatDuration(a.delayNs);
      f.label = e.text(EventField::Label);
      f.path = e.text(EventField::Path);
      f.filter = e.text(EventField::Filter);
      open.emplace_back(e.service, out.size());
      out.push_back(std::move(f));
    } else if (e.type == EventType::ProxyFaultApplied) {
      FaultSummary f;
      f.service = serviceName(e.service);
      f.interface = e.text(EventField::Interface);
      f.protocol = e.text(EventField::Protocol);
      f.rule = e.text(EventField::Rule);
      f.action = e.rule.proxyAction;
      open.emplace_back(e.service, out.size());
      out.push_back(std::move(f));
    } else if (e.type == EventType::FaultRemoved || e.type == EventType::ProxyFaultRemoved) {
      if (FaultSummary *f = openRule(e)) {
        f->hits = e.count(EventField::Hits);
        f->matches = e.count(EventField::Matches);
        open.erase(std::find_if(open.begin(), open.end(),
                                [&](const auto &o) { return &out[o.second] == f; }));
      }
    } else if (e.type == EventType::FaultZeroTraffic) {
      // Recorded just before its rule's fault_removed (proxy_fault_removed).
      if (FaultSummary *f = openRule(e)) {
        f->zeroTraffic = true;
        f->watched = e.text(EventField::Watched);
        f->seenPaths = e.text(EventField::SeenPaths);
        f->seenDestinations = e.text(EventField::SeenDestinations);
        f->seenRequests = e.text(EventField::SeenRequests);
        f->hint = e.text(EventField::Hint);
        f->faultBypassed = e.flag(EventField::Bypassed);
      }
    }
  }
  return out;
}

} // namespace fbc::rt
