// The running test's protocol fault scopes on its proxies, and what the
// trace says of them. A scope is one fault: a fault(svc.iface, ...) call's
// rules, an assumption's rules=, a fault_start(svc.iface, ...) until its
// fault_stop(). push() records proxy_fault_applied for each rule; pop()
// records, per rule, fault_zero_traffic when it matched nothing (with what
// it saw instead, and whether its whole scope saw nothing) and
// proxy_fault_removed with its matches and hits. The body builtins
// (runtime/body/proxy_builtins.cpp) check the rules and pin the leaf's
// occurrences; this owns the scopes' state for one test.
#pragma once

#include "ir/spec.h"
#include "runtime/proxy/proxy.h"
#include "runtime/trace/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fbc::rt {

class ProxyFaultScopes {
public:
  ProxyFaultScopes(ProxyHub &hub, Trace &trace) : hub_(hub), trace_(trace) {}
  ProxyFaultScopes(const ProxyFaultScopes &) = delete;
  ProxyFaultScopes &operator=(const ProxyFaultScopes &) = delete;

  // Pushes `specs` (the rules `rules` of interface `iface`, as written) as
  // one scope; `source`: fault(..., source=svc)'s service, or "".
  uint64_t push(size_t iface, std::vector<ProxyRuleSpec> specs, std::vector<ir::ProxyRule> rules,
                const std::string &source);
  void pop(uint64_t scope);
  // fault_start(): `scope` stays until stop(iface) or stopAll().
  void start(size_t iface, uint64_t scope) { started_[iface].push_back(scope); }
  // fault_stop(): pops the interface's started scopes, innermost first.
  void stop(size_t iface);
  // The end of the test: every started scope.
  void stopAll();

private:
  struct Scope {
    uint64_t id;
    size_t iface;
    std::vector<ir::ProxyRule> rules; // as written, for proxy_fault_removed
  };
  void record(EventType type, ServiceId service, const ir::ProxyRule &r,
              std::vector<std::pair<std::string, std::string>> fields);
  ProxyHub &hub_;
  Trace &trace_;
  std::vector<Scope> scopes_;
  std::map<size_t, std::vector<uint64_t>> started_; // fault_start scopes per interface
};

} // namespace fbc::rt
