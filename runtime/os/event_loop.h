// The supervisor's single event loop: one epoll instance serving every
// seccomp listener, child-exit pidfd, output pipe and timer, on one thread.
// Nothing in it blocks: a delayed syscall is a timer entry, answered when
// the timer fires, so other notifications keep flowing meanwhile.
//
// Threading: run() executes on the loop thread. add()/remove() and timers
// must be called on the loop thread; other threads hand work over with
// post() (fire and forget) or call() (waits for completion), which wake the
// loop through an eventfd.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace fbc::rt {

class EventLoop {
public:
  // Something that owns an fd registered with the loop.
  class Handler {
  public:
    virtual ~Handler() = default;
    virtual void onEvents(uint32_t events) = 0;
  };

  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop &) = delete;
  EventLoop &operator=(const EventLoop &) = delete;

  // Loop thread only.
  void add(int fd, uint32_t events, Handler *h);
  void remove(int fd);
  // Runs `fn` at CLOCK_MONOTONIC time `deadlineNs` (or at once if past).
  void addTimer(int64_t deadlineNs, std::function<void()> fn);

  // Any thread.
  void post(std::function<void()> fn);
  void call(const std::function<void()> &fn); // runs fn on the loop thread and waits
  bool inLoopThread() const { return std::this_thread::get_id() == loopThread_.load(); }

  // Runs until stop(); to be called once, on the thread that becomes the loop thread.
  void run();
  void stop(); // any thread

private:
  struct Timer {
    int64_t deadline;
    uint64_t order; // FIFO among equal deadlines
    std::function<void()> fn;
    bool operator>(const Timer &o) const {
      return deadline != o.deadline ? deadline > o.deadline : order > o.order;
    }
  };

  void armTimerFd();
  void runTimers();
  void runPosted();

  int epfd_ = -1;
  int wakeFd_ = -1;                           // eventfd: posted work or stop
  int timerFd_ = -1;                          // one timerfd, armed for the earliest timer
  std::atomic<std::thread::id> loopThread_{}; // set by run()
  bool stopping_ = false;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  uint64_t timerOrder_ = 0;
  std::mutex postMu_;
  std::vector<std::function<void()>> posted_;
};

} // namespace fbc::rt
