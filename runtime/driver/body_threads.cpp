#include "runtime/driver/body_threads.h"

#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/thread.h"

#include <algorithm>
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
void BodyThreads::runBranch(star::Thread &parent, Value fn, BranchResult &out) {
  std::lock_guard turn(*lock_);
  star::Thread t(parent.heap, parent);
  t.top = parent.top;
  t.depth = parent.depth;
  t.checkpoint = [this] { lock_->yield(); };
  Running running(*this, t);
  callBranch(t, fn, out);
}

std::vector<BranchResult> BodyThreads::runConcurrently(star::Thread &parent,
                                                       llvm::ArrayRef<Value> fns,
                                                       const BranchWatch *watch) {
  std::vector<BranchResult> results(fns.size());
  std::vector<std::thread> threads;
  threads.reserve(fns.size());
  for (size_t i = 0; i < fns.size(); ++i) {
    try {
      threads.emplace_back([this, &parent, fn = fns[i], &out = results[i], watch] {
        pid_t tid = gettid();
        if (watch)
          watch->started(tid);
        runBranch(parent, fn, out);
        if (watch)
          watch->ended(tid);
      });
    } catch (const std::system_error &) {
      if (watch) {
        watch->started(0);
        watch->ended(0);
      }
      results[i].failed = true;
      results[i].exception = std::current_exception();
      results[i].value = star::none();
    }
  }
  {
    InterpreterLock::Released waiting(*lock_);
    for (std::thread &th : threads)
      th.join();
  }
  return results;
}

std::vector<BranchResult> BodyThreads::runInOrder(star::Thread &parent, llvm::ArrayRef<Value> fns,
                                                  const std::vector<uint32_t> &order) {
  std::vector<BranchResult> results(fns.size());
  for (uint32_t i : order)
    callBranch(parent, fns[i], results[i]);
  return results;
}

} // namespace fbc::rt
