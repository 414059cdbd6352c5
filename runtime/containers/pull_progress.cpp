// A pull's progress: see pull_progress.h.
#include "runtime/containers/pull_progress.h"

#include <simdjson.h>

#include <cstdio>
#include <mutex>

namespace fbc::rt::containers {

void PullTracker::line(std::string_view json) {
  simdjson::dom::element doc;
  std::string_view id, status;
  if (parser_.parse(json.data(), json.size()).get(doc) || doc["id"].get(id) ||
      doc["status"].get(status) || id.empty())
    return;
  auto [it, fresh] = layers_.try_emplace(std::string(id));
  Layer &l = it->second;
  int64_t current = 0, total = 0;
  if (!doc["progressDetail"]["current"].get(current) && current >= 0)
    l.current = static_cast<uint64_t>(current);
  if (!doc["progressDetail"]["total"].get(total) && total > 0)
    l.total = static_cast<uint64_t>(total);
  if (status == "Pull complete" || status == "Already exists" || status == "Download complete")
    l.done = true;
  if (l.done && l.total)
    l.current = l.total;
  status_.layers = layers_.size();
  status_.layersDone = status_.bytes = status_.totalBytes = 0;
  for (const auto &[layerId, layer] : layers_) {
    status_.layersDone += layer.done;
    if (layer.total) {
      status_.bytes += layer.current;
      status_.totalBytes += layer.total;
    }
  }
}

std::string describePull(const PullStatus &s, bool finished) {
  auto plural = [](size_t n) { return std::to_string(n) + (n == 1 ? " layer" : " layers"); };
  if (finished)
    return "pulled " + s.image + " (" + plural(s.layers) + ")";
  std::string out =
      "pulling " + s.image + ": " + std::to_string(s.layersDone) + " of " + plural(s.layers);
  if (s.totalBytes) {
    char sizes[64];
    std::snprintf(sizes, sizeof sizes, ", %.1f of %.1f MB", double(s.bytes) / 1e6,
                  double(s.totalBytes) / 1e6);
    out += sizes;
  }
  return out;
}

namespace {
std::mutex listenerMu;
PullListener listenerFn;
} // namespace

void setPullListener(PullListener listener) {
  std::lock_guard lock(listenerMu);
  listenerFn = std::move(listener);
}

PullListener pullListener() {
  std::lock_guard lock(listenerMu);
  return listenerFn;
}

} // namespace fbc::rt::containers
