// The suggest pass: a copy-pasteable fault_scenario stub per uncovered edge
// (the seed's rule set): the target is the variable that holds the service
// (a TODO when no module global holds it), identifiers are sanitised, and
// the faulted syscall is the protocol's (ir/protocols.h: `sendto` for a udp
// edge, `connect` otherwise); an edge of a protocol with a suggested proxy
// rule (http, redis, postgres) also gets a proxy-rule stub (protocolStub).
#include "passes/pass_manager.h"

#include "ir/protocols.h"
#include "ir/quote.h"

#include <cctype>

namespace fbc::passes {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// For an edge whose protocol has a suggested rule (ir/protocols.h), a
// second stub one level up: the same scenario with the target's interface
// answering errors through fbc's proxy (an HTTP 503 on every route, a Redis
// -ERR on every command, a Postgres 57P01 on every query).
std::string protocolStub(const ir::Service *svc, const ir::PlanEdge &e, const std::string &from,
                         const std::string &to) {
  std::string proto = lower(e.protocol);
  const ir::Protocol *p = ir::findProtocol(proto);
  if (!p || p->suggestRule.empty())
    return "";
  std::string rule(p->suggestRule);
  const ir::Interface *iface = nullptr;
  if (svc)
    for (const ir::Interface &i : svc->interfaces)
      if (lower(i.protocol) == proto) {
        iface = &i;
        break;
      }
  std::string target = (svc && !svc->globals.empty() ? svc->globals.front() : to) + "." +
                       (iface ? iface->name : "main");
  std::string s = "# Or at the protocol level, through fbc's proxy in front of " + e.to + ":\n";
  s += to + "_errors = fault_assumption(\"" + to + "_errors\",\n";
  s += "    target = " + target + ",\n";
  s += "    rules  = [" + rule + "],\n";
  s += ")\n";
  s += "fault_scenario(\"" + from + "_when_" + to + "_errors\",\n";
  s += "    scenario = scenario_" + from + "_calls_" + to + ",\n";
  s += "    faults   = " + to + "_errors,\n";
  s += ")\n";
  return s;
}

} // namespace

void runSuggestPass(const ir::Spec &spec, ir::Plan &plan) {
  plan.suggestions.clear();
  plan.suggested = true;
  const std::vector<ir::PlanEdge> &edges = plan.coverage.edges; // sorted by (from, to)
  for (uint32_t i = 0; i < edges.size(); ++i) {
    const ir::PlanEdge &e = edges[i];
    if (e.covered())
      continue;
    std::string from = ir::starlarkIdentifier(e.from), to = ir::starlarkIdentifier(e.to);
    std::string target;
    const ir::Service *svc = spec.findService(e.to);
    if (svc && !svc->globals.empty())
      target = "    target = " + svc->globals.front() + ",\n";
    else
      target = "    target = " + to + ",  # TODO: no module global holds service(" + "\"" + e.to +
               "\", ...); use the value it returns\n";
    const ir::Protocol *p = ir::findProtocol(lower(e.protocol));
    std::string syscall(p ? p->faultSyscall : "connect");
    std::string s;
    s += "# Uncovered edge: " + e.from + " → " + e.to;
    if (!e.protocol.empty())
      s += " (" + e.protocol + ")";
    s += "\n";
    s += to + "_unavailable = fault_assumption(\"" + to + "_unavailable\",\n";
    s += target;
    s += "    " + syscall + " = deny(\"ECONNREFUSED\"),\n";
    s += ")\n";
    s += "def scenario_" + from + "_calls_" + to + "():\n";
    s += "    # TODO: call " + e.from + " functionality that exercises " + e.to + ".\n";
    s += "    pass\n";
    s += "fault_scenario(\"" + from + "_when_" + to + "_down\",\n";
    s += "    scenario = scenario_" + from + "_calls_" + to + ",\n";
    s += "    faults   = " + to + "_unavailable,\n";
    s += ")\n";
    s += protocolStub(svc, e, from, to);
    plan.suggestions.push_back({i, std::move(s)});
  }
}

} // namespace fbc::passes
