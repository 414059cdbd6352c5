#include "ir/topology.h"

#include <gtest/gtest.h>

namespace fbc::ir {
namespace {

Service svc(std::string name, std::vector<std::string> deps = {}) {
  Service s;
  s.name = std::move(name);
  for (std::string &d : deps)
    s.dependsOn.push_back({std::move(d), {}});
  return s;
}

std::vector<std::string> order(const std::vector<Service> &services) {
  std::vector<std::string> out;
  for (size_t i : topologicalOrder(services))
    out.push_back(services[i].name);
  return out;
}

using Names = std::vector<std::string>;

TEST(Topology, DependenciesFirstThenByName) {
  std::vector<Service> s = {svc("api", {"db", "redis"}), svc("worker", {"db"}), svc("redis"),
                            svc("db")};
  EXPECT_EQ(order(s), (Names{"db", "redis", "api", "worker"}));
  EXPECT_TRUE(findCycle(s).empty());
}

TEST(Topology, UndeclaredAndRepeatedDependenciesAreIgnored) {
  std::vector<Service> s = {svc("b", {"a", "a", "ghost"}), svc("a")};
  EXPECT_EQ(order(s), (Names{"a", "b"}));
}

TEST(Topology, CycleIsReportedFromItsSmallestName) {
  std::vector<Service> s = {svc("web", {"cache"}), svc("cache", {"db"}), svc("db", {"web"}),
                            svc("solo")};
  EXPECT_EQ(findCycle(s), (Names{"cache", "db", "web", "cache"}));
  // Services on the cycle follow the others, by name.
  EXPECT_EQ(order(s), (Names{"solo", "cache", "db", "web"}));
}

TEST(Topology, SelfDependencyIsACycle) {
  std::vector<Service> s = {svc("a", {"a"})};
  EXPECT_EQ(findCycle(s), (Names{"a", "a"}));
}

} // namespace
} // namespace fbc::ir
