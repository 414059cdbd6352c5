// A service's stdout or stderr pipe on the event loop: keeps the output
// (the last `cap` bytes) for error reports and bundles, and optionally
// streams it, line by line, with a "name | " prefix (`fbc run -v`) through
// a StreamWriter (which never blocks the loop). A line longer than
// kMaxLine is streamed in pieces of kMaxLine bytes, each ending in
// " [line split by fbc]", so a service that never writes a newline cannot
// grow the partial line without bound.
#pragma once

#include "runtime/os/event_loop.h"
#include "runtime/os/stream_writer.h"

#include <functional>
#include <mutex>
#include <string>

namespace fbc::rt {

class OutputCapture final : public EventLoop::Handler {
public:
  static constexpr size_t kMaxLine = 64 * 1024;

  // `stream` null: capture only.
  OutputCapture(EventLoop &loop, int fd, std::string prefix, StreamWriter *stream, size_t cap);
  ~OutputCapture() override;

  // Loop thread, before start(): `sink` gets each complete line (without
  // its newline; a line over kMaxLine bytes in pieces of kMaxLine), and the
  // unfinished last line at finish() (service(observe=[...])).
  void setLineSink(std::function<void(std::string_view)> sink) { sink_ = std::move(sink); }
  // Loop thread: reads what the pipe holds now (a query of the trace wants
  // the lines already written).
  void pump() { drain(); }

  void start();  // loop thread
  void finish(); // loop thread: reads what is left, flushes a partial line, closes
  void onEvents(uint32_t events) override;
  std::string text() const;
  // The last `maxLines` lines of what was kept (no trailing newline; a line
  // over kMaxTailLine bytes ends in " [line clipped by fbc]"): what a
  // failed start or an unexpected exit reports.
  std::string lastLines(size_t maxLines) const { return lastLinesOf(text(), maxLines); }
  static std::string lastLinesOf(std::string_view text, size_t maxLines);
  static constexpr size_t kTailLines = 20;
  static constexpr size_t kMaxTailLine = 512;

private:
  void drain();
  void stream(const char *data, size_t n);
  void observe(const char *data, size_t n);

  EventLoop &loop_;
  int fd_;
  std::string prefix_;
  StreamWriter *stream_;
  size_t cap_;
  mutable std::mutex mu_;
  std::string captured_;
  std::string partial_; // the unfinished line being streamed
  std::function<void(std::string_view)> sink_;
  std::string sinkPartial_; // the unfinished line the sink has not had
};

} // namespace fbc::rt
