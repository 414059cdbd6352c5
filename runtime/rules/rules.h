// Fault rules and the table that decides every trapped syscall.
//
// A rule names a target service, a syscall keyword (expanded to its family),
// an action (allow, deny(errno), delay(duration)) and optional filters: a
// probability drawn from the rule's own seeded stream, a
// path glob, and a decision override that a leaf executor uses to pin each
// occurrence to fire / not fire. Rules are pushed and popped in scopes, as
// nested fault() calls open and close them; the innermost scope is
// consulted first and the first rule that fires decides.
//
// Targets and destinations: a rule applies to the target's own process
// tree. A connect/sendto-family rule on service B also applies to any other
// service's connect/sendto whose destination is one of B's ports on this
// machine (127.0.0.0/8, ::1, 0.0.0.0), so "B is unreachable" means what the
// coverage rule says. For that to work every service that may connect to B
// must trap connect: the lowering's trap sets say so (backend::trapNumbers,
// which trapSets() below applies to a list of rules).
//
// The table is shared between the supervisor's event loop (decide) and the
// thread running a test (push/pop); one mutex serialises them. decide()
// does not allocate unless a rule fires with a label or notes one of its
// first kMaxSeen passed-over paths.
#pragma once

#include "ir/fanout_sites.h"
#include "runtime/os/sockaddr.h"
#include "runtime/os/syscalls.h"
#include "runtime/rules/path_glob.h"
#include "runtime/rules/rng.h"

#include <bitset>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fbc::rt {

using ServiceId = uint32_t;
inline constexpr ServiceId kNoService = UINT32_MAX;

// Trace lets the syscall run like Allow, but as a rule's decision it puts
// the syscall in the trace (trace(), trace_start()): an observation that
// never shadows a fault rule.
enum class ActionKind : uint8_t { Allow, Deny, Delay, Trace };

struct Action {
  ActionKind kind = ActionKind::Allow;
  int err = 0;         // Deny: the errno the syscall returns
  int64_t delayNs = 0; // Delay: how long the syscall waits before it runs

  static Action allow() { return {}; }
  static Action deny(int err) { return {ActionKind::Deny, err, 0}; }
  static Action delay(int64_t ns) { return {ActionKind::Delay, 0, ns}; }
  static Action trace() { return {ActionKind::Trace, 0, 0}; }
  // Deny and Delay change what the syscall does; Allow and Trace do not.
  bool faults() const { return kind == ActionKind::Deny || kind == ActionKind::Delay; }
};

// Whether a rule decided the call other than allow (deny, delay, trace):
// the lines of the text report's "syscall trace"; every other trapped call
// is counted there as allowed, not listed.
inline bool decidedByRule(bool fired, const Action &a) {
  return fired && a.kind != ActionKind::Allow;
}

// "allow", "deny(input/output error)", "delay(500ms)", "trace": the reference's
// decision strings (Go strerror text, Go duration form).
std::string describeAction(const Action &a);
// "allow", "deny", "delay", "trace": the word describeAction() starts with.
std::string_view actionWord(ActionKind k);
// The kind a describeAction() text names (what a bundle's trace.json
// carries as a syscall event's decision); nullopt for any other text.
std::optional<ActionKind> actionKindOfDecision(std::string_view decision);
// "EIO" (or "errno(N)" for a number without a supported name).
std::string errnoLabel(int err);

// Pins one occurrence (0-based count of the rule's matching evaluations)
// to fire (true) or not (false); nullopt leaves it to the probability.
using DecisionOverride = std::function<std::optional<bool>(uint64_t occurrence)>;

struct RuleSpec {
  ServiceId target = kNoService;
  std::string syscall; // keyword: "write" (family), "fsync", "connect", "openat", ...
  // Its native numbers as the backend lowered them (ir::LoweredRule, or
  // backend::keywordSyscalls for a trace() rule); a rule without any is
  // refused by RuleTable::push.
  std::vector<int> nrs;
  Action action;
  double probability = 1.0;
  std::string label;
  std::string pathGlob; // empty: any path (system paths excepted)
  DecisionOverride decisionOverride;
  // max_fires=N of an exhaustive probabilistic rule (probability < 1, mode
  // not "stochastic"): a leaf pins its first N occurrences; 0 otherwise.
  uint64_t leafBits = 0;
  // Where the rule came into force: the run finds its probability axis in
  // the leaf program by this (ir::LeafTest::findAxis(RuleSite)).
  ir::RuleSite site;
  // The plan's probability-site key of the rule: its label, else
  // "<service>:<keyword>" (the keyword as written, an op name included):
  // for messages.
  std::string siteKey;
  // The fault it is part of: the assumption's name; "" for the rules of
  // one fault()/fault_start()/fault_all() call (the call is the fault). A
  // fault is bypassed when none of its deny/delay rules matched a syscall.
  std::string fault;
};

// What the listener knows about one trapped syscall. The path and the
// destination cost extra syscalls to read, so decide() asks for them only
// when a candidate rule needs them.
class SyscallFacts {
public:
  virtual ~SyscallFacts() = default;
  // The path the syscall names (or its fd resolves to); null if unresolved.
  virtual const std::string *path() = 0;
  // The connect/sendto destination; null if none or unreadable.
  virtual const Destination *destination() = 0;
  // Whether the trapped syscall is still waiting for its answer (its
  // thread has not died or been interrupted) and what path()/destination()
  // read still belongs to it. decide() asks right before it moves any
  // counter, so matches, fires, the rule's random draws, the leaf's
  // occurrence index and the zero-traffic notes move only for
  // notifications that are still valid when they are decided. (Valid then
  // does not mean valid when answered: the thread may die a moment later.)
  virtual bool stillValid() { return true; }
};

struct Decision {
  Action action;
  bool fired = false;            // a rule decided (else: allow, no rule fired)
  bool systemPathExempt = false; // a rule was skipped because the path is a system path
  bool stale = false;            // the notification died while it was decided: no answer
  uint64_t ruleId = 0;           // the firing rule (RuleTable-wide id), 0 if none
  std::string label;             // the firing rule's label
};

using ScopeId = uint64_t;

// What a rule saw instead of a match: syscalls of its family on its
// target that its path glob (or the system-path exemption) passed over,
// and other services' connects that went elsewhere. At most kMaxSeen
// distinct paths and destinations are kept; `passedOver` counts them all.
inline constexpr size_t kMaxSeen = 8;
struct SeenInstead {
  std::vector<std::string> paths;        // first-seen order, distinct
  std::vector<std::string> destinations; // "127.0.0.1:5432"
  uint64_t passedOver = 0;               // syscalls it watched that did not match
  uint64_t unresolved = 0;               // of those, whose path could not be read
};

// Per-rule counters, reported when a scope is popped.
struct RuleStats {
  uint64_t ruleId = 0;
  uint64_t matches = 0; // evaluations that passed the target/path filters
  uint64_t fires = 0;
  SeenInstead seen;
};

class RuleTable {
public:
  explicit RuleTable(uint64_t seed = 0) : seed_(seed) {}

  // The run seed every rule's stream derives from. Affects rules pushed later.
  void setSeed(uint64_t seed);
  // A service's ports, for destination matching of connect/sendto rules.
  void setServicePorts(ServiceId service, std::vector<uint16_t> ports);
  // Names used in messages and rule seeds.
  void setServiceName(ServiceId service, std::string name);

  // Compiles and activates `rules` as one scope. Returns nullopt and sets
  // `error` for an unknown syscall, a bad glob or a probability outside
  // [0, 1]; nothing is pushed then.
  std::optional<ScopeId> push(std::vector<RuleSpec> rules, std::string &error);
  // Deactivates a scope (normally the innermost) and returns its counters.
  std::vector<RuleStats> pop(ScopeId scope);
  // The ids of the rules in an active scope, in declaration order.
  std::vector<uint64_t> ruleIds(ScopeId scope) const;
  bool empty() const;

  // Decides one trapped syscall `nr` of `service`.
  Decision decide(ServiceId service, int nr, SyscallFacts &facts);

  // The keyword of the innermost fault rule (not a trace rule) in force on
  // `service` whose syscall is, or belongs to the family of, one of
  // `keywords`; "" when none (unmediated_io.h: a bypass of that rule).
  std::string faultRuleOn(ServiceId service, std::span<const std::string_view> keywords) const;
  // Whether `d` is one of the services' ports on this machine.
  bool declaredDestination(const Destination &d) const;

private:
  struct Rule {
    Rule(uint64_t id, PathGlob glob) : id(id), glob(std::move(glob)) {}
    uint64_t id;
    RuleSpec spec;
    std::bitset<kMaxSyscall> nrs;
    PathGlob glob;
    SplitMix64 rng;
    uint64_t occurrences = 0;
    uint64_t matches = 0;
    uint64_t fires = 0;
    SeenInstead seen = {};
  };
  struct Scope {
    ScopeId id;
    std::vector<Rule> rules;
  };

  bool targets(const Rule &r, ServiceId service, int nr, SyscallFacts &facts) const;
  // Whether rule `r` (which traps `nr`) covers this call: its target and,
  // for a path syscall, its glob (a glob-less rule passes over system paths,
  // noted in `out`); what it passed over goes to its zero-traffic notes.
  // Stale when the notification stopped being valid while facts were read.
  enum class Match { No, Yes, Stale };
  Match match(Rule &r, ServiceId service, int nr, bool pathSyscall, SyscallFacts &facts,
              Decision &out);
  // Notes a syscall `r` watched but passed over (null: unresolved path).
  static void notePassedOver(Rule &r, const std::string *path, const Destination *dest);

  mutable std::mutex mu_;
  uint64_t seed_;
  std::vector<Scope> scopes_; // innermost last
  std::vector<std::vector<uint16_t>> ports_;
  std::vector<std::string> names_;
  ScopeId nextScope_ = 1;
  uint64_t nextRule_ = 1;
};

// True for paths the reference never faults with a glob-less rule, so that
// a blanket openat/read fault does not break the dynamic loader:
// /lib/ /lib64/ /usr/lib/ /usr/lib64/ /proc/ /sys/ /dev/ /etc/ld.so.
bool isSystemPath(std::string_view path);

// The syscalls each service's filter must trap so that any of `rules` can
// fire, by the lowering's rule (backend::trapNumbers): the family of every
// rule on its target, and for a connect/sendto rule on B the same family on
// every other service (their calls to B's ports). The result is sorted per
// service. (`fbc run` takes its trap sets from the leaf program; this is
// for a supervisor driven by rules directly.) False with `error` set on a
// rule without syscall numbers or an out-of-range target.
bool trapSets(size_t serviceCount, std::span<const RuleSpec> rules,
              std::vector<std::vector<int>> &out, std::string &error);

} // namespace fbc::rt
