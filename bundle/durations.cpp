// Measured durations from a bundle (durations.h).
#include "bundle/durations.h"

#include <simdjson.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace fbc::bundle {
namespace {

// Nanoseconds since the epoch of an RFC 3339 UTC timestamp as the JSON
// report writes it ("2026-12-06T16:15:05.585516070Z"); nullopt otherwise.
std::optional<int64_t> timestampNs(std::string_view s) {
  tm t{};
  int year = 0, mon = 0, day = 0, hour = 0, min = 0, sec = 0, used = 0;
  std::string text(s);
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &mon, &day, &hour, &min, &sec,
                  &used) != 6)
    return std::nullopt;
  t.tm_year = year - 1900;
  t.tm_mon = mon - 1;
  t.tm_mday = day;
  t.tm_hour = hour;
  t.tm_min = min;
  t.tm_sec = sec;
  int64_t ns = static_cast<int64_t>(timegm(&t)) * 1000000000;
  size_t at = size_t(used);
  if (at < text.size() && text[at] == '.') {
    int64_t frac = 0, scale = 1000000000;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at)
      if (scale > 1) {
        scale /= 10;
        frac += (text[at] - '0') * scale;
      }
    ns += frac;
  }
  return ns;
}

} // namespace

backend::MeasuredDurations measuredDurations(const OpenedBundle &b) {
  backend::MeasuredDurations out;
  for (const TestRow &r : b.manifest.tests)
    out.rows[r.name][r.leafId.value_or("0")] = r.durationMs;
  const Entry *trace = b.contents.find("trace.json");
  if (!trace)
    return out;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::array tests;
  if (parser.parse(trace->data).get(root) || root["tests"].get(tests))
    return out;
  std::map<std::string, std::vector<int64_t>> starts;
  for (simdjson::dom::element t : tests) {
    simdjson::dom::array events;
    if (t["events"].get(events))
      continue;
    std::map<std::string, int64_t> started;
    for (simdjson::dom::element e : events) {
      std::string_view type, service, at;
      if (e["type"].get(type) || e["service"].get(service) || e["timestamp"].get(at))
        continue;
      std::optional<int64_t> ns = timestampNs(at);
      if (!ns)
        continue;
      std::string name(service);
      if (type == "service_started") {
        started[name] = *ns;
      } else if (type == "service_ready") {
        auto it = started.find(name);
        if (it != started.end() && *ns >= it->second) {
          starts[name].push_back((*ns - it->second) / 1000000);
          started.erase(it);
        }
      }
    }
  }
  for (auto &[name, ms] : starts) {
    // The median (the lower one of an even count): one slow start does not
    // make every leaf slow.
    std::sort(ms.begin(), ms.end());
    out.serviceStart[name] = ms[(ms.size() - 1) / 2];
  }
  return out;
}

std::optional<std::string> newestBundleOf(const std::string &dir, const std::string &specRoot) {
  struct File {
    std::string path;
    int64_t mtimeNs;
  };
  std::vector<File> files;
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(dir, ec)) {
    std::string path = e.path().string();
    struct stat st {};
    if (!path.ends_with(".fb") || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    files.push_back({path, int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec});
  }
  std::sort(files.begin(), files.end(), [](const File &a, const File &b) {
    return a.mtimeNs != b.mtimeNs ? a.mtimeNs > b.mtimeNs : a.path < b.path;
  });
  if (files.size() > 20)
    files.resize(20);
  for (const File &f : files) {
    llvm::Expected<OpenedBundle> b = openBundle(f.path);
    if (!b) {
      llvm::consumeError(b.takeError());
      continue;
    }
    if (b->manifest.producer == "fbc" && b->manifest.shard.empty() &&
        b->manifest.specRoot == specRoot)
      return f.path;
  }
  return std::nullopt;
}

} // namespace fbc::bundle
