// Printing a Starlark runtime error the way every fbc command does: a
// diagnostic at the innermost Starlark frame (file:line:col, the source line
// and a caret), then Go's backtrace.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/source/source_manager.h"

namespace llvm {
class raw_ostream;
}

namespace fbc::star {

enum class TracebackMode {
  Always,   // fbc exec: always print the backtrace
  IfNested, // spec loading: the frames only, when the error is inside a call
};

// `sources` finds the frame's file (by path) for the source line; a frame
// in a file it does not know is printed without the line and caret.
void printRuntimeError(llvm::raw_ostream &os, const EvalError &e,
                       const frontend::SourceManager &sources,
                       TracebackMode mode = TracebackMode::Always);

} // namespace fbc::star
