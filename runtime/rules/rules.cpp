#include "runtime/rules/rules.h"

#include "backend/leaf_lower.h"

#include "ir/fanout_sites.h"
#include "ir/syscalls.h"
#include "ir/unmediated.h"

#include <algorithm>
#include <cstring>

namespace fbc::rt {

bool isSystemPath(std::string_view path) {
  static constexpr std::string_view kPrefixes[] = {"/lib/",  "/lib64/", "/usr/lib/", "/usr/lib64/",
                                                   "/proc/", "/sys/",   "/dev/",     "/etc/ld.so."};
  for (std::string_view p : kPrefixes)
    if (path.starts_with(p))
      return true;
  return false;
}

void RuleTable::setSeed(uint64_t seed) {
  std::lock_guard lock(mu_);
  seed_ = seed;
}

void RuleTable::setServicePorts(ServiceId service, std::vector<uint16_t> ports) {
  std::lock_guard lock(mu_);
  if (ports_.size() <= service)
    ports_.resize(service + 1);
  ports_[service] = std::move(ports);
}

void RuleTable::setServiceName(ServiceId service, std::string name) {
  std::lock_guard lock(mu_);
  if (names_.size() <= service)
    names_.resize(service + 1);
  names_[service] = std::move(name);
}

std::optional<ScopeId> RuleTable::push(std::vector<RuleSpec> specs, std::string &error) {
  std::lock_guard lock(mu_);
  Scope scope{nextScope_, {}};
  scope.rules.reserve(specs.size());
  uint64_t id = nextRule_;
  for (size_t i = 0; i < specs.size(); ++i) {
    RuleSpec &s = specs[i];
    if (s.target == kNoService) {
      error = "fault rule on " + s.syscall + " has no target service";
      return std::nullopt;
    }
    if (!(s.probability >= 0.0 && s.probability <= 1.0)) {
      error = "probability must be within [0, 1], got " + std::to_string(s.probability);
      return std::nullopt;
    }
    if (s.nrs.empty()) {
      error = "fault rule on " + s.syscall + " names no native syscall";
      return std::nullopt;
    }
    Rule r(id++, PathGlob(s.pathGlob));
    if (!r.glob.ok(&error))
      return std::nullopt;
    for (int nr : s.nrs)
      if (nr >= 0 && nr < kMaxSyscall)
        r.nrs.set(static_cast<size_t>(nr));
    // The stream depends on the run seed and on what the rule is, never on
    // the order other rules were evaluated in: its site key (the lowering's;
    // a trace() rule, which has none, gets the same scheme here) and its
    // position among the scopes pushed so far.
    std::string key =
        !s.siteKey.empty()
            ? s.siteKey
            : ir::probabilitySiteKey(
                  s.label, s.target < names_.size() ? names_[s.target] : std::to_string(s.target),
                  s.syscall);
    r.rng = ruleStream(seed_, key, scope.id, i);
    r.spec = std::move(s);
    scope.rules.push_back(std::move(r));
  }
  nextRule_ = id;
  ++nextScope_;
  scopes_.push_back(std::move(scope));
  return scopes_.back().id;
}

std::vector<RuleStats> RuleTable::pop(ScopeId scope) {
  std::lock_guard lock(mu_);
  std::vector<RuleStats> stats;
  for (auto it = scopes_.begin(); it != scopes_.end(); ++it) {
    if (it->id != scope)
      continue;
    for (const Rule &r : it->rules)
      stats.push_back({r.id, r.matches, r.fires, r.seen});
    scopes_.erase(it);
    break;
  }
  return stats;
}

std::vector<uint64_t> RuleTable::ruleIds(ScopeId scope) const {
  std::lock_guard lock(mu_);
  std::vector<uint64_t> ids;
  for (const Scope &s : scopes_)
    if (s.id == scope)
      for (const Rule &r : s.rules)
        ids.push_back(r.id);
  return ids;
}

bool RuleTable::empty() const {
  std::lock_guard lock(mu_);
  return scopes_.empty();
}

bool RuleTable::targets(const Rule &r, ServiceId service, int nr, SyscallFacts &facts) const {
  if (r.spec.target == service)
    return true;
  if (r.spec.action.kind == ActionKind::Trace)
    return false; // observes its own service only, not calls made to it
  if (!isDestinationSyscall(nr) || r.spec.target >= ports_.size())
    return false;
  const std::vector<uint16_t> &ports = ports_[r.spec.target];
  if (ports.empty())
    return false;
  const Destination *d = facts.destination();
  return d && d->valid() && d->local &&
         std::find(ports.begin(), ports.end(), d->port) != ports.end();
}

void RuleTable::notePassedOver(Rule &r, const std::string *path, const Destination *dest) {
  SeenInstead &s = r.seen;
  ++s.passedOver;
  auto note = [](std::vector<std::string> &list, const std::string &v) {
    if (list.size() < kMaxSeen && std::find(list.begin(), list.end(), v) == list.end())
      list.push_back(v);
  };
  if (path)
    note(s.paths, *path);
  else if (dest)
    note(s.destinations, dest->text());
  else
    ++s.unresolved;
}

RuleTable::Match RuleTable::match(Rule &r, ServiceId service, int nr, bool pathSyscall,
                                  SyscallFacts &facts, Decision &out) {
  bool observer = r.spec.action.kind == ActionKind::Trace; // no zero-traffic notes
  if (!targets(r, service, nr, facts)) {
    // Another service's connect that went somewhere else: what a connect
    // rule on its target saw instead (targets() read it).
    if (!observer && r.spec.target != service && isDestinationSyscall(nr) &&
        r.spec.target < ports_.size() && !ports_[r.spec.target].empty()) {
      const Destination *d = facts.destination();
      if (d && d->valid()) {
        if (!facts.stillValid())
          return Match::Stale;
        notePassedOver(r, nullptr, d);
      }
    }
    return Match::No;
  }
  if (pathSyscall) {
    const std::string *path = facts.path();
    bool pass = true;
    if (!r.glob.empty()) {
      // Unlike the reference, an unresolved path never matches a glob.
      pass = path && r.glob.matches(*path);
    } else if (path && isSystemPath(*path)) {
      out.systemPathExempt = true;
      pass = false; // later rules still get their turn
    }
    if (!pass) {
      if (!observer) {
        if (!facts.stillValid())
          return Match::Stale;
        notePassedOver(r, path, nullptr);
      }
      return Match::No;
    }
  }
  return facts.stillValid() ? Match::Yes : Match::Stale;
}

Decision RuleTable::decide(ServiceId service, int nr, SyscallFacts &facts) {
  Decision out;
  if (nr < 0 || nr >= kMaxSyscall)
    return out;
  const SyscallShape &shape = syscallShape(nr);
  bool pathSyscall = (shape.pathArg >= 0 || shape.fdArg >= 0) && !isDestinationSyscall(nr);
  std::lock_guard lock(mu_);
  const Rule *traced = nullptr; // the innermost trace rule that saw the syscall
  auto decidedBy = [&out](const Rule &r) {
    out.action = r.spec.action;
    out.fired = true;
    out.ruleId = r.id;
    out.label = r.spec.label;
    return out;
  };
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    for (Rule &r : scope->rules) {
      if (!r.nrs.test(static_cast<size_t>(nr)))
        continue;
      Match m = match(r, service, nr, pathSyscall, facts, out);
      if (m == Match::Stale) {
        Decision d;
        d.stale = true;
        return d;
      }
      if (m == Match::No)
        continue;
      ++r.matches;
      uint64_t occurrence = r.occurrences++;
      std::optional<bool> pinned;
      if (r.spec.decisionOverride)
        pinned = r.spec.decisionOverride(occurrence);
      if (!fireDecision(pinned, r.spec.probability, r.rng))
        continue;
      ++r.fires;
      if (r.spec.action.kind != ActionKind::Trace)
        return decidedBy(r);
      // Observed; a fault rule further out still decides the syscall.
      if (!traced)
        traced = &r;
    }
  }
  return traced ? decidedBy(*traced) : out;
}

std::string RuleTable::faultRuleOn(ServiceId service,
                                   std::span<const std::string_view> keywords) const {
  std::lock_guard lock(mu_);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
    for (const Rule &r : scope->rules)
      if (r.spec.target == service && r.spec.action.kind != ActionKind::Trace &&
          ir::inFamilies(r.spec.syscall, keywords))
        return r.spec.syscall;
  return "";
}

bool RuleTable::declaredDestination(const Destination &d) const {
  std::lock_guard lock(mu_);
  if (!d.valid() || !d.local)
    return false;
  for (const std::vector<uint16_t> &ports : ports_)
    if (std::find(ports.begin(), ports.end(), d.port) != ports.end())
      return true;
  return false;
}

bool trapSets(size_t serviceCount, std::span<const RuleSpec> rules,
              std::vector<std::vector<int>> &out, std::string &error) {
  std::vector<std::vector<std::string>> names(serviceCount);
  for (const RuleSpec &r : rules) {
    if (r.target >= serviceCount) {
      error = "fault rule on " + r.syscall + " targets an unknown service";
      return false;
    }
    if (r.nrs.empty()) {
      error = "fault rule on " + r.syscall + " names no native syscall";
      return false;
    }
    names[r.target].push_back(r.syscall);
  }
  out = backend::trapNumbers(names);
  return true;
}

} // namespace fbc::rt
