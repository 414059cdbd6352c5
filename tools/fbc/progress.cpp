#include "tools/fbc/progress.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace fbc::tools {

namespace {

int64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// "0:41", "12:05", "1:02:03".
std::string clock(int64_t ms) {
  int64_t s = ms / 1000;
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", (long long)(s / 3600),
                  (long long)(s / 60 % 60), (long long)(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%lld:%02lld", (long long)(s / 60), (long long)(s % 60));
  return buf;
}

void writeAll(const std::string &s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(STDERR_FILENO, s.data() + done, s.size() - done);
    if (n <= 0)
      return;
    done += size_t(n);
  }
}

} // namespace

bool Progress::wanted() {
  const char *ci = std::getenv("CI");
  return isatty(STDERR_FILENO) && !(ci && std::strcmp(ci, "true") == 0);
}

std::string Progress::line(uint64_t done, uint64_t total, uint64_t passed, uint64_t failed,
                           int64_t elapsedMs, int64_t estimateMs, int64_t estimateDoneMs) {
  total = std::max(total, done); // a test sized at run time may add leaves
  int64_t left = std::max<int64_t>(0, estimateMs - estimateDoneMs);
  if (estimateDoneMs > 0)
    left = int64_t(double(left) * double(elapsedMs) / double(estimateDoneMs));
  std::string out = "[";
  out += std::to_string(done);
  out += '/';
  out += std::to_string(total);
  out += " leaves] ";
  out += std::to_string(passed);
  out += " passed ";
  out += std::to_string(failed);
  out += " failed \u00b7 ";
  out += clock(elapsedMs);
  out += " elapsed \u00b7 ~";
  out += clock(left);
  out += " left";
  return out;
}

Progress::Progress(uint64_t totalLeaves, int64_t estimateMs)
    : total_(totalLeaves), estimateMs_(estimateMs), startNs_(nowNs()) {
  std::lock_guard lock(mu_);
  draw();
  clock_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; }))
      draw();
  });
}

Progress::~Progress() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    erase();
  }
  cv_.notify_all();
  clock_.join();
}

void Progress::draw() {
  int64_t elapsed = (nowNs() - startNs_) / 1000000;
  // \r and erase-to-end-of-line: the line replaces itself.
  std::string out = "\r";
  out += line(done_, total_, passed_, failed_, elapsed, estimateMs_, estimateDoneMs_);
  if (!note_.empty())
    out += " \u00b7 " + note_;
  out += "\x1b[K";
  writeAll(out);
  drawn_ = true;
}

void Progress::erase() {
  if (drawn_)
    writeAll("\r\x1b[K");
  drawn_ = false;
}

void Progress::row(bool passed, bool failed, int64_t estimateMs) {
  std::lock_guard lock(mu_);
  ++done_;
  passed_ += passed;
  failed_ += failed;
  estimateDoneMs_ += estimateMs;
  draw();
}

void Progress::note(std::string text) {
  std::lock_guard lock(mu_);
  note_ = std::move(text);
  if (!stop_)
    draw();
}

void Progress::around(const std::function<void()> &fn) {
  std::lock_guard lock(mu_);
  erase();
  fn();
  if (!stop_)
    draw();
}

} // namespace fbc::tools
