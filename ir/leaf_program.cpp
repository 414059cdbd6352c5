#include "ir/leaf_program.h"

#include "ir/host_needs.h"

#include "ir/quote.h"
#include "ir/syscalls.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>

namespace fbc::ir {

LeafAssignment LeafTest::decode(uint64_t index) const {
  LeafAssignment a;
  a.index = index;
  uint64_t rem = index;
  a.digits.reserve(axes.size());
  for (const LeafAxis &ax : axes) {
    uint64_t size = std::max<uint64_t>(1, ax.size);
    a.digits.push_back(rem % size);
    rem /= size;
  }
  return a;
}

std::vector<std::vector<int>> LeafTest::trapsFor(const LeafAssignment &a) const {
  std::vector<std::vector<int>> out = traps;
  for (const OptionTraps &o : optionTraps) {
    if (o.axis >= a.digits.size() || a.digits[o.axis] != o.option || o.service >= out.size())
      continue;
    std::vector<int> &set = out[o.service];
    set.insert(set.end(), o.syscalls.begin(), o.syscalls.end());
    std::sort(set.begin(), set.end());
  }
  return out;
}

bool LeafAxis::isSite(const Loc &loc) const {
  for (const Loc &s : plan.sites)
    if (sameLoc(s, loc))
      return true;
  return false;
}

int LeafTest::findAxis(AxisKind kind, const Loc &loc) const {
  for (size_t a = 0; a < axes.size(); ++a)
    if (axes[a].kind() == kind && axes[a].isSite(loc))
      return int(a);
  return -1;
}

int LeafTest::findAxis(const RuleSite &site) const {
  // A site planned for its own service before one planned for any service.
  int any = -1;
  for (size_t a = 0; a < axes.size(); ++a)
    if (axes[a].kind() == AxisKind::Probability)
      for (const RuleSite &s : axes[a].plan.ruleSites)
        if (ruleSiteMatches(s, site)) {
          if (s.service >= 0)
            return int(a);
          if (any < 0)
            any = int(a);
        }
  return any;
}

std::span<const LoweredRule> LeafTest::findCallRules(const Loc &at, int service,
                                                     std::string_view keyword) const {
  // Sorted by site: one site's rules (a named op's syscalls) are adjacent.
  auto here = [&](const LoweredRule &r) {
    return r.site.service == service && r.site.keyword == keyword && sameLoc(r.site.at, at);
  };
  auto first = std::find_if(callRules.begin(), callRules.end(), here);
  auto last = std::find_if_not(first, callRules.end(), here);
  return {first, last};
}

void LeafTest::resize(size_t axis, uint64_t size) {
  axes[axis].size = std::max<uint64_t>(1, size);
  axes[axis].known = true;
  recount();
}

void LeafTest::recount() {
  count = Count{1, true};
  // An axis too large to count saturates the count, as the plan's does.
  for (const LeafAxis &ax : axes)
    count *= ax.plan.unknown == UnknownReason::TooLarge
                 ? Count::saturatedCount()
                 : Count{std::max<uint64_t>(1, ax.size), ax.known};
  if (explored() || dpor)
    count.exact = false;
}

bool LeafTest::explored() const {
  for (const std::vector<int> &h : holds)
    if (!h.empty())
      return true;
  return false;
}

uint64_t defaultExploreBudget(ExploreOptions::Policy p) {
  return p == ExploreOptions::Policy::Sample ? 100 : 1000;
}

const char *explorePolicyName(ExploreOptions::Policy p) {
  switch (p) {
  case ExploreOptions::Policy::None:
    return "none";
  case ExploreOptions::Policy::All:
    return "all";
  case ExploreOptions::Policy::Sample:
    return "sample";
  }
  return "none";
}

const LeafTest *LeafProgram::find(std::string_view testName) const {
  for (const LeafTest &t : tests)
    if (t.test->name == testName)
      return &t;
  return nullptr;
}

const LoweredAssumption *LeafProgram::findAssumption(std::string_view name) const {
  for (const LoweredAssumption &a : assumptions)
    if (a.name == name)
      return &a;
  return nullptr;
}

std::vector<bool> probabilityVector(uint64_t digit, int64_t maxFires) {
  std::vector<bool> v(size_t(std::max<int64_t>(0, maxFires)));
  for (size_t k = 0; k < v.size(); ++k)
    v[k] = k < 64 && ((digit >> k) & 1);
  return v;
}

std::vector<uint32_t> launchOrder(uint64_t k, uint32_t n) {
  std::vector<uint32_t> pool(n), out;
  for (uint32_t i = 0; i < n; ++i)
    pool[i] = i;
  // factorials up to 20! fit 64 bits; beyond that the leading digits are 0.
  std::vector<uint64_t> fact(n + 1, 1);
  bool overflow = false;
  for (uint32_t i = 1; i <= n; ++i) {
    if (fact[i - 1] > UINT64_MAX / i)
      overflow = true;
    fact[i] = overflow ? UINT64_MAX : fact[i - 1] * i;
  }
  if (!overflow && k >= fact[n])
    return pool;
  for (uint32_t i = n; i > 0; --i) {
    uint64_t f = fact[i - 1];
    uint64_t d = f == UINT64_MAX ? 0 : k / f;
    if (f != UINT64_MAX)
      k %= f;
    out.push_back(pool[d]);
    pool.erase(pool.begin() + d);
  }
  return out;
}

std::string fireBits(const std::vector<bool> &v) {
  std::string s;
  for (bool b : v)
    s += b ? '1' : '0';
  return s;
}

namespace {

std::string basename(const std::string &s) {
  size_t slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

} // namespace

std::string leafLabel(const LeafFields &f) {
  std::string out;
  auto add = [&](const std::string &part) { out += (out.empty() ? "" : ", ") + part; };
  for (const auto &[k, d] : f.choices) {
    auto value = f.choiceValues.find(k);
    add(k + "=" + (value != f.choiceValues.end() ? value->second : std::to_string(d)));
  }
  for (const auto &[k, v] : f.probability)
    add(k + "[" + fireBits(v) + "]");
  for (const auto &[k, d] : f.interleavings)
    add(basename(k) + "#" + std::to_string(d));
  if (!f.schedule.empty())
    add("schedule=" + f.schedule);
  return out;
}

std::string leafAxesLabel(const LeafTest &t, const LeafAssignment &a) {
  LeafFields f;
  for (size_t i = 0; i < t.axes.size(); ++i) {
    const LeafAxis &ax = t.axes[i];
    uint64_t d = i < a.digits.size() ? a.digits[i] : 0;
    switch (ax.kind()) {
    case AxisKind::Choose:
      f.choices.emplace(ax.name(), d);
      if (std::optional<std::string> v = ax.optionValue(d))
        f.choiceValues.emplace(ax.name(), *v);
      break;
    case AxisKind::Probability:
      f.probability.emplace(ax.name(), probabilityVector(d, ax.plan.maxFires));
      break;
    case AxisKind::Interleaving:
      f.interleavings.emplace(ax.name(), d);
      break;
    }
  }
  return leafLabel(f);
}

std::string leafDisplayName(const std::string &test, const std::string &id,
                            const std::string &label) {
  return test + " [leaf " + id + (label.empty() ? "" : " \u2014 " + label) + "]";
}

} // namespace fbc::ir
