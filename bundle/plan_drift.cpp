#include "bundle/plan_drift.h"

#include "bundle/plan_reader.h"
#include "ir/plan.h"

#include <map>
#include <optional>
#include <set>

namespace fbc::bundle {
namespace {

// An axis of a test as drift compares it: its composition's kind, and its
// size (the listed values' count when plan.json gives values but no size).
struct Axis {
  std::string kind; // choose, probability, interleaving, fault_matrix
  std::string name;
  std::optional<uint64_t> size;
  std::vector<std::string> values;
};

struct PlanTest {
  std::string name;
  uint64_t instances = 0;
  bool estimated = false, saturated = false;
  std::vector<Axis> axes;
};

llvm::Expected<std::vector<PlanTest>> parsePlan(std::string_view json, const char *which) {
  auto fail = [&](const std::string &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   std::string(which) + " plan: " + msg);
  };
  llvm::Expected<PlanJson> plan = readPlanJson(json);
  if (!plan)
    return fail(toString(plan.takeError()));
  std::vector<PlanTest> out;
  for (const PlanJsonTest &t : plan->tests) {
    PlanTest p{t.name, t.instances, t.estimated, t.saturated, {}};
    for (const PlanJsonComposition &c : t.compositions)
      for (const PlanJsonAxis &a : c.axes) {
        std::optional<uint64_t> size = a.size;
        if (!size && a.valuesListed)
          size = a.values.size();
        for (const Axis &seen : p.axes)
          if (seen.kind == c.kind && seen.name == a.name)
            return fail("test " + p.name + ": the " + c.kind + " axis \"" + a.name +
                        "\" appears twice");
        p.axes.push_back({c.kind, a.name, size, a.values});
      }
    out.push_back(std::move(p));
  }
  // fbc writes each test once: a plan that names one twice could not be
  // compared test by test (it would even drift from itself).
  std::set<std::string_view> names;
  for (const PlanTest &t : out)
    if (!names.insert(t.name).second)
      return fail("test " + t.name + " appears twice");
  return out;
}

// What one step of an axis is: an option of a choose() or a matrix, a leaf
// of a probability or interleaving fan-out.
std::string unitWord(const std::string &kind, uint64_t n) {
  if (kind == "choose" || kind == "fault_matrix")
    return n == 1 ? "option" : "options";
  return n == 1 ? "leaf" : "leaves";
}

std::string sizeText(const std::optional<uint64_t> &s) {
  return s ? std::to_string(*s) : "unknown";
}

// What changed between two versions of one test's axes.
std::vector<std::string> axisChanges(const PlanTest &o, const PlanTest &n) {
  std::vector<std::string> out;
  auto find = [](const PlanTest &t, const Axis &a) -> const Axis * {
    for (const Axis &x : t.axes)
      if (x.kind == a.kind && x.name == a.name)
        return &x;
    return nullptr;
  };
  for (const Axis &a : o.axes) {
    const Axis *b = find(n, a);
    std::string what = a.kind + " axis \"" + a.name + "\"";
    if (!b) {
      out.push_back(what + " is gone");
    } else if (a.size != b->size) {
      if (a.size && b->size) {
        uint64_t d = *b->size > *a.size ? *b->size - *a.size : *a.size - *b->size;
        out.push_back(what + (*b->size > *a.size ? " gained " : " lost ") + std::to_string(d) +
                      " " + unitWord(a.kind, d));
      } else {
        out.push_back(what + " size " + sizeText(a.size) + " → " + sizeText(b->size));
      }
    } else if (a.values != b->values) {
      out.push_back(what + " options changed");
    }
  }
  for (const Axis &b : n.axes)
    if (!find(o, b))
      out.push_back("new " + b.kind + " axis \"" + b.name + "\" (" + sizeText(b.size) + ")");
  return out;
}

std::string instancesText(const PlanTest &t) {
  return t.saturated ? ir::Count::saturatedCount().str()
                     : ir::Count{t.instances, !t.estimated}.str();
}

} // namespace

llvm::Expected<std::vector<std::string>> planDrift(std::string_view oldPlan,
                                                   std::string_view newPlan) {
  llvm::Expected<std::vector<PlanTest>> o = parsePlan(oldPlan, "the bundle's");
  if (!o)
    return o.takeError();
  llvm::Expected<std::vector<PlanTest>> n = parsePlan(newPlan, "the replayed");
  if (!n)
    return n.takeError();
  std::map<std::string, const PlanTest *> oldByName, newByName;
  for (const PlanTest &t : *o)
    oldByName.emplace(t.name, &t);
  for (const PlanTest &t : *n)
    newByName.emplace(t.name, &t);
  std::vector<std::string> out;
  for (const PlanTest &t : *o) {
    auto it = newByName.find(t.name);
    if (it == newByName.end()) {
      out.push_back("plan drift: " + t.name + " had " + instancesText(t) +
                    " instances, now it is not in the plan");
      continue;
    }
    const PlanTest &m = *it->second;
    std::vector<std::string> changes = axisChanges(t, m);
    if (changes.empty() && t.instances == m.instances && t.estimated == m.estimated &&
        t.saturated == m.saturated)
      continue;
    std::string line = "plan drift: " + t.name + " had " + instancesText(t) + " instances, now " +
                       instancesText(m);
    if (!changes.empty()) {
      line += " (";
      for (size_t i = 0; i < changes.size(); ++i)
        line += (i ? ", " : "") + changes[i];
      line += ")";
    }
    out.push_back(line);
  }
  for (const PlanTest &t : *n)
    if (!oldByName.count(t.name))
      out.push_back("plan drift: " + t.name + " is new, with " + instancesText(t) + " instances");
  return out;
}

} // namespace fbc::bundle
