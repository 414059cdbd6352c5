// Naming and counting the results of a run, and the fault summaries of a
// row (each rule's applied/removed pair from the trace).
#include "runtime/outcome.h"

#include <algorithm>
#include <cstdlib>

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

std::string TestOutcome::outcomeWord() const {
  switch (result) {
  case Result::Pass:
    return "passed";
  case Result::Fail:
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

size_t RunReport::count(Result r) const {
  return static_cast<size_t>(std::count_if(tests.begin(), tests.end(),
                                           [&](const TestOutcome &t) { return t.result == r; }));
}

// Applied/removed pairs of every fault rule, in application order.
std::vector<FaultSummary> faultSummaries(const std::vector<TraceEvent> &events,
                                         const std::vector<std::string> &names) {
  std::vector<FaultSummary> out;
  std::vector<std::pair<ServiceId, size_t>> open;
  for (const TraceEvent &e : events) {
    if (e.type == EventType::FaultApplied) {
      FaultSummary f;
      f.service = e.service < names.size() ? names[e.service] : "test";
      f.syscall = e.field("syscall");
      std::string action = e.field("action");
      f.action = action.substr(0, action.find('('));
      if (f.action == "deny")
        f.errnoName = e.field("errno");
      if (f.action == "delay" && action.size() > 7)
        f.delay = action.substr(6, action.size() - 7);
      f.label = e.field("label");
      f.path = e.field("path");
      open.emplace_back(e.service, out.size());
      out.push_back(std::move(f));
    } else if (e.type == EventType::FaultRemoved) {
      std::string sc = e.field("syscall"), label = e.field("label"), action = e.field("action");
      for (auto it = open.begin(); it != open.end(); ++it) {
        FaultSummary &f = out[it->second];
        if (it->first == e.service && f.syscall == sc && f.label == label &&
            f.action == action.substr(0, action.find('('))) {
          f.hits = std::strtoull(e.field("hits").c_str(), nullptr, 10);
          open.erase(it);
          break;
        }
      }
    }
  }
  return out;
}

} // namespace fbc::rt
