// A row's fault summaries and its fault_bypassed verdict from trace events
// (runtime/trace/outcome.cpp): syscall and protocol (proxy) rules alike.
#include "runtime/trace/outcome.h"

#include <gtest/gtest.h>

#include <cerrno>

#include <string>
#include <vector>

namespace fbc::rt {
namespace {

TraceEvent event(EventType type, ServiceId service,
                 std::vector<std::pair<std::string, std::string>> fields) {
  TraceEvent e;
  e.type = type;
  e.service = service;
  e.fields = std::move(fields);
  return e;
}

// A fault rule event: its rule typed as the recorders set it.
TraceEvent ruleEvent(EventType type, ServiceId service, RuleRecord rule,
                     std::vector<std::pair<std::string, std::string>> fields) {
  TraceEvent e = event(type, service, std::move(fields));
  e.rule = std::move(rule);
  return e;
}

const std::vector<std::string> kNames{"kv", "api"};
const std::string kOrders = "error(path=\"/orders/*\", status=503)";
const std::string kIdle = "no HTTP request to api.public reached the rule while it was in force";

// A proxy scope of two rules applied, then removed: the first matched
// nothing (its fault_zero_traffic says whether its scope did), the second
// matched and fired `hits` times.
std::vector<TraceEvent> proxyScope(bool scopeBypassed, uint64_t secondHits) {
  std::string delay = "delay(method=\"PUT\", delay=\"10ms\")";
  auto fields = [](const std::string &rule) {
    return std::vector<std::pair<std::string, std::string>>{
        {"interface", "public"}, {"protocol", "http"}, {"rule", rule}};
  };
  std::vector<TraceEvent> out{
      ruleEvent(EventType::ProxyFaultApplied, 1, {{}, "error"}, fields(kOrders)),
      ruleEvent(EventType::ProxyFaultApplied, 1, {{}, "delay"}, fields(delay))};
  std::vector<std::pair<std::string, std::string>> zero = fields(kOrders);
  zero.insert(zero.end(), {{"watched", "HTTP requests"},
                           {"passed_over", "2"},
                           {"seen_requests", "PUT /kv/a, GET /kv/a"},
                           {"hint", kIdle},
                           {"bypassed", scopeBypassed ? "true" : "false"}});
  out.push_back(event(EventType::FaultZeroTraffic, 1, zero));
  for (auto [rule, n] : {std::pair<std::string, uint64_t>{kOrders, 0}, {delay, secondHits}}) {
    std::vector<std::pair<std::string, std::string>> f = fields(rule);
    f.emplace_back("matches", std::to_string(n));
    f.emplace_back("hits", std::to_string(n));
    out.push_back(event(EventType::ProxyFaultRemoved, 1, f));
  }
  return out;
}

TEST(FaultSummaries, ProtocolRulesArePairedByInterfaceAndRule) {
  std::vector<FaultSummary> s = faultSummaries(proxyScope(false, 3), kNames);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(s[0].isProtocolRule());
  EXPECT_EQ(s[0].target(), "api.public");
  EXPECT_EQ(s[0].ruleText(), kOrders);
  EXPECT_EQ(s[0].action, "error");
  EXPECT_TRUE(s[0].zeroTraffic);
  EXPECT_EQ(s[0].seenRequests, "PUT /kv/a, GET /kv/a");
  EXPECT_FALSE(s[0].bypassed()); // its sibling matched
  EXPECT_EQ(s[1].hits, 3u);
  EXPECT_EQ(s[1].matches, 3u);
  EXPECT_FALSE(s[1].zeroTraffic);
  TestOutcome o;
  o.faults = s;
  decideFaultVerdict(o, true);
  EXPECT_EQ(o.result, Result::Pass);
  EXPECT_EQ(o.outcomeWord(), "passed");
}

TEST(FaultSummaries, AProxyScopeThatSawNothingMakesAPassFaultBypassed) {
  TestOutcome o;
  o.faults = faultSummaries(proxyScope(true, 0), kNames);
  decideFaultVerdict(o, false);
  EXPECT_EQ(o.result, Result::Pass);
  EXPECT_EQ(o.outcomeWord(), "fault_bypassed");
  ASSERT_EQ(o.bypassedRules().size(), 1u);
  EXPECT_EQ(o.bypassedRules()[0]->bypassedText(), "api.public " + kOrders + " (" + kIdle + ")");

  TestOutcome strict;
  strict.faults = faultSummaries(proxyScope(true, 0), kNames);
  decideFaultVerdict(strict, true);
  EXPECT_EQ(strict.result, Result::Fail);
  EXPECT_EQ(strict.reason, "require_faults_fire: 1 fault rule never fired: api.public " + kOrders +
                               " (" + kIdle + ")");
}

// A syscall rule and a protocol rule in one test: each removal finds its
// own application, the syscall rule's text is unchanged.
TEST(FaultSummaries, SyscallAndProtocolRulesSideBySide) {
  std::vector<TraceEvent> ev{ruleEvent(
      EventType::FaultApplied, 0, {Action::deny(EIO), ""},
      {{"syscall", "fsync"}, {"action", "deny(EIO)"}, {"errno", "EIO"}, {"label", "wal"}})};
  std::vector<TraceEvent> proxy = proxyScope(true, 0);
  ev.insert(ev.end(), proxy.begin(), proxy.end());
  ev.push_back(ruleEvent(EventType::FaultRemoved, 0, {Action::deny(EIO), ""},
                         {{"syscall", "fsync"},
                          {"action", "deny(EIO)"},
                          {"matches", "1"},
                          {"hits", "1"},
                          {"label", "wal"}}));
  std::vector<FaultSummary> s = faultSummaries(ev, kNames);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_FALSE(s[0].isProtocolRule());
  EXPECT_EQ(s[0].target(), "kv");
  EXPECT_EQ(s[0].ruleText(), "fsync=deny(EIO) label=\"wal\"");
  EXPECT_EQ(s[0].hits, 1u);
  EXPECT_TRUE(s[1].bypassed());
  TestOutcome o;
  o.faults = s;
  decideFaultVerdict(o, false);
  EXPECT_EQ(o.outcomeWord(), "fault_bypassed");
}

// rowCode(): the one mapping from a row to its diagnostic code.
TEST(RowCode, EachVerdictHasItsCode) {
  using enum ir::DiagCode;
  auto code = [](Result r, auto &&set) {
    TestOutcome o;
    o.result = r;
    set(o);
    std::optional<ir::DiagCode> c = rowCode(o);
    return c ? std::string(ir::codeName(*c)) : std::string("none");
  };
  auto nothing = [](TestOutcome &) {};
  EXPECT_EQ(code(Result::Pass, nothing), "none");
  EXPECT_EQ(code(Result::Halted, nothing), "none");
  EXPECT_EQ(code(Result::Pass, [](TestOutcome &o) { o.faultBypassed = true; }), "FAULT_NOT_FIRED");
  EXPECT_EQ(code(Result::Fail, [](TestOutcome &o) { o.faultBypassed = true; }), "FAULT_NOT_FIRED");
  EXPECT_EQ(code(Result::Inconclusive, nothing), "TEST_TIMEOUT");
  EXPECT_EQ(code(Result::Fail,
                 [](TestOutcome &o) {
                   o.expectationViolated = true;
                   o.cause = AssertionFailed;
                 }),
            "EXPECTATION_VIOLATED");
  EXPECT_EQ(code(Result::Fail,
                 [](TestOutcome &o) {
                   o.strictDeterminismViolation = true;
                   o.cause = AssertionFailed;
                 }),
            "STRICT_DETERMINISM_VIOLATION");
  // A failure while a service died on its own: the crash is the cause.
  EXPECT_EQ(code(Result::Fail,
                 [](TestOutcome &o) {
                   o.cause = BodyError;
                   o.events.push_back(
                       event(EventType::ServiceStopped, 0,
                             {{"exit", "killed by SIGABRT"}, {"unexpected", "true"}}));
                 }),
            "SERVICE_CRASHED");
  EXPECT_EQ(code(Result::Fail, [](TestOutcome &o) { o.cause = AssertionFailed; }),
            "ASSERTION_FAILED");
  EXPECT_EQ(code(Result::Error, [](TestOutcome &o) { o.cause = HealthcheckTimeout; }),
            "HEALTHCHECK_TIMEOUT");
  EXPECT_EQ(code(Result::Error, [](TestOutcome &o) { o.cause = UnknownErrno; }), "UNKNOWN_ERRNO");
  EXPECT_EQ(code(Result::Error, [](TestOutcome &o) { o.cause = PortInUse; }), "PORT_IN_USE");
  EXPECT_EQ(code(Result::Error, nothing), "none"); // an internal error
}

} // namespace
} // namespace fbc::rt
