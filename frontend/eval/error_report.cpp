#include "frontend/eval/error_report.h"

#include "frontend/source/diagnostic.h"

#include <llvm/Support/raw_ostream.h>

namespace fbc::star {

void printRuntimeError(llvm::raw_ostream &os, const EvalError &e,
                       const frontend::SourceManager &sources, TracebackMode mode) {
  const TraceFrame *f = e.innermostSourceFrame();
  frontend::Diagnostic d;
  d.message = e.message();
  if (f) {
    d.file = sources.find(f->file);
    d.pos = f->pos;
  }
  if (f && !d.file)
    os << f->file << ":" << f->pos.line << ":" << f->pos.col << ": error: " << e.message() << "\n";
  else
    frontend::printDiagnostic(os, d);

  size_t starlarkFrames = 0;
  for (const TraceFrame &tf : e.frames)
    if (tf.file != "<builtin>")
      ++starlarkFrames;
  // fbc exec prints Go's whole backtrace; elsewhere the diagnostic above
  // already says the message, so the frames alone follow it.
  if (mode == TracebackMode::Always)
    os << e.backtrace() << "\n";
  else if (starlarkFrames > 1)
    os << e.backtrace(/*errorLine=*/false) << "\n";
}

} // namespace fbc::star
