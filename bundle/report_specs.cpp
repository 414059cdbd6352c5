#include "bundle/report_specs.h"

namespace fbc::bundle {
namespace {

std::string_view basenameOf(std::string_view p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

// Which snapshot file a traceback's path names: the root spec (the path
// `fbc run` was given), the same relative path, a path ending in it (the
// first such file), or the only file with that base name; -1 when none does.
int specIndexFor(std::string_view path, const SpecIndex &specs, const Manifest &m) {
  if (specs.root >= 0 && (path == m.specRoot || basenameOf(path) == basenameOf(m.specRoot)))
    return specs.root;
  int first = -1;
  auto consider = [&](std::string_view candidate) {
    auto it = specs.byPath.find(candidate);
    if (it != specs.byPath.end() && (first < 0 || int(it->second) < first))
      first = int(it->second);
  };
  consider(path);
  for (size_t slash = path.find('/'); slash != std::string_view::npos;
       slash = path.find('/', slash + 1))
    consider(path.substr(slash + 1));
  if (first >= 0)
    return first;
  auto it = specs.byBase.find(basenameOf(path));
  return it == specs.byBase.end() ? -1 : it->second;
}

} // namespace

void SpecIndex::add(SpecFile f, const Manifest &m) {
  size_t i = files.size();
  byPath.emplace(f.path, i);
  auto [it, fresh] = byBase.emplace(std::string(basenameOf(f.path)), int(i));
  if (!fresh)
    it->second = -1;
  if (root < 0 && !m.specEntry.empty() && "spec/" + f.path == m.specEntry)
    root = int(i);
  files.push_back(std::move(f));
}

std::pair<int, uint64_t> frameTarget(const std::string &frame, const SpecIndex &specs,
                                     const Manifest &m) {
  size_t end = frame.find(": ");
  if (end == std::string::npos)
    return {-1, 0};
  std::string loc = frame.substr(0, end); // path:line:col
  size_t c2 = loc.rfind(':');
  if (c2 == std::string::npos || c2 == 0)
    return {-1, 0};
  size_t c1 = loc.rfind(':', c2 - 1);
  if (c1 == std::string::npos)
    return {-1, 0};
  std::string line = loc.substr(c1 + 1, c2 - c1 - 1);
  if (line.empty() || line.size() > 9 || line.find_first_not_of("0123456789") != std::string::npos)
    return {-1, 0};
  int idx = specIndexFor(loc.substr(0, c1), specs, m);
  return {idx, idx < 0 ? 0 : std::stoull(line)};
}

} // namespace fbc::bundle
