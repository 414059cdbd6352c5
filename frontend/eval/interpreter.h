// The frontend's front door: parse, resolve, compile and run a Starlark
// file, with load() of other files relative to the loading one (each module
// loaded once, cycles reported). Embedders add predeclared names (spec
// builtins, the conformance runner's host values) and may intercept loads.
#pragma once

#include "frontend/eval/program.h"
#include "frontend/eval/thread.h"
#include "frontend/source/diagnostic.h"
#include "frontend/syntax/ast.h"
#include "frontend/syntax/dialect.h"

#include <llvm/ADT/StringMap.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fbc::star {

class Interpreter {
public:
  Interpreter(frontend::SourceManager &sources, syntax::Dialect dialect = {});
  ~Interpreter();

  Heap heap;
  Thread thread;
  frontend::SourceManager &sources;
  syntax::Dialect dialect;
  // Names visible in every module besides the universe.
  llvm::StringMap<Value> predeclared;
  // Consulted before the file system: return a module value (anything
  // with attributes) for `module`, or null to load the file.
  std::function<Value(Interpreter &, std::string_view module)> loadHook;
  // Called with every file that parsed and resolved (the main file and each
  // load()ed module), before it runs. The AST lives as long as the
  // interpreter; embedders index it (e.g. call sites for diagnostics).
  std::function<void(const syntax::File &)> onParse;

  struct Result {
    ModuleEnv *module = nullptr;    // set on success
    std::optional<EvalError> error; // a runtime error
    bool staticErrors = false;      // parse/resolve errors are in diags
  };

  // Runs a file as the main module.
  Result execFile(const frontend::SourceFile &file, frontend::DiagnosticList &diags);

  // Parses and resolves a file (no execution). Null on errors (in diags).
  const syntax::File *parse(const frontend::SourceFile &file, frontend::DiagnosticList &diags);
  // Compiles a resolved file with this interpreter's environment.
  std::unique_ptr<Program> compile(const syntax::File &file);
  // Compiles and runs a resolved file; the program is kept alive as long as
  // the interpreter (its functions may be called later; see releaseToplevel).
  ModuleEnv *run(const syntax::File &file);

private:
  Value loadModule(std::string_view module, const frontend::SourceFile *from);

  std::vector<std::unique_ptr<syntax::AstContext>> asts_;
  std::vector<std::unique_ptr<Program>> programs_;
  struct Loaded {
    Value module; // null while loading (cycle detection)
    bool inProgress;
  };
  llvm::StringMap<Loaded> loaded_;
};

// Exports of an executed module as a Module value (globals not starting
// with '_', sorted).
Value moduleValue(Heap &heap, const ModuleEnv &env, std::string name);

} // namespace fbc::star
