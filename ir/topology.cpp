#include "ir/topology.h"

#include <algorithm>
#include <map>
#include <set>

namespace fbc::ir {

namespace {

// Name -> index, and each service's declared dependencies (deduplicated).
struct Graph {
  std::map<std::string, size_t> index;
  std::vector<std::vector<size_t>> deps;

  explicit Graph(const std::vector<Service> &services) {
    for (size_t i = 0; i < services.size(); ++i)
      index.emplace(services[i].name, i);
    deps.resize(services.size());
    for (size_t i = 0; i < services.size(); ++i)
      for (const Dependency &d : services[i].dependsOn) {
        auto it = index.find(d.name);
        if (it != index.end() &&
            std::find(deps[i].begin(), deps[i].end(), it->second) == deps[i].end())
          deps[i].push_back(it->second);
      }
  }
};

} // namespace

std::vector<size_t> topologicalOrder(const std::vector<Service> &services) {
  Graph g(services);
  std::vector<size_t> pending(services.size());
  std::vector<std::vector<size_t>> dependents(services.size());
  for (size_t i = 0; i < services.size(); ++i) {
    pending[i] = g.deps[i].size();
    for (size_t d : g.deps[i])
      dependents[d].push_back(i);
  }
  std::set<std::pair<std::string, size_t>> ready;
  for (size_t i = 0; i < services.size(); ++i)
    if (pending[i] == 0)
      ready.emplace(services[i].name, i);
  std::vector<size_t> order;
  std::vector<bool> placed(services.size());
  while (!ready.empty()) {
    size_t i = ready.begin()->second;
    ready.erase(ready.begin());
    order.push_back(i);
    placed[i] = true;
    for (size_t j : dependents[i])
      if (--pending[j] == 0)
        ready.emplace(services[j].name, j);
  }
  std::vector<std::pair<std::string, size_t>> rest;
  for (size_t i = 0; i < services.size(); ++i)
    if (!placed[i])
      rest.emplace_back(services[i].name, i);
  std::sort(rest.begin(), rest.end());
  for (const auto &r : rest)
    order.push_back(r.second);
  return order;
}

std::vector<std::string> findCycle(const std::vector<Service> &services) {
  Graph g(services);
  enum Color { White, Gray, Black };
  std::vector<Color> color(services.size(), White);
  std::vector<size_t> stack;
  std::vector<size_t> cycle;

  // Iterative-enough recursion: spec topologies are small.
  auto visit = [&](auto &self, size_t i) -> bool {
    color[i] = Gray;
    stack.push_back(i);
    for (size_t d : g.deps[i]) {
      if (color[d] == Gray) {
        auto from = std::find(stack.begin(), stack.end(), d);
        cycle.assign(from, stack.end());
        return true;
      }
      if (color[d] == White && self(self, d))
        return true;
    }
    stack.pop_back();
    color[i] = Black;
    return false;
  };
  for (const auto &[name, i] : g.index)
    if (color[i] == White && visit(visit, i))
      break;
  if (cycle.empty())
    return {};
  auto smallest = std::min_element(cycle.begin(), cycle.end(), [&](size_t a, size_t b) {
    return services[a].name < services[b].name;
  });
  std::rotate(cycle.begin(), smallest, cycle.end());
  std::vector<std::string> names;
  for (size_t i : cycle)
    names.push_back(services[i].name);
  names.push_back(names.front());
  return names;
}

} // namespace fbc::ir
