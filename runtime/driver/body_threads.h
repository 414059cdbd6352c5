// The Starlark threads of one running test body: the body's own thread and
// the branches of its parallel() calls. They take turns on one
// InterpreterLock, and a timeout or an interrupt cancels all of them at once.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/value.h"
#include "runtime/os/interpreter_lock.h"

#include <llvm/ADT/ArrayRef.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <vector>

namespace fbc::star {
class Thread;
}

namespace fbc::rt {

// What one parallel() branch gave: its value, or the error it failed with.
struct BranchResult {
  star::Value value; // None when the branch returned nothing or failed
  bool failed = false;
  std::string error;                    // a Starlark error's message
  std::vector<star::TraceFrame> frames; // and where the branch raised it
  std::string code;                     // its EvalError::code
  std::exception_ptr exception;         // anything else (halt(), an internal error), rethrown
};

class BodyThreads {
public:
  InterpreterLock &lock() { return *lock_; }
  // Takes turns on `shared` instead of a lock of its own: the bodies of
  // leaves that run at the same time (fbc run -j N) share one lock, since
  // they share the spec's frozen values.
  void shareLock(InterpreterLock &shared) { lock_ = &shared; }

  // Marks `t` as running body code until the scope ends, so cancel()
  // reaches it; a thread that joins after cancel() is cancelled at once.
  class Running {
  public:
    Running(BodyThreads &b, star::Thread &t);
    ~Running();
    Running(const Running &) = delete;
    Running &operator=(const Running &) = delete;

  private:
    BodyThreads &b_;
    star::Thread &t_;
  };

  // Calls each of `fns` with no arguments on its own OS thread and its own
  // Starlark thread, all at once, and waits until `wanted` of them have
  // finished (all: fns.size()); the others are then cancelled (stopped at
  // their next step; a step or sleep() in progress gives up), and the call
  // returns once every thread has ended. The caller holds the lock and
  // gives it up while it waits. Results in argument order; `finished`
  // lists the branches in the order they ended, the first `wanted` of them
  // the ones waited for. `watch` (fbc run --explore) hears of each branch
  // thread first and last thing, with its thread id.
  struct BranchWatch {
    std::function<void(pid_t)> started, ended;
  };
  std::vector<BranchResult> runConcurrently(star::Thread &parent, llvm::ArrayRef<star::Value> fns,
                                            const BranchWatch *watch = nullptr,
                                            size_t wanted = SIZE_MAX,
                                            std::vector<uint32_t> *finished = nullptr);
  // Calls fns[order[0]], fns[order[1]], ... one after another on the
  // caller's thread (a leaf's launch order), the first `wanted` of them.
  // Results in argument order.
  std::vector<BranchResult> runInOrder(star::Thread &parent, llvm::ArrayRef<star::Value> fns,
                                       const std::vector<uint32_t> &order,
                                       size_t wanted = SIZE_MAX);

  // Whether the branch the calling thread runs (or one it was started
  // from) has been cancelled because its wait_n()/wait_first() returned.
  static bool branchCancelled();

  // Stops every running thread at its next step (and every thread that
  // starts later) until reset().
  void cancel();
  void reset();
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

private:
  struct BranchStop; // one branch's own cancellation (body_threads.cpp)
  void runBranch(star::Thread &parent, star::Value fn, BranchResult &out, BranchStop &stop);

  InterpreterLock ownLock_;
  InterpreterLock *lock_ = &ownLock_;
  std::atomic<bool> cancelled_{false};
  std::mutex runningMu_;
  std::vector<star::Thread *> running_;
};

} // namespace fbc::rt
