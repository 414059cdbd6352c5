// The progress line `fbc run` draws on stderr when stderr is a terminal and
// CI is not "true" (docs/run.md "Progress"):
//   [37/200 leaves] 35 passed 2 failed · 0:41 elapsed · ~2:10 left
// redrawn in place every second and after each row. It is erased before
// anything is written to stdout or stderr through write(), so the streamed
// report is the same bytes as without it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace fbc::tools {

class Progress {
public:
  // `totalLeaves` rows are expected, estimated at `estimateMs` in all.
  Progress(uint64_t totalLeaves, int64_t estimateMs);
  ~Progress(); // erases the line and stops the clock
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  // Whether a progress line belongs on this stderr: a terminal, and CI is
  // not "true".
  static bool wanted();

  // A row was recorded: counted as passed or failed (failed: fail or
  // error), `estimateMs` of the plan's estimate done.
  void row(bool passed, bool failed, int64_t estimateMs);
  // Runs `fn` (which writes to stdout or stderr) with the line erased, then
  // redraws it.
  void around(const std::function<void()> &fn);
  // What the run is doing besides leaves ("pulling redis:7-alpine: 1 of 3
  // layers"), shown after the figures until replaced; "" for nothing.
  void note(std::string text);

  // "[37/200 leaves] 35 passed 2 failed · 0:41 elapsed · ~2:10 left": the
  // line for these figures (the estimate left scales the plan's remaining
  // estimate by how fast the done part went against its own estimate).
  static std::string line(uint64_t done, uint64_t total, uint64_t passed, uint64_t failed,
                          int64_t elapsedMs, int64_t estimateMs, int64_t estimateDoneMs);

private:
  void draw(); // under mu_
  void erase();

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool drawn_ = false;
  std::string note_;
  uint64_t total_, done_ = 0, passed_ = 0, failed_ = 0;
  int64_t estimateMs_, estimateDoneMs_ = 0;
  int64_t startNs_;
  std::thread clock_;
};

} // namespace fbc::tools
