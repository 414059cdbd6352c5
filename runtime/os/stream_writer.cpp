// Owns the bounded, non-blocking hand-off of `-v` output to stderr (see
// stream_writer.h).
#include "runtime/os/stream_writer.h"

#include <limits.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace fbc::rt {

StreamWriter::StreamWriter(int fd) : fd_(fd), thread_([this] { run(); }) {}

StreamWriter::~StreamWriter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void StreamWriter::write(const std::string &text) {
  {
    std::lock_guard lock(mu_);
    if (pending_.size() + text.size() > kBufferCap) {
      dropped_ += text.size();
      return;
    }
    if (dropped_) {
      pending_ += "fbc | " + std::to_string(dropped_) +
                  " bytes of service output dropped (stderr is not keeping up)\n";
      dropped_ = 0;
    }
    pending_ += text;
  }
  cv_.notify_one();
}

void StreamWriter::run() {
  std::string batch;
  for (;;) {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (pending_.empty() && stopping_)
        return;
      batch.swap(pending_);
    }
    size_t off = 0;
    int idle = 0;
    while (off < batch.size()) {
      // Wait for room (a pipe signals POLLOUT with a page free, so a write
      // of up to PIPE_BUF does not block), giving up once we are asked to
      // stop and the reader has not moved for a second: the end of a leaf
      // must not hang on a stderr nobody reads.
      pollfd p{fd_, POLLOUT, 0};
      if (poll(&p, 1, 100) == 0) {
        std::lock_guard lock(mu_);
        if (stopping_ && ++idle >= 10)
          break;
        continue;
      }
      idle = 0;
      size_t chunk = std::min<size_t>(batch.size() - off, PIPE_BUF);
      ssize_t n = ::write(fd_, batch.data() + off, chunk);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        break; // stderr is gone: nothing more to do with this batch
      off += static_cast<size_t>(n);
    }
    batch.clear();
  }
}

} // namespace fbc::rt
