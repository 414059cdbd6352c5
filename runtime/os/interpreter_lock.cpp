#include "runtime/os/interpreter_lock.h"

namespace fbc::rt {

void InterpreterLock::lock() {
  std::unique_lock l(mu_);
  uint64_t mine = next_++;
  turn_.wait(l, [&] { return serving_ == mine; });
}

void InterpreterLock::unlock() {
  {
    std::lock_guard l(mu_);
    ++serving_;
  }
  turn_.notify_all();
}

void InterpreterLock::yield() {
  {
    std::lock_guard l(mu_);
    if (next_ == serving_ + 1)
      return; // nobody is waiting
  }
  unlock();
  lock();
}

} // namespace fbc::rt
