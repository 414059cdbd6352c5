// A pull's progress, for the terminal: the engine streams one JSON object a
// line while it pulls (`{"status": "Downloading", "id": "<layer>",
// "progressDetail": {"current": N, "total": M}}`, "Pull complete",
// "Already exists", ...); PullTracker folds them into per-image figures and
// describePull() says them in one line. fbc run shows that line in its
// progress line on a terminal (tools/fbc/progress.h) through the listener
// it installs; without one (no terminal, CI, -v) a pull is silent and only
// its failure shows, as the test's error row.
#pragma once

#include <cstdint>
#include <simdjson.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace fbc::rt::containers {

struct PullStatus {
  std::string image;                  // as the spec wrote it
  size_t layers = 0, layersDone = 0;  // layers seen, and those complete or present
  uint64_t bytes = 0, totalBytes = 0; // of the layers whose size the engine said
};

class PullTracker {
public:
  explicit PullTracker(std::string image) { status_.image = std::move(image); }
  // One line of the engine's stream; lines that are not a layer's status
  // (the final digest, an error) change nothing.
  void line(std::string_view json);
  const PullStatus &status() const { return status_; }

private:
  struct Layer {
    bool done = false;
    uint64_t current = 0, total = 0;
  };
  std::map<std::string, Layer, std::less<>> layers_; // by layer id
  PullStatus status_;
  simdjson::dom::parser parser_; // one for the stream's lines
};

// "pulling redis:7-alpine: 1 of 3 layers, 2.5 of 11.8 MB" (the sizes when
// the engine gave any), "pulled redis:7-alpine (3 layers)" once `finished`.
std::string describePull(const PullStatus &s, bool finished);

// Where pulls report (null: nowhere). Called from the thread that pulls,
// on every line and once finished; set before the run starts and cleared
// after it.
using PullListener = std::function<void(const PullStatus &, bool finished)>;
void setPullListener(PullListener listener);
// The listener, or null.
PullListener pullListener();

} // namespace fbc::rt::containers
