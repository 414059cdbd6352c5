#include "tools/fbc/exec_command.h"

#include "frontend/eval/big_stack.h"
#include "frontend/eval/error_report.h"
#include "frontend/eval/interpreter.h"
#include "frontend/source/diagnostic.h"
#include "frontend/syntax/dialect.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <cstdlib>

namespace fbc::tools {
namespace {

// Applies --dialect and --allow; false (after printing why) on a bad value.
bool buildDialect(const ExecOptions &opts, syntax::Dialect &d) {
  if (opts.dialect == "full") {
    d.allowWhile = d.allowTopLevelControl = d.allowGlobalReassign = d.allowRecursion = true;
  } else if (opts.dialect != "strict") {
    std::fprintf(stderr, "fbc: error: unknown dialect '%s' (dialects: strict, full)\n",
                 opts.dialect.c_str());
    return false;
  }
  for (const std::string &feature : opts.allow) {
    if (feature == "while")
      d.allowWhile = true;
    else if (feature == "toplevel")
      d.allowTopLevelControl = true;
    else if (feature == "globalreassign")
      d.allowGlobalReassign = true;
    else if (feature == "recursion")
      d.allowRecursion = true;
    else {
      std::fprintf(stderr,
                   "fbc: error: unknown --allow feature '%s' "
                   "(features: while, toplevel, globalreassign, recursion)\n",
                   feature.c_str());
      return false;
    }
  }
  return true;
}

} // namespace

int runExec(const ExecOptions &opts) {
  syntax::Dialect dialect;
  if (!buildDialect(opts, dialect))
    return 1;

  frontend::SourceManager sources;
  std::string error;
  const frontend::SourceFile *src = sources.load(opts.file, error);
  if (!src) {
    std::fprintf(stderr, "fbc: error: %s\n", error.c_str());
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
    std::fflush(stdout);
    int rc = 0;
    if (r.staticErrors) {
      diags.print(llvm::errs());
      rc = 1;
    } else if (r.error) {
      star::printRuntimeError(llvm::errs(), *r.error, sources);
      rc = 1;
    }
    // The process ends here: exit without destroying the interpreter, whose
    // heap teardown (a destructor per list, then the slabs) was up to 7% of
    // the run time of allocation-heavy programs. The OS reclaims it all.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(rc);
  });
}

} // namespace fbc::tools
