// starlark_exec: `fbc exec` with nothing but the frontend linked in, so the
// interpreter can be timed (compare.py --fbc build/<dir>/bench/starlark_exec)
// while the rest of the tree is being changed. Same output and exit codes as
// `fbc exec [--allow=recursion] FILE`; the real command is what acceptance
// figures are measured with.
#include "frontend/eval/big_stack.h"
#include "frontend/eval/error_report.h"
#include "frontend/eval/interpreter.h"
#include "frontend/source/diagnostic.h"
#include "frontend/syntax/dialect.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  using namespace fbc;
  syntax::Dialect dialect;
  const char *file = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "exec"))
      continue;
    if (!std::strcmp(argv[i], "--allow=recursion"))
      dialect.allowRecursion = true;
    else if (!std::strcmp(argv[i], "--dialect=full"))
      dialect.allowWhile = dialect.allowTopLevelControl = dialect.allowGlobalReassign =
          dialect.allowRecursion = true;
    else
      file = argv[i];
  }
  if (!file) {
    std::fprintf(stderr, "usage: starlark_exec [exec] [--allow=recursion|--dialect=full] FILE\n");
    return 2;
  }
  frontend::SourceManager sources;
  std::string error;
  const frontend::SourceFile *src = sources.load(file, error);
  if (!src) {
    std::fprintf(stderr, "starlark_exec: error: %s\n", error.c_str());
    return 1;
  }
  return star::runWithLargeStack([&]() -> int {
    star::Interpreter interp(sources, dialect);
    interp.thread.print = [](std::string_view line) {
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fputc('\n', stdout);
    };
    frontend::DiagnosticList diags;
    star::Interpreter::Result r = interp.execFile(*src, diags);
    int rc = 0;
    if (r.staticErrors) {
      diags.print(llvm::errs());
      rc = 1;
    } else if (r.error) {
      star::printRuntimeError(llvm::errs(), *r.error, sources);
      rc = 1;
    }
    // As fbc exec: exit without tearing the heap down object by object.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(rc);
  });
}
