// The shard assignment (backend/shard.h): the static leaf estimate, the
// greedy balance, one shard's selection, and the plan's shards block.
#include "backend/shard.h"

#include "frontend/syntax/walk.h"
#include "ir/duration.h"
#include "passes/fault_calls.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <numeric>

namespace fbc::backend {

namespace {

constexpr int64_t kLeafBaseMs = 50;
constexpr int64_t kDefaultTimeoutMs = 60000; // fbc run's default --timeout

// Saturating: a spec may declare absurd delays.
int64_t addMs(int64_t a, int64_t b) {
  return b > INT64_MAX - a ? INT64_MAX : a + b;
}

// A delay of `ns` that fires `maxFires` times (once when unbounded).
int64_t firesMs(int64_t ns, int64_t maxFires) {
  int64_t one = ns / 1000000;
  int64_t times = std::max<int64_t>(1, maxFires);
  return one > INT64_MAX / times ? INT64_MAX : one * times;
}

// Delay rules of assumption `name` (syscall and protocol rules) and those
// it composes (each once).
int64_t assumptionDelayMs(const ir::Spec &spec, const std::string &name,
                          std::vector<std::string> &seen) {
  if (std::find(seen.begin(), seen.end(), name) != seen.end())
    return 0;
  seen.push_back(name);
  const ir::FaultAssumption *a = spec.findAssumption(name);
  if (!a)
    return 0;
  int64_t ms = 0;
  for (const ir::FaultRule &r : a->rules)
    if (r.fault.action == ir::FaultAction::Delay)
      ms = addMs(ms, firesMs(r.fault.delayNs, r.fault.maxFires));
  for (const ir::ProxyRule &r : a->proxyRules)
    if (r.action == ir::ProxyAction::Delay)
      ms = addMs(ms, firesMs(r.delayNs, r.maxFires));
  for (const std::string &f : a->faults)
    ms = addMs(ms, assumptionDelayMs(spec, f, seen));
  return ms;
}

// The duration a delay()/sleep() call states with a literal: its first
// positional argument, or delay()'s delay= keyword (the protocol rule's
// form); 0 when none.
int64_t literalDelayMs(const syntax::CallExpr *c) {
  const syntax::Expr *arg = nullptr;
  for (const syntax::Argument &a : c->args)
    if (!arg && a.kind == syntax::Argument::Kind::Positional)
      arg = a.value;
    else if (a.kind == syntax::Argument::Kind::Named && a.name && a.name->name == "delay")
      arg = a.value;
  auto *lit = arg ? llvm::dyn_cast<syntax::StringLit>(arg) : nullptr;
  if (!lit)
    return 0;
  std::string error;
  std::optional<int64_t> ns = ir::parseDuration(lit->value, error);
  return ns && *ns > 0 ? *ns / 1000000 : 0;
}

// Literal delay("D"), delay(delay="D") and sleep("D") calls in a function
// (nested defs and lambdas included).
int64_t bodyDelayMs(const ir::FunctionRef &f) {
  if (!f.syntax)
    return 0;
  int64_t ms = 0;
  syntax::forEachCall(f.syntax, [&](const syntax::CallExpr *c) {
    if (passes::isBuiltinCall(c, "delay") || passes::isBuiltinCall(c, "sleep"))
      ms = addMs(ms, literalDelayMs(c));
  });
  return ms;
}

} // namespace

int64_t serviceStartMs(const ir::Spec &spec, const ServiceStartMs &start) {
  int64_t ms = 0;
  for (const ir::Service &s : spec.services) {
    auto it = start.find(s.name);
    // A reused service starts once for the run, not per leaf.
    if (!s.reuse && it != start.end())
      ms = addMs(ms, it->second);
  }
  return ms;
}

int64_t estimateLeafMs(const ir::Test &t, const ir::Spec &spec, const ServiceStartMs *start) {
  int64_t ms = kLeafBaseMs;
  std::vector<std::string> seen;
  for (const std::string &f : t.faults)
    ms = addMs(ms, assumptionDelayMs(spec, f, seen));
  ms = addMs(ms, bodyDelayMs(t.body));
  if (t.setup)
    ms = addMs(ms, bodyDelayMs(*t.setup));
  int64_t timeoutMs = kDefaultTimeoutMs;
  if (t.kind != ir::TestKind::Def && t.kind != ir::TestKind::Scenario && t.timeoutNs &&
      *t.timeoutNs > 0)
    timeoutMs = std::max<int64_t>(1, *t.timeoutNs / 1000000);
  ms = std::min(ms, timeoutMs);
  return start ? addMs(ms, serviceStartMs(spec, *start)) : ms;
}

bool assignShards(const ir::LeafProgram &p, uint32_t n, const MeasuredDurations *measured,
                  const std::vector<bool> &include, ShardPlan &out, std::string &error) {
  out = ShardPlan{};
  out.count = std::max<uint32_t>(1, n);
  for (uint32_t i = 0; i < p.tests.size(); ++i) {
    if (!include.empty() && !include[i])
      continue;
    const ir::LeafTest &lt = p.tests[i];
    const ir::Test &t = *lt.test;
    // A leaf the earlier run did not have: its own estimate, with the
    // services' start as that run measured it.
    const ServiceStartMs *start =
        measured && !measured->serviceStart.empty() ? &measured->serviceStart : nullptr;
    int64_t estimate = estimateLeafMs(t, *p.spec, start);
    int64_t startMs = start ? serviceStartMs(*p.spec, *start) : 0;
    const std::map<std::string, int64_t> *rows = nullptr;
    if (measured) {
      auto it = measured->rows.find(t.name);
      if (it != measured->rows.end())
        rows = &it->second;
    }
    bool whole = !lt.count.exact;
    uint64_t leaves = whole ? 1 : lt.count.value;
    if (leaves > kMaxShardUnits - out.units.size()) {
      error = "the plan has more than " + std::to_string(kMaxShardUnits) +
              " leaves; sharding deals out leaves one by one and stops there";
      return false;
    }
    for (uint64_t k = 0; k < leaves; ++k) {
      ShardUnit u;
      u.test = i;
      u.leaf = k;
      u.wholeTest = whole;
      // A whole test: its leaves as far as the plan knows them.
      u.costMs = whole && lt.count.value > uint64_t(INT64_MAX / estimate)
                     ? INT64_MAX
                     : estimate * int64_t(whole ? lt.count.value : 1);
      u.startMs = startMs;
      if (rows && whole) {
        // Every row the earlier run had of this test.
        u.costMs = 0;
        for (const auto &[id, ms] : *rows)
          u.costMs = addMs(u.costMs, ms);
        u.measured = true;
        u.startMs = 0;
      } else if (rows) {
        auto it = rows->find(std::to_string(k));
        if (it != rows->end()) {
          u.costMs = it->second;
          u.measured = true;
          u.startMs = 0;
        }
      }
      u.costMs = std::max<int64_t>(u.costMs, 1);
      out.units.push_back(u);
    }
  }
  // Longest first, each to the lightest shard: integers and explicit ties,
  // so every machine computes the same split.
  std::vector<size_t> order(out.units.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return out.units[a].costMs > out.units[b].costMs; });
  out.costMs.assign(out.count, 0);
  out.unitCount.assign(out.count, 0);
  for (size_t i : order) {
    uint32_t best = 0;
    for (uint32_t s = 1; s < out.count; ++s)
      if (out.costMs[s] < out.costMs[best])
        best = s;
    out.units[i].shard = best;
    out.costMs[best] = addMs(out.costMs[best], out.units[i].costMs);
    ++out.unitCount[best];
  }
  return true;
}

bool LeafSelection::PerTest::runs(uint64_t leaf) const {
  return all || std::binary_search(leaves.begin(), leaves.end(), leaf);
}

LeafSelection selectShard(const ShardPlan &plan, size_t programTests, uint32_t shard) {
  LeafSelection sel;
  sel.tests.resize(programTests);
  for (const ShardUnit &u : plan.units) {
    if (u.shard != shard)
      continue;
    LeafSelection::PerTest &t = sel.tests[u.test];
    if (u.wholeTest)
      t.all = true;
    else
      t.leaves.push_back(u.leaf); // units are in plan order: ascending
  }
  return sel;
}

std::string shardUnitName(const ir::LeafProgram &p, const ShardUnit &u) {
  const ir::LeafTest &lt = p.tests[u.test];
  const std::string &name = lt.test->name;
  if (u.wholeTest)
    return name + " [every leaf: " + lt.count.str() + "]";
  if (!lt.fansOut())
    return name;
  ir::LeafAssignment a = lt.decode(u.leaf);
  return ir::leafDisplayName(name, a.id(), ir::leafAxesLabel(lt, a));
}

std::string estimateText(int64_t ms) {
  return ir::formatDuration(ms >= INT64_MAX / 1000000 ? INT64_MAX : ms * 1000000);
}

ir::Count shardLeafCount(const ir::LeafProgram &p, const ShardPlan &s, std::optional<uint32_t> k) {
  ir::Count c{0, true};
  for (const ShardUnit &u : s.units)
    if (!k || u.shard == *k)
      c += u.wholeTest ? p.tests[u.test].count : ir::Count{1, true};
  return c;
}

void emitShardsText(const ir::LeafProgram &p, const ShardPlan &s, llvm::raw_ostream &os) {
  size_t measured =
      std::count_if(s.units.begin(), s.units.end(), [](const ShardUnit &u) { return u.measured; });
  ir::Count all = shardLeafCount(p, s, std::nullopt);
  os << "\nShards: " << s.count << " (" << all.str() << (all.value == 1 ? " leaf" : " leaves")
     << ", balanced by ";
  if (measured == s.units.size() && measured)
    os << "measured durations";
  else if (measured)
    os << "measured durations for " << measured << " of " << s.units.size()
       << " units, the rest estimated";
  else
    os << "estimated durations";
  os << ")\n";
  for (uint32_t k = 0; k < s.count; ++k) {
    ir::Count n = shardLeafCount(p, s, k);
    os << "  shard " << (k + 1) << "/" << s.count << ": " << n.str()
       << (n.value == 1 ? " leaf" : " leaves") << ", ~" << estimateText(s.costMs[k]) << "\n";
    for (const ShardUnit &u : s.units)
      if (u.shard == k) {
        os << "    " << shardUnitName(p, u) << "  ~" << estimateText(u.costMs);
        if (u.measured)
          os << " (measured)";
        else if (u.startMs)
          os << " (services' measured start ~" << estimateText(u.startMs) << ")";
        os << "\n";
      }
  }
}

void emitShardsJson(const ir::LeafProgram &p, const ShardPlan &s, ir::JsonWriter &w) {
  w.key("shards");
  w.beginArray();
  for (uint32_t k = 0; k < s.count; ++k) {
    w.beginObject();
    w.field("shard", int64_t(k + 1));
    w.field("of", int64_t(s.count));
    w.field("estimated_ms", s.costMs[k]);
    w.key("leaves");
    w.beginArray();
    for (const ShardUnit &u : s.units) {
      if (u.shard != k)
        continue;
      w.beginObject(true);
      w.field("test", p.tests[u.test].test->name);
      if (u.wholeTest)
        w.field("leaf", "all");
      else if (p.tests[u.test].fansOut())
        w.field("leaf", std::to_string(u.leaf));
      w.field("estimated_ms", u.costMs);
      if (u.measured)
        w.field("measured", true);
      else if (u.startMs)
        w.field("service_start_ms", u.startMs);
      w.endObject();
    }
    w.endArray();
    w.endObject();
  }
  w.endArray();
}

} // namespace fbc::backend
