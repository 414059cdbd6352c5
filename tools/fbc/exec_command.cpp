#include "tools/fbc/exec_command.h"

#include "frontend/resolve/resolver.h"
#include "frontend/source/diagnostic.h"
#include "frontend/syntax/dialect.h"
#include "frontend/syntax/parser.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>

namespace fbc::tools {
namespace {

// The universe of Go Starlark: names every module sees.
bool isUniversal(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("None", "True", "False", "abs", "any", "all", "bool", "bytes", "chr", true)
      .Cases("dict", "dir", "enumerate", "fail", "float", "getattr", "hasattr", "hash", true)
      .Cases("int", "len", "list", "max", "min", "ord", "print", "range", "repr", true)
      .Cases("reversed", "set", "sorted", "str", "tuple", "type", "zip", true)
      .Default(false);
}

bool noPredeclared(llvm::StringRef) {
  return false;
}

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

// ===================================================================
// EVALUATION HOOK: the evaluator (frontend/eval, the lead's) runs the
// resolved file here and returns the exit code (printing any runtime
// error with its backtrace to stderr). Until it is wired in, a program
// that parses and resolves succeeds without running.
// ===================================================================
int evaluate(const frontend::SourceFile &, syntax::AstContext &, syntax::File &,
             const syntax::Dialect &) {
  return 0;
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

  syntax::AstContext ctx;
  frontend::DiagnosticList diags;
  syntax::File *file = syntax::parseFile(ctx, *src, diags);
  if (file) {
    resolve::Environment env{noPredeclared, isUniversal};
    resolve::resolveFile(ctx, *file, dialect, env, diags);
  }
  if (diags.hasErrors()) {
    diags.print(llvm::errs());
    return 1;
  }
  return evaluate(*src, ctx, *file, dialect);
}

} // namespace fbc::tools
