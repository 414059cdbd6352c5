// The lock a test body's Starlark threads take turns on. The evaluator's
// heap and values are not thread-safe, so exactly one thread runs Starlark
// at a time: the body, or one of the branches of a parallel(). A thread gives
// the lock up wherever it blocks (a step waiting on its service, sleep(),
// waiting for its branches) and, between two Starlark steps, every few
// thousand steps when another thread is waiting. So branches overlap exactly
// where the services see them, in their requests, and a branch that polls
// in a loop cannot starve the branch it waits for.
//
// Turns are handed out in arrival order (a ticket lock), so yield() really
// lets the waiting threads in before the yielding one runs again.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace fbc::rt {

class InterpreterLock {
public:
  void lock();
  void unlock();
  // Lets every thread waiting now run first; returns holding the lock.
  void yield();

  // Gives the lock up for its lifetime (around a blocking call).
  class Released {
  public:
    explicit Released(InterpreterLock &l) : l_(l) { l_.unlock(); }
    ~Released() { l_.lock(); }
    Released(const Released &) = delete;
    Released &operator=(const Released &) = delete;

  private:
    InterpreterLock &l_;
  };

private:
  std::mutex mu_;
  std::condition_variable turn_;
  uint64_t next_ = 0;    // the ticket the next lock() draws
  uint64_t serving_ = 0; // the ticket whose turn it is
};

} // namespace fbc::rt
