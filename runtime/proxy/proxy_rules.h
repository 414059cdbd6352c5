// The proxy's rule table: which protocol-level rules are in force on each
// proxied interface, and the decision for one request (or TCP chunk, or new
// connection). Rules come and go in scopes exactly like syscall rules
// (fault(svc.iface, ..., run=), fault_start/stop, a scenario's
// assumptions); the innermost scope is consulted first. A delay rule that
// fires adds its delay and lets later rules decide too (a slow route can
// still fail); the first other rule that fires decides.
//
// Probability: every rule draws from its own SplitMix64 stream seeded from
// the run seed, its site key and its place among the scopes, so a run is
// reproducible from its seed; max_fires=N rules of a leaf pin their first N
// matching occurrences through the DecisionOverride.
//
// Threading: push/pop run on the test's thread, decide on the proxy's loop
// thread; one mutex serialises them.
#pragma once

#include "ir/spec.h"
#include "runtime/protocols/proxy_protocol.h"
#include "runtime/rules/rng.h"
#include "runtime/rules/rules.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

struct ProxyRuleSpec {
  size_t interface = 0; // index into the hub's proxied interfaces
  ir::ProxyRule rule;   // its target() in the codec's form (ir::LoweredProxyRule::target)
  DecisionOverride decisionOverride;
  uint64_t leafBits = 0; // max_fires of an exhaustive rule (see RuleSpec)
  std::string siteKey;   // ir::probabilitySiteKey(label, "svc.iface", action)
};

// What the proxy does with one unit.
struct ProxyDecision {
  int64_t delayNs = 0;                   // first (sum of the delay rules that fired)
  std::optional<ir::ProxyAction> action; // Respond / Error / Drop, or forward when unset
  std::optional<ir::ProxyRule> rule;     // a copy of the deciding (or first delaying) rule
  std::string label;                     // the deciding (or delaying) rule's label
};

// The unit a decision is about: a new connection (per="connection"
// rules), a request the protocol's codec framed, or a chunk of bytes
// without a codec (plain TCP, or a connection its codec gave up on). A
// chunk has no protocol to answer in, so response()/error() rules never
// decide one: they can only delay or drop it.
enum class ProxyUnit { Connection, Request, Chunk };

// What one rule saw while it was in force, reported when its scope is
// popped. A rule that saw units of its kind but matched none of them keeps
// the first kMaxSeen distinct ones ("GET /health", "SET k", a query) for
// its fault_zero_traffic event.
struct ProxyRuleStats {
  uint64_t matches = 0, fires = 0;
  uint64_t passedOver = 0;       // units of its kind that reached it and did not match
  uint64_t unframed = 0;         // chunks a response()/error() rule could not answer
  std::vector<std::string> seen; // first-seen order, distinct, clipped
};

class ProxyRuleTable {
public:
  void setSeed(uint64_t seed) { seed_ = seed; }

  // Activates `rules` as one scope; returns its id.
  uint64_t push(std::vector<ProxyRuleSpec> rules);
  std::vector<ProxyRuleStats> pop(uint64_t scope);

  // Decides one unit on interface `iface`. For a Request, `method` and
  // `target` are the codec's fields ("" for a Chunk).
  ProxyDecision decide(size_t iface, ProxyUnit unit, const std::string &method,
                       const std::string &target);
  // Whether any rule on `iface` decides per connection (accept time).
  bool hasConnectionRules(size_t iface) const;

private:
  struct Rule {
    ProxyRuleSpec spec;
    std::string method, target; // globs (proxyGlobMatch); method upper-cased but
    bool exactMethod = false;   // for an exchange= (AMQP names keep their case)
    SplitMix64 rng;
    uint64_t occurrences = 0;
    ProxyRuleStats stats;
  };
  struct Scope {
    uint64_t id;
    std::vector<Rule> rules;
  };
  bool fires(Rule &r);
  static void notePassedOver(Rule &r, const std::string &method, const std::string &target);

  mutable std::mutex mu_;
  uint64_t seed_ = 0;
  uint64_t nextScope_ = 1;
  std::vector<Scope> scopes_; // innermost last
};

// The method-like match text of a rule (method= / command= / exchange=,
// what the codec's RequestInfo::method holds); its target is
// ir::ProxyRule::target(), in the codec's form once lowered.
const std::string &ruleMethod(const ir::ProxyRule &r);

// A proxy matcher: `*` any run of characters ('/' and ':' included, so
// path="/api/*" covers every route below /api/ and key="user:*" every user
// key), `?` any one character, anything else itself; "" matches anything.
bool proxyGlobMatch(std::string_view pattern, std::string_view text);

// A rule's reply as the codec builds it.
ReplySpec replySpec(const ir::ProxyRule &r);

} // namespace fbc::rt
