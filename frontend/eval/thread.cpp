#include "frontend/eval/thread.h"

#include <algorithm>
#include <string>

namespace fbc::star {

void Thread::fail(std::string msg) {
  failWithCode("", std::move(msg));
}

void Thread::failWithCode(std::string_view code, std::string msg) {
  EvalError err(std::move(msg));
  err.code = std::string(code);
  for (const CallFrame *f = top; f; f = f->parent) {
    TraceFrame tf;
    tf.file = f->file ? f->file->path() : "<builtin>";
    tf.pos = f->pos;
    tf.function = f->name ? f->name : "<toplevel>";
    err.frames.push_back(std::move(tf));
  }
  std::reverse(err.frames.begin(), err.frames.end()); // outermost first
  throw err;
}

// The slow path of step(): past maxSteps, fail; otherwise call the
// checkpoint (if any: a spare call, on the first step, is harmless).
// Then set the next bound. cancel() may run concurrently on another thread;
// every access here is sequentially consistent, and the bound is re-checked
// against maxSteps after it is stored, so a cancel is never overwritten: either
// this thread's re-read sees maxSteps == 0, or cancel()'s store of the bound
// comes after ours.
void Thread::stepBoundReached() {
  std::atomic_ref<uint64_t> max(maxSteps), bound(nextCheck_);
  if (steps > max.load())
    fail("Starlark computation cancelled: too many steps");
  uint64_t next = max.load();
  if (checkpoint) {
    checkpoint();
    next = std::min(next, steps + checkpointEvery);
  }
  bound.store(next);
  if (uint64_t now = max.load(); now < next)
    bound.store(now);
}

void Thread::cancel() {
  std::atomic_ref<uint64_t>(maxSteps).store(0);
  std::atomic_ref<uint64_t>(nextCheck_).store(0);
}

// The recent go.starlark.net's message for a call past its depth limit
// (go.starlark.net PR #619); like Go, fbc does not promise the limit itself.
void Thread::tooDeep() {
  fail("Starlark stack overflow");
}

const TraceFrame *EvalError::innermostSourceFrame() const {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    if (it->file != "<builtin>")
      return &*it;
  return nullptr;
}

std::vector<std::string> EvalError::frameLines(bool keepBuiltin) const {
  size_t n = frames.size();
  if (!keepBuiltin && n > 0 && frames.back().file == "<builtin>")
    --n; // folded into the error line (or named by the message itself)
  std::vector<std::string> lines;
  lines.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const TraceFrame &f = frames[i];
    std::string line = f.file;
    if (f.pos.valid())
      line.append(":")
          .append(std::to_string(f.pos.line))
          .append(":")
          .append(std::to_string(f.pos.col));
    line.append(": in ").append(f.function);
    lines.push_back(std::move(line));
  }
  return lines;
}

// Go's format: the frames, outermost first; if the innermost frame is a
// builtin it is folded into the last line ("Error in append: ...").
std::string EvalError::backtrace(bool errorLine) const {
  std::string out = "Traceback (most recent call last):";
  for (const std::string &line : frameLines())
    out.append("\n  ").append(line);
  if (!errorLine)
    return out;
  out.append("\nError");
  if (!frames.empty() && frames.back().file == "<builtin>")
    out.append(" in ").append(frames.back().function);
  out.append(": ").append(msg_);
  return out;
}

} // namespace fbc::star
