#include "runtime/driver/body_threads.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace fbc::rt {

using star::Value;

BodyThreads::Running::Running(BodyThreads &b, star::Thread &t) : b_(b), t_(t) {
  std::lock_guard l(b_.runningMu_);
  b_.running_.push_back(&t_);
  if (b_.cancelled())
    t_.cancel();
}

BodyThreads::Running::~Running() {
  std::lock_guard l(b_.runningMu_);
  b_.running_.erase(std::find(b_.running_.begin(), b_.running_.end(), &t_));
}

void BodyThreads::cancel() {
  std::lock_guard l(runningMu_);
  cancelled_ = true;
  for (star::Thread *t : running_)
    t->cancel();
}

void BodyThreads::reset() {
  cancelled_ = false;
}

// One branch's own cancellation: its flag, read by branchCancelled() on its
// thread and on the threads of the calls it fans out to, and its Starlark
// thread, stopped at its next step.
struct BodyThreads::BranchStop {
  std::atomic<bool> stopped{false};
  const BranchStop *up = nullptr; // the branch the starting thread runs, if any
  std::mutex mu;
  star::Thread *thread = nullptr;

  void stop() {
    stopped = true;
    std::lock_guard l(mu);
    if (thread)
      thread->cancel();
  }
  void attach(star::Thread *t) {
    std::lock_guard l(mu);
    thread = t;
    if (t && stopped)
      t->cancel();
  }
};

namespace {

// The branch the calling OS thread runs (null on the body's own thread).
thread_local const void *tBranch = nullptr;

} // namespace

bool BodyThreads::branchCancelled() {
  for (auto *b = static_cast<const BranchStop *>(tBranch); b; b = b->up)
    if (b->stopped.load(std::memory_order_relaxed))
      return true;
  return false;
}

namespace {

// One call with no arguments, its outcome caught.
void callBranch(star::Thread &t, Value fn, BranchResult &out) {
  try {
    Value r = star::call(t, fn, llvm::ArrayRef<Value>{});
    out.value = r ? r : star::none();
  } catch (const star::EvalError &e) {
    out.failed = true;
    out.error = e.message();
    out.frames = e.frames;
    out.code = e.code;
  } catch (...) {
    out.failed = true;
    out.exception = std::current_exception();
  }
  if (out.failed)
    out.value = star::none();
}

} // namespace

// A branch's Starlark thread shares the body's heap and hooks. Its call
// stack continues the caller's (which is blocked in parallel() meanwhile),
// so a failure's backtrace and the call-site lookups of choose() and the
// fault builtins read as if the branch were called from there.
void BodyThreads::runBranch(star::Thread &parent, Value fn, BranchResult &out, BranchStop &stop) {
  tBranch = &stop;
  std::lock_guard turn(*lock_);
  star::Thread t(parent.heap, parent);
  t.top = parent.top;
  t.depth = parent.depth;
  // A branch of a branch that wait_n()/wait_first() cancelled is not in
  // that call's list: it stops here, at its next checkpoint.
  t.checkpoint = [this, &t] {
    if (branchCancelled())
      t.cancel();
    lock_->yield();
  };
  Running running(*this, t);
  stop.attach(&t);
  callBranch(t, fn, out);
  stop.attach(nullptr);
}

std::vector<BranchResult> BodyThreads::runConcurrently(star::Thread &parent,
                                                       llvm::ArrayRef<Value> fns,
                                                       const BranchWatch *watch, size_t wanted,
                                                       std::vector<uint32_t> *finished) {
  std::vector<BranchResult> results(fns.size());
  std::vector<BranchStop> stops(fns.size());
  std::vector<uint32_t> ended;
  std::mutex endedMu;
  std::condition_variable endedCv;
  auto branchEnded = [&](size_t i) {
    std::lock_guard l(endedMu);
    ended.push_back(uint32_t(i));
    endedCv.notify_all();
  };
  std::vector<std::thread> threads;
  threads.reserve(fns.size());
  const auto *up = static_cast<const BranchStop *>(tBranch);
  for (size_t i = 0; i < fns.size(); ++i) {
    stops[i].up = up;
    try {
      threads.emplace_back([this, &parent, fn = fns[i], &out = results[i], &stop = stops[i], watch,
                            i, &branchEnded] {
        pid_t tid = gettid();
        if (watch)
          watch->started(tid);
        runBranch(parent, fn, out, stop);
        if (watch)
          watch->ended(tid);
        branchEnded(i);
      });
    } catch (const std::system_error &) {
      if (watch) {
        watch->started(0);
        watch->ended(0);
      }
      results[i].failed = true;
      results[i].exception = std::current_exception();
      results[i].value = star::none();
      branchEnded(i);
    }
  }
  {
    InterpreterLock::Released waiting(*lock_);
    std::unique_lock l(endedMu);
    endedCv.wait(l, [&] { return ended.size() >= std::min(wanted, fns.size()); });
    l.unlock();
    // Waited for enough: the rest are stopped, and waited for too (their
    // frames continue the caller's, which must outlive them).
    if (wanted < fns.size())
      for (BranchStop &s : stops)
        s.stop(); // a branch that has ended has no thread left to stop
    for (std::thread &th : threads)
      th.join();
  }
  if (finished)
    *finished = ended;
  return results;
}

std::vector<BranchResult> BodyThreads::runInOrder(star::Thread &parent, llvm::ArrayRef<Value> fns,
                                                  const std::vector<uint32_t> &order,
                                                  size_t wanted) {
  std::vector<BranchResult> results(fns.size());
  for (size_t k = 0; k < order.size() && k < wanted; ++k)
    callBranch(parent, fns[order[k]], results[order[k]]);
  return results;
}

} // namespace fbc::rt
