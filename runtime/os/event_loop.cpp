#include "runtime/os/event_loop.h"

#include "runtime/os/clock.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <stdexcept>
#include <system_error>

namespace fbc::rt {
namespace {

// Tags for the loop's own fds in epoll_event.data (handlers are pointers,
// which are never this small).
constexpr uintptr_t kWakeTag = 1;
constexpr uintptr_t kTimerTag = 2;

[[noreturn]] void fail(const char *what) {
  throw std::system_error(errno, std::generic_category(), what);
}

} // namespace

EventLoop::EventLoop() {
  epfd_ = epoll_create1(EPOLL_CLOEXEC);
  wakeFd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  timerFd_ = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (epfd_ < 0 || wakeFd_ < 0 || timerFd_ < 0)
    fail("event loop");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = kWakeTag;
  epoll_ctl(epfd_, EPOLL_CTL_ADD, wakeFd_, &ev);
  ev.data.u64 = kTimerTag;
  epoll_ctl(epfd_, EPOLL_CTL_ADD, timerFd_, &ev);
}

EventLoop::~EventLoop() {
  close(timerFd_);
  close(wakeFd_);
  close(epfd_);
}

void EventLoop::add(int fd, uint32_t events, Handler *h) {
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = h;
  if (epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev) < 0)
    fail("epoll_ctl add");
}

void EventLoop::remove(int fd) {
  epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
}

void EventLoop::addTimer(int64_t deadlineNs, std::function<void()> fn) {
  bool earliest = timers_.empty() || deadlineNs < timers_.top().deadline;
  timers_.push({deadlineNs, timerOrder_++, std::move(fn)});
  if (earliest)
    armTimerFd();
}

void EventLoop::armTimerFd() {
  itimerspec its{};
  if (!timers_.empty()) {
    int64_t d = timers_.top().deadline;
    if (d <= 0)
      d = 1; // an all-zero it_value would disarm the timer
    its.it_value.tv_sec = d / 1000000000;
    its.it_value.tv_nsec = d % 1000000000;
  }
  timerfd_settime(timerFd_, TFD_TIMER_ABSTIME, &its, nullptr);
}

void EventLoop::runTimers() {
  uint64_t expirations;
  [[maybe_unused]] ssize_t n = read(timerFd_, &expirations, sizeof expirations);
  int64_t now = monotonicNs();
  while (!timers_.empty() && timers_.top().deadline <= now) {
    // Move out before popping: the callback may add timers.
    std::function<void()> fn = std::move(const_cast<Timer &>(timers_.top()).fn);
    timers_.pop();
    fn();
  }
  armTimerFd();
}

void EventLoop::post(std::function<void()> fn) {
  {
    std::lock_guard lock(postMu_);
    posted_.push_back(std::move(fn));
  }
  uint64_t one = 1;
  [[maybe_unused]] ssize_t n = write(wakeFd_, &one, sizeof one);
}

void EventLoop::call(const std::function<void()> &fn) {
  if (inLoopThread()) {
    fn();
    return;
  }
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  post([&] {
    try {
      fn();
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard lock(mu);
    done = true;
    cv.notify_one();
  });
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return done; });
  if (error)
    std::rethrow_exception(error);
}

void EventLoop::runPosted() {
  uint64_t count;
  [[maybe_unused]] ssize_t n = read(wakeFd_, &count, sizeof count);
  std::vector<std::function<void()>> work;
  {
    std::lock_guard lock(postMu_);
    work.swap(posted_);
  }
  for (auto &fn : work)
    fn();
}

void EventLoop::run() {
  loopThread_ = std::this_thread::get_id();
  epoll_event events[64];
  while (!stopping_) {
    int n = epoll_wait(epfd_, events, 64, -1);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      fail("epoll_wait");
    }
    for (int i = 0; i < n; ++i) {
      uintptr_t tag = events[i].data.u64;
      if (tag == kWakeTag)
        runPosted();
      else if (tag == kTimerTag)
        runTimers();
      else
        static_cast<Handler *>(events[i].data.ptr)->onEvents(events[i].events);
    }
  }
}

void EventLoop::stop() {
  post([this] { stopping_ = true; });
}

} // namespace fbc::rt
