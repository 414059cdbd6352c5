// The `fbc run -v` copy of service output to stderr, off the event loop.
//
// The loop must never block on a write: a full stderr pipe (a reader that
// stopped reading) would stall every delay timer and exit of the test. So
// the loop only appends to a bounded buffer and a writer thread does the
// blocking writes. When the buffer is full, output is dropped (never the
// service's captured copy, only the stream) and the next write that gets
// through says so: "fbc | <N> bytes of service output dropped (stderr is
// not keeping up)".
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace fbc::rt {

class StreamWriter {
public:
  static constexpr size_t kBufferCap = 4 << 20;

  explicit StreamWriter(int fd);
  ~StreamWriter(); // writes what is buffered, then stops the thread
  StreamWriter(const StreamWriter &) = delete;
  StreamWriter &operator=(const StreamWriter &) = delete;

  // Never blocks on the fd (any thread).
  void write(const std::string &text);

private:
  void run();

  int fd_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string pending_;
  size_t dropped_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace fbc::rt
