// A listening socket on an event loop (the proxy's listeners and its TLS
// terminators'): registered edge-triggered, it accepts every pending
// connection on each event and hands each, non-blocking and close-on-exec,
// to `onAccept`, which owns it from then on. Closes the listening fd.
#pragma once

#include "runtime/os/event_loop.h"

#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <utility>

namespace fbc::rt {

class Acceptor final : public EventLoop::Handler {
public:
  Acceptor(int fd, std::function<void(int)> onAccept) : fd_(fd), onAccept_(std::move(onAccept)) {}
  ~Acceptor() override { ::close(fd_); }
  Acceptor(const Acceptor &) = delete;
  Acceptor &operator=(const Acceptor &) = delete;

  int fd() const { return fd_; }
  void onEvents(uint32_t) override {
    for (;;) {
      int c = accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (c < 0)
        return;
      onAccept_(c);
    }
  }

private:
  int fd_;
  std::function<void(int)> onAccept_;
};

} // namespace fbc::rt
