// The rule table's decisions, without processes: families, targets and
// destinations, path filters, scopes, probability streams, max_fires and
// the decision override.
#include "backend/rule_lower.h"
#include "runtime/rules/rules.h"

#include <gtest/gtest.h>

namespace fbc::rt {
namespace {

class FakeFacts : public SyscallFacts {
public:
  std::optional<std::string> p;
  std::optional<Destination> d;
  bool valid = true; // stillValid()'s answer: false once the thread is gone
  int pathReads = 0, destReads = 0, validChecks = 0;
  bool stillValid() override {
    ++validChecks;
    return valid;
  }
  const std::string *path() override {
    ++pathReads;
    return p ? &*p : nullptr;
  }
  const Destination *destination() override {
    ++destReads;
    return d ? &*d : nullptr;
  }
};

Destination local(uint16_t port) {
  Destination d;
  d.family = Destination::Family::Inet;
  d.addr[0] = 127;
  d.addr[3] = 1;
  d.port = port;
  d.local = true;
  return d;
}

RuleSpec rule(ServiceId t, std::string sc, Action a) {
  RuleSpec r;
  r.target = t;
  r.nrs = backend::keywordSyscalls(sc); // as the lowering gives them
  r.syscall = std::move(sc);
  r.action = a;
  return r;
}

int nr(const char *name) {
  return syscallNumber(name);
}

TEST(Rules, FamilyExpansion) {
  RuleTable t;
  std::string err;
  ASSERT_TRUE(t.push({rule(0, "write", Action::deny(5))}, err));
  for (const char *sc : {"write", "writev", "pwrite64", "pwritev", "pwritev2"}) {
    FakeFacts f;
    f.p = "/data/wal";
    EXPECT_TRUE(t.decide(0, nr(sc), f).fired) << sc;
  }
  FakeFacts f;
  EXPECT_FALSE(t.decide(0, nr("read"), f).fired);
  EXPECT_FALSE(t.decide(1, nr("write"), f).fired); // another service's writes
}

TEST(Rules, UnknownSyscallAndBadProbabilityAreErrors) {
  RuleTable t;
  std::string err;
  EXPECT_FALSE(t.push({rule(0, "frobnicate", Action::deny(5))}, err));
  EXPECT_EQ(err, "fault rule on frobnicate names no native syscall");
  RuleSpec r = rule(0, "write", Action::deny(5));
  r.probability = 1.5;
  EXPECT_FALSE(t.push({r}, err));
  EXPECT_TRUE(t.empty());
}

TEST(Rules, ConnectRuleOnTargetReachesOtherServicesConnectsToItsPorts) {
  RuleTable t;
  t.setServicePorts(0, {6379});
  std::string err;
  ASSERT_TRUE(t.push({rule(0, "connect", Action::deny(111))}, err));
  FakeFacts toTarget;
  toTarget.d = local(6379);
  EXPECT_TRUE(t.decide(1, nr("connect"), toTarget).fired);
  FakeFacts elsewhere;
  elsewhere.d = local(8080);
  EXPECT_FALSE(t.decide(1, nr("connect"), elsewhere).fired);
  Destination remote = local(6379);
  remote.local = false;
  FakeFacts notLocal;
  notLocal.d = remote;
  EXPECT_FALSE(t.decide(1, nr("connect"), notLocal).fired);
  // The target's own outbound connects fail whatever their destination.
  FakeFacts own;
  own.d = local(5432);
  EXPECT_TRUE(t.decide(0, nr("connect"), own).fired);
  EXPECT_EQ(own.destReads, 0); // no need to read the sockaddr for the target itself
  // sendto family too.
  ASSERT_TRUE(t.push({rule(0, "sendto", Action::deny(111))}, err));
  FakeFacts send;
  send.d = local(6379);
  EXPECT_TRUE(t.decide(2, nr("sendmsg"), send).fired);
}

TEST(Rules, WriteRulesDoNotReachOtherServices) {
  RuleTable t;
  t.setServicePorts(0, {6379});
  std::string err;
  ASSERT_TRUE(t.push({rule(0, "write", Action::deny(5))}, err));
  FakeFacts f;
  f.d = local(6379);
  f.p = "socket:[1]";
  EXPECT_FALSE(t.decide(1, nr("write"), f).fired);
}

TEST(Rules, PathGlobAndSystemPaths) {
  RuleTable t;
  std::string err;
  RuleSpec g = rule(0, "openat", Action::deny(13));
  g.pathGlob = "/data/*.db";
  ASSERT_TRUE(t.push({g}, err));
  FakeFacts hit, miss, unresolved;
  hit.p = "/data/a.db";
  miss.p = "/data/a.txt";
  EXPECT_TRUE(t.decide(0, nr("openat"), hit).fired);
  EXPECT_FALSE(t.decide(0, nr("openat"), miss).fired);
  // Unlike the reference, an unresolved path never matches a glob.
  EXPECT_FALSE(t.decide(0, nr("openat"), unresolved).fired);

  RuleTable u;
  ASSERT_TRUE(u.push({rule(0, "openat", Action::deny(13))}, err));
  FakeFacts lib;
  lib.p = "/usr/lib/x86_64-linux-gnu/libc.so.6";
  Decision d = u.decide(0, nr("openat"), lib);
  EXPECT_FALSE(d.fired);
  EXPECT_TRUE(d.systemPathExempt);
  FakeFacts data;
  data.p = "/srv/data";
  EXPECT_TRUE(u.decide(0, nr("openat"), data).fired);
}

TEST(Rules, InnermostScopeFirstAndPopRestores) {
  RuleTable t;
  std::string err;
  ScopeId outer = *t.push({rule(0, "write", Action::deny(5))}, err);
  ScopeId inner = *t.push({rule(0, "write", Action::delay(1000))}, err);
  FakeFacts f;
  f.p = "/x";
  EXPECT_EQ(t.decide(0, nr("write"), f).action.kind, ActionKind::Delay);
  std::vector<RuleStats> s = t.pop(inner);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].fires, 1u);
  EXPECT_EQ(t.decide(0, nr("write"), f).action.kind, ActionKind::Deny);
  t.pop(outer);
  EXPECT_FALSE(t.decide(0, nr("write"), f).fired);
}

TEST(Rules, OverridePinsOccurrences) {
  std::string err;
  FakeFacts f;
  f.p = "/x";
  std::string seq;
  RuleTable u;
  RuleSpec pinned = rule(0, "fsync", Action::deny(5));
  pinned.probability = 0.5;
  pinned.decisionOverride = [](uint64_t occ) -> std::optional<bool> {
    if (occ < 3)
      return occ == 1; // . x .
    return std::nullopt;
  };
  ASSERT_TRUE(u.push({pinned}, err));
  seq.clear();
  for (int i = 0; i < 3; ++i)
    seq += u.decide(0, nr("fsync"), f).fired ? 'x' : '.';
  EXPECT_EQ(seq, ".x.");
}

TEST(Rules, ProbabilityStreamsAreSeededAndPerRule) {
  auto draw = [](uint64_t seed, bool withOther) {
    RuleTable t(seed);
    t.setServiceName(0, "db");
    std::string err;
    RuleSpec a = rule(0, "fsync", Action::deny(5));
    a.probability = 0.5;
    std::vector<RuleSpec> rules{a};
    if (withOther) {
      RuleSpec b = rule(0, "write", Action::deny(5));
      b.probability = 0.5;
      rules.push_back(b);
    }
    EXPECT_TRUE(t.push(rules, err));
    FakeFacts f;
    f.p = "/x";
    std::string seq;
    for (int i = 0; i < 64; ++i) {
      seq += t.decide(0, nr("fsync"), f).fired ? 'x' : '.';
      if (withOther)
        t.decide(0, nr("write"), f); // interleaved draws of another rule
    }
    return seq;
  };
  EXPECT_EQ(draw(1, false), draw(1, false));
  EXPECT_NE(draw(1, false), draw(2, false));
  // Another rule's draws do not shift this rule's stream.
  EXPECT_EQ(draw(1, false), draw(1, true));
}

TEST(Rules, TrapSets) {
  std::vector<std::vector<int>> sets;
  std::string err;
  std::vector<RuleSpec> rules{rule(0, "connect", Action::deny(111)),
                              rule(1, "fsync", Action::deny(5))};
  ASSERT_TRUE(trapSets(3, rules, sets, err)) << err;
  auto has = [&](size_t s, const char *name) {
    return std::find(sets[s].begin(), sets[s].end(), nr(name)) != sets[s].end();
  };
  EXPECT_TRUE(has(0, "connect"));
  EXPECT_TRUE(has(1, "connect")); // to reach the target's ports
  EXPECT_TRUE(has(2, "connect"));
  EXPECT_TRUE(has(1, "fsync") && has(1, "fdatasync"));
  EXPECT_FALSE(has(0, "fsync"));
  EXPECT_FALSE(trapSets(1, rules, sets, err));
}

TEST(Rules, DecisionStrings) {
  EXPECT_EQ(describeAction(Action::allow()), "allow");
  EXPECT_EQ(describeAction(Action::deny(5)), "deny(input/output error)");
  EXPECT_EQ(describeAction(Action::deny(111)), "deny(connection refused)");
  EXPECT_EQ(describeAction(Action::delay(500'000'000)), "delay(500ms)");
  EXPECT_EQ(errnoLabel(28), "ENOSPC");
}

// A trace rule observes: any fault rule, inner or outer, still decides the
// syscall; with none, the decision is the trace. It sees only its own
// service's calls, never calls made to its ports.
TEST(Rules, TraceNeverShadowsAFaultRule) {
  RuleTable t;
  t.setServicePorts(0, {6379});
  std::string err;
  ASSERT_TRUE(t.push({rule(0, "write", Action::deny(5))}, err)); // outer
  ASSERT_TRUE(t.push({rule(0, "write", Action::trace()), rule(0, "connect", Action::trace())},
                     err)); // inner
  FakeFacts f;
  f.p = "/data/wal";
  Decision d = t.decide(0, nr("write"), f);
  EXPECT_TRUE(d.fired);
  EXPECT_EQ(d.action.kind, ActionKind::Deny);
  FakeFacts c;
  c.d = local(5432);
  d = t.decide(0, nr("connect"), c);
  EXPECT_TRUE(d.fired);
  EXPECT_EQ(d.action.kind, ActionKind::Trace);
  EXPECT_FALSE(d.action.faults());
  FakeFacts toTarget;
  toTarget.d = local(6379);
  EXPECT_FALSE(t.decide(1, nr("connect"), toTarget).fired);
  EXPECT_EQ(describeAction(Action::trace()), "trace");
}

// A notification whose thread died before it was decided moves nothing:
// not the rule's matches or fires, not its random draw, not the leaf's
// occurrence index (issue #17).
TEST(Rules, StaleNotificationMovesNoCounter) {
  RuleTable t(42), fresh(42);
  std::string err;
  std::vector<uint64_t> seen; // occurrences the override was asked about
  auto probRule = [&] {
    RuleSpec r = rule(0, "fsync", Action::deny(5));
    r.probability = 0.5;
    r.decisionOverride = [&seen](uint64_t k) -> std::optional<bool> {
      seen.push_back(k);
      return std::nullopt; // leave it to the draw
    };
    return r;
  };
  std::optional<ScopeId> scope = t.push({probRule()}, err);
  ASSERT_TRUE(scope);
  ASSERT_TRUE(fresh.push({probRule()}, err));
  FakeFacts dead;
  dead.p = "/data/wal";
  dead.valid = false;
  Decision d = t.decide(0, nr("fsync"), dead);
  EXPECT_TRUE(d.stale);
  EXPECT_FALSE(d.fired);
  EXPECT_EQ(dead.validChecks, 1);
  EXPECT_TRUE(seen.empty());
  // The same stream as a table that never saw the stale one: no draw was
  // consumed, and the next occurrence is 0.
  std::vector<bool> a, b;
  for (int i = 0; i < 32; ++i) {
    FakeFacts f;
    f.p = "/data/wal";
    a.push_back(t.decide(0, nr("fsync"), f).fired);
    b.push_back(fresh.decide(0, nr("fsync"), f).fired);
  }
  EXPECT_EQ(a, b);
  ASSERT_EQ(seen.size(), 64u);
  EXPECT_EQ(seen[0], 0u);
  std::vector<RuleStats> stats = t.pop(*scope);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].matches, 32u);
  EXPECT_EQ(stats[0].seen.passedOver, 0u);
}

// The validity check happens even when nothing was read from the target
// (a syscall without a path or destination), and a stale one that a glob
// would have passed over is not noted either.
TEST(Rules, ValidityIsCheckedWithoutReadsAndBeforeNotes) {
  RuleTable t;
  std::string err;
  std::optional<ScopeId> scope = t.push({rule(0, "getpid", Action::deny(1))}, err);
  ASSERT_TRUE(scope);
  FakeFacts dead;
  dead.valid = false;
  EXPECT_TRUE(t.decide(0, nr("getpid"), dead).stale);
  EXPECT_EQ(dead.pathReads + dead.destReads, 0);
  EXPECT_EQ(dead.validChecks, 1);
  EXPECT_EQ(t.pop(*scope)[0].matches, 0u);

  RuleSpec g = rule(0, "openat", Action::deny(13));
  g.pathGlob = "**/snap-*";
  scope = t.push({g}, err);
  ASSERT_TRUE(scope);
  FakeFacts other;
  other.p = "/data/other.txt";
  other.valid = false;
  EXPECT_TRUE(t.decide(0, nr("openat"), other).stale);
  RuleStats st = t.pop(*scope)[0];
  EXPECT_EQ(st.seen.passedOver, 0u);
  EXPECT_TRUE(st.seen.paths.empty());
}

// Service 0's syscall `sc` on `path`.
Decision decideOnPath(RuleTable &t, const char *sc, std::string path) {
  FakeFacts f;
  f.p = std::move(path);
  return t.decide(0, nr(sc), f);
}

// What a rule saw instead of a match: the paths its glob (or the system
// path exemption) passed over, distinct and at most kMaxSeen; unresolved
// paths counted; other services' connects elsewhere by address. Trace
// rules note nothing.
TEST(Rules, ZeroTrafficNotesWhatTheRuleSawInstead) {
  RuleTable t;
  t.setServicePorts(0, {6379});
  std::string err;
  RuleSpec g = rule(0, "openat", Action::deny(13));
  g.pathGlob = "**/snap-*";
  RuleSpec bare = rule(0, "fsync", Action::deny(5));
  RuleSpec conn = rule(0, "connect", Action::deny(111));
  RuleSpec tr = rule(0, "read", Action::trace());
  tr.pathGlob = "/nowhere";
  std::optional<ScopeId> scope = t.push({g, bare, conn, tr}, err);
  ASSERT_TRUE(scope) << err;
  for (int i = 0; i < 12; ++i) {
    FakeFacts f;
    f.p = "/data/file" + std::to_string(i % 10);
    EXPECT_FALSE(t.decide(0, nr("openat"), f).fired);
  }
  FakeFacts unresolved;
  EXPECT_FALSE(t.decide(0, nr("openat"), unresolved).fired);
  Decision d = decideOnPath(t, "fsync", "/usr/lib/x86_64-linux-gnu/libc.so.6");
  EXPECT_TRUE(!d.fired && d.systemPathExempt);
  FakeFacts elsewhere;
  elsewhere.d = local(5432);
  EXPECT_FALSE(t.decide(1, nr("connect"), elsewhere).fired);
  FakeFacts r;
  r.p = "/data/x";
  EXPECT_FALSE(t.decide(0, nr("read"), r).fired);

  std::vector<RuleStats> st = t.pop(*scope);
  ASSERT_EQ(st.size(), 4u);
  EXPECT_EQ(st[0].matches, 0u);
  EXPECT_EQ(st[0].seen.passedOver, 13u);
  EXPECT_EQ(st[0].seen.unresolved, 1u);
  ASSERT_EQ(st[0].seen.paths.size(), kMaxSeen);
  EXPECT_EQ(st[0].seen.paths[0], "/data/file0");
  EXPECT_EQ(st[0].seen.paths[7], "/data/file7");
  EXPECT_EQ(st[1].seen.paths, std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/libc.so.6"});
  EXPECT_EQ(st[2].seen.destinations, std::vector<std::string>{local(5432).text()});
  EXPECT_EQ(st[2].seen.passedOver, 1u);
  EXPECT_EQ(st[3].seen.passedOver, 0u); // a trace rule
}

} // namespace
} // namespace fbc::rt
