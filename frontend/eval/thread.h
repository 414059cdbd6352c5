// A Thread is one Starlark execution: its heap, its call stack (for
// backtraces and recursion checks), print and load hooks, and dialect flags.
// Errors are C++ exceptions (EvalError) thrown through Thread::fail(); they
// cost nothing on the non-error path, and the backtrace is captured from the
// call stack at the throw.
#pragma once

#include "frontend/lib/heap.h"
#include "frontend/lib/value.h"
#include "frontend/source/source_manager.h"
#include "frontend/syntax/dialect.h"

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::star {

class Function;

// One entry of a backtrace, outermost first.
struct TraceFrame {
  std::string file; // "<builtin>" for C++ functions
  frontend::Pos pos;
  std::string function; // "<toplevel>", "f", "lambda", "len"
};

// A Starlark runtime error. what() is the message only (as Go's Error());
// backtrace() renders "Traceback (most recent call last):", the frames and
// (unless errorLine is false) the closing "Error: <message>" line.
class EvalError : public std::exception {
public:
  explicit EvalError(std::string msg) : msg_(std::move(msg)) {}
  const char *what() const noexcept override { return msg_.c_str(); }
  const std::string &message() const { return msg_; }
  std::vector<TraceFrame> frames; // outermost first
  std::string backtrace(bool errorLine = true) const;
  // The frames as "file:line:col: in function", outermost first. An
  // innermost builtin frame is left out unless keepBuiltin: an error's
  // message names its builtin, but a thread cancelled inside one does not.
  std::vector<std::string> frameLines(bool keepBuiltin = false) const;
  // The innermost frame that belongs to a Starlark file (not <builtin>).
  const TraceFrame *innermostSourceFrame() const;
  // A stable diagnostic code the embedder gives a mistake it can name
  // (fbc's run: "UNKNOWN_ERRNO" for deny() of a computed name that is no
  // errno), "" for every other error. The frontend sets none itself.
  std::string code;

private:
  std::string msg_;
};

// A call-stack entry. Entries live in the C++ frames of the calls they
// describe and are linked to their caller, so pushing one costs two stores.
// The evaluator keeps `pos` pointing at the operation in progress, so a
// failure anywhere reports the right line and column.
struct CallFrame {
  CallFrame *parent = nullptr;
  const Function *fn = nullptr;               // null for <toplevel> or a builtin
  const char *name = nullptr;                 // "<toplevel>", a function or builtin name
  const frontend::SourceFile *file = nullptr; // null for builtins
  frontend::Pos pos;
};

class Thread {
public:
  explicit Thread(Heap &heap) : heap(heap) {}
  // A thread on `heap` that runs like `like`: its dialect, hooks, embedder
  // data and depth limit, not its call stack, steps or checkpoint.
  Thread(Heap &heap, const Thread &like)
      : heap(heap), dialect(like.dialect), print(like.print), load(like.load),
        userData(like.userData), hostData(like.hostData), maxDepth(like.maxDepth) {}

  Heap &heap;
  syntax::Dialect dialect;
  // Receives print() output (one call per print, without the newline).
  std::function<void(std::string_view)> print;
  // Resolves load("module", ...) relative to the loading file; returns the
  // module's frozen globals. Installed by the embedder (frontend/eval/loader.h).
  std::function<Value(Thread &, std::string_view module, const frontend::SourceFile *from)> load;
  // Free slot for the embedder (spec builtins keep their context here).
  void *userData = nullptr;
  // A second one, for the context of one execution among several sharing
  // userData (fbc run: the leaf whose body this thread runs).
  void *hostData = nullptr;

  // Throws an EvalError with `msg` and the current backtrace.
  [[noreturn]] void fail(std::string msg);
  // fail() with EvalError::code set.
  [[noreturn]] void failWithCode(std::string_view code, std::string msg);

  // The innermost call (null before execution starts) and the depth.
  CallFrame *top = nullptr;
  unsigned depth = 0;
  // Calls nested deeper than this fail with "Starlark stack overflow" instead
  // of overflowing the C++ stack.
  unsigned maxDepth = 5000;

  // Execution steps so far: one per call of a Starlark function and one per
  // iteration of a for/while loop or comprehension clause. Past maxSteps
  // execution fails with "Starlark computation cancelled: too many steps";
  // the default is no limit (embedders such as the fuzzer set one). Assign
  // maxSteps before the first step, or later through setMaxSteps(); to stop
  // a running thread, call cancel() from any thread.
  uint64_t steps = 0;
  uint64_t maxSteps = UINT64_MAX;
  void setMaxSteps(uint64_t n) {
    maxSteps = n;
    nextCheck_ = 0;
  }
  // When set, called every checkpointEvery steps on this thread (fbc run
  // lets the other branches of a parallel() take their turn here).
  std::function<void()> checkpoint;
  uint64_t checkpointEvery = 10000;

  void step() {
    // One relaxed load: nextCheck_ folds maxSteps and the next checkpoint
    // into the single bound the hot path compares against.
    if (++steps > std::atomic_ref<uint64_t>(nextCheck_).load(std::memory_order_relaxed))
      stepBoundReached();
  }
  // Makes the thread fail at its next step; safe from any thread.
  void cancel();

  // Pushes/pops a frame; use PushedFrame or BuiltinFrame rather than these.
  void push(CallFrame &f) {
    if (depth >= maxDepth)
      tooDeep(); // before linking: a throwing push leaves the stack intact
    f.parent = top;
    top = &f;
    ++depth;
  }
  void pop() {
    top = top->parent;
    --depth;
  }

private:
  [[noreturn]] void tooDeep();
  void stepBoundReached();
  // 0 at first, so the first step computes the real bound from maxSteps.
  uint64_t nextCheck_ = 0;
};

// Keeps `frame` on the thread's stack for the scope's lifetime, however
// the scope ends.
class PushedFrame {
public:
  PushedFrame(Thread &t, CallFrame &frame) : t_(t) { t.push(frame); }
  ~PushedFrame() { t_.pop(); }
  PushedFrame(const PushedFrame &) = delete;
  PushedFrame &operator=(const PushedFrame &) = delete;

private:
  Thread &t_;
};

// Keeps a builtin's frame on the stack while it runs ("<builtin>: in min").
class BuiltinFrame {
public:
  BuiltinFrame(Thread &t, const char *name) : frame_(named(name)), pushed_(t, frame_) {}

private:
  static CallFrame named(const char *name) {
    CallFrame f;
    f.name = name;
    return f;
  }
  CallFrame frame_;
  PushedFrame pushed_;
};

// Locks a mutable container against mutation for the duration of an
// iteration (Go: "cannot append to list during iteration").
class IterationGuard {
public:
  explicit IterationGuard(Object *o) : o_(o) {
    if (o_ && !o_->frozen_)
      ++o_->iterLocks_;
    else
      o_ = nullptr;
  }
  ~IterationGuard() {
    if (o_)
      --o_->iterLocks_;
  }
  IterationGuard(const IterationGuard &) = delete;
  IterationGuard &operator=(const IterationGuard &) = delete;
  static bool locked(const Object &o) { return o.iterLocks_ != 0; }

private:
  Object *o_;
};

} // namespace fbc::star
