// A Thread is one Starlark execution: its heap, its call stack (for
// backtraces and recursion checks), print and load hooks, and dialect flags.
// Errors are C++ exceptions (EvalError) thrown through Thread::fail(); they
// cost nothing on the non-error path, and the backtrace is captured from the
// call stack at the throw.
#pragma once

#include "frontend/eval/heap.h"
#include "frontend/eval/value.h"
#include "frontend/source/source_manager.h"
#include "frontend/syntax/dialect.h"

#include <llvm/ADT/SmallVector.h>

#include <exception>
#include <functional>
#include <string>
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
// backtrace() renders "Traceback (most recent call last):" and the frames.
class EvalError : public std::exception {
public:
  explicit EvalError(std::string msg) : msg_(std::move(msg)) {}
  const char *what() const noexcept override { return msg_.c_str(); }
  const std::string &message() const { return msg_; }
  std::vector<TraceFrame> frames; // outermost first
  std::string backtrace() const;
  // The innermost frame that belongs to a Starlark file (not <builtin>).
  const TraceFrame *innermostSourceFrame() const;

private:
  std::string msg_;
};

// A call-stack entry. The evaluator keeps `pos` pointing at the operation in
// progress, so a failure anywhere reports the right line and column.
struct CallFrame {
  const Function *fn = nullptr;  // null for <toplevel> or a builtin
  const char *builtin = nullptr; // set for builtin frames
  const frontend::SourceFile *file = nullptr;
  frontend::Pos pos;
};

class Thread {
public:
  explicit Thread(Heap &heap) : heap(heap) {}

  Heap &heap;
  syntax::Dialect dialect;
  // Receives print() output (one call per print, without the newline).
  std::function<void(std::string_view)> print;
  // Resolves load("module", ...) relative to the loading file; returns the
  // module's frozen globals. Installed by the embedder (frontend/eval/loader.h).
  std::function<Value(Thread &, std::string_view module, const frontend::SourceFile *from)> load;
  // Free slot for the embedder (spec builtins keep their context here).
  void *userData = nullptr;

  // Throws an EvalError with `msg` and the current backtrace.
  [[noreturn]] void fail(std::string msg);

  // Call stack management for the evaluator and builtins.
  llvm::SmallVector<CallFrame, 32> stack;
  CallFrame &top() { return stack.back(); }
  // Maximum depth before "maximum recursion depth exceeded"-style errors.
  unsigned maxDepth = 10000;
};

// Keeps a builtin's frame on the stack while it runs ("<builtin>: in min").
class BuiltinFrame {
public:
  BuiltinFrame(Thread &t, const char *name) : t_(t) {
    t.stack.push_back(CallFrame{nullptr, name, nullptr, {}});
  }
  ~BuiltinFrame() { t_.stack.pop_back(); }

private:
  Thread &t_;
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
