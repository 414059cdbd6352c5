// runtime/explore/dpor.h on a model of threads whose calls touch named
// resources: every order of the calls is enumerated by brute force and
// grouped into Mazurkiewicz classes (orders that agree on the order of
// every dependent pair); DPOR must run at least one order of each class,
// and fewer orders than the brute force.
#include "runtime/explore/dpor.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace fbc::rt::explore {
namespace {

struct Op {
  std::string name; // the syscall
  std::vector<std::string> keys;
};
using Program = std::vector<std::vector<Op>>; // per thread, its calls in order

std::string callOf(size_t thread, size_t seq, const Op &op) {
  return callName("svc", uint32_t(thread), uint32_t(seq), op.name);
}

Access accessOfOp(const Op &op) {
  Access a;
  a.known = true;
  a.keys = op.keys;
  std::sort(a.keys.begin(), a.keys.end());
  return a;
}

// Runs the program under `chooser`: every unfinished thread's next call
// waits; the chooser picks one per step.
std::vector<Step> runModel(const Program &p, Chooser &chooser) {
  std::vector<size_t> at(p.size(), 0);
  std::vector<Step> steps;
  while (true) {
    std::vector<std::pair<std::string, size_t>> waiting;
    for (size_t t = 0; t < p.size(); ++t)
      if (at[t] < p[t].size())
        waiting.emplace_back(callOf(t, at[t], p[t][at[t]]), t);
    if (waiting.empty())
      return steps;
    std::sort(waiting.begin(), waiting.end());
    Step s;
    for (const auto &[name, t] : waiting) {
      s.waiting.push_back(name);
      s.access.push_back(accessOfOp(p[t][at[t]]));
    }
    s.chosen = chooser.choose(steps.size(), s.waiting);
    ++at[waiting[s.chosen].second];
    steps.push_back(std::move(s));
  }
}

// A class: for every dependent pair of calls of different threads, which
// went first (calls named as released).
using Class = std::set<std::pair<std::string, std::string>>;
Class classOf(const std::vector<Step> &steps) {
  Class c;
  for (size_t i = 0; i < steps.size(); ++i)
    for (size_t j = i + 1; j < steps.size(); ++j)
      if (threadOf(steps[i].released()) != threadOf(steps[j].released()) &&
          dependent(steps[i].access[steps[i].chosen], steps[j].access[steps[j].chosen]))
        c.insert({steps[i].released(), steps[j].released()});
  return c;
}

std::set<Class> allClasses(const Program &p, uint64_t &orders) {
  std::set<Class> out;
  orders = 0;
  std::vector<std::string> prefix;
  while (true) {
    PrefixChooser c(prefix);
    std::vector<Step> steps = runModel(p, c);
    ++orders;
    out.insert(classOf(steps));
    std::optional<std::vector<std::string>> next = nextDepthFirst(steps);
    if (!next)
      return out;
    prefix = *next;
  }
}

struct Explored {
  uint64_t leaves = 0;
  std::set<Class> classes;
  uint64_t cut = 0;
  uint64_t counted = 0; // Dpor::classes(): what the coverage statement says
};

Explored explore(const Program &p, std::optional<uint32_t> bound = std::nullopt) {
  Explored e;
  Dpor dpor(bound);
  std::vector<std::string> prefix;
  while (true) {
    PrefixChooser c(prefix, /*stick=*/true);
    std::vector<Step> steps = runModel(p, c);
    EXPECT_FALSE(c.diverged());
    ++e.leaves;
    e.classes.insert(classOf(steps));
    dpor.ran(steps, c.diverged());
    std::optional<std::vector<std::string>> next = dpor.next();
    if (!next || e.leaves > 100000)
      break;
    prefix = *next;
  }
  e.cut = dpor.cut();
  e.counted = dpor.classes();
  // Dpor counts the classes its leaves ran as this test's brute force does.
  EXPECT_EQ(e.counted, e.classes.size());
  return e;
}

// A client's request to the counter fixture: receive on its connection,
// read and write the counter file, reply.
std::vector<Op> increment(const std::string &conn) {
  return {{"recvfrom", {"tcp:" + conn}},
          {"pread64", {"file:counter"}},
          {"pwrite64", {"file:counter"}},
          {"sendto", {"tcp:" + conn}}};
}

TEST(Dpor, CounterIncrementsRunEveryClassInFewerOrders) {
  Program p{increment("a"), increment("b")};
  uint64_t orders = 0;
  std::set<Class> classes = allClasses(p, orders);
  EXPECT_EQ(orders, 70u);        // C(8,4)
  EXPECT_EQ(classes.size(), 6u); // the orders of pread/pwrite/pread/pwrite: C(4,2)
  Explored e = explore(p);
  EXPECT_EQ(e.classes, classes);
  EXPECT_EQ(e.leaves, 6u); // one order per class: none twice
}

TEST(Dpor, ThreeClientsThreeCallsEach) {
  // Each: read and write one shared key, then reply on its own connection.
  auto client = [](const std::string &conn) {
    return std::vector<Op>{{"read", {"file:k"}}, {"write", {"file:k"}}, {"sendto", {conn}}};
  };
  Program p{client("a"), client("b"), client("c")};
  uint64_t orders = 0;
  std::set<Class> classes = allClasses(p, orders);
  EXPECT_EQ(orders, 1680u); // 9! / (3!)^3
  Explored e = explore(p);
  EXPECT_EQ(e.classes, classes);
  EXPECT_EQ(classes.size(), 90u);
  EXPECT_EQ(e.leaves, 90u); // one per class, 1/18 of the orders
}

TEST(Dpor, DisjointResourcesAreOneClass) {
  Program p{increment("a"), increment("b")};
  p[1][1].keys = p[1][2].keys = {"file:other"};
  Explored e = explore(p);
  EXPECT_EQ(e.leaves, 1u);
  EXPECT_EQ(e.classes.size(), 1u);
}

TEST(Dpor, UnknownAccessIsDependentWithEverything) {
  Access unknown, file;
  file.known = true;
  file.keys = {"file:1:2"};
  EXPECT_TRUE(dependent(unknown, file));
  EXPECT_TRUE(dependent(file, unknown));
  Access other = file;
  other.keys = {"file:1:3"};
  EXPECT_FALSE(dependent(file, other));
}

TEST(Dpor, PreemptionBoundCutsAndCounts) {
  Program p{increment("a"), increment("b")};
  Explored none = explore(p, 0u);
  // Without preemption: one client's calls, then the other's.
  EXPECT_EQ(none.leaves, 2u);
  EXPECT_EQ(none.classes.size(), 2u);
  EXPECT_EQ(none.cut, 1u);
  Explored one = explore(p, 1u);
  EXPECT_EQ(one.leaves, 4u);
  EXPECT_EQ(one.cut, 2u);
  Explored unbounded = explore(p);
  EXPECT_EQ(unbounded.cut, 0u);
}

} // namespace
} // namespace fbc::rt::explore
