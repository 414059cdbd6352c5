// Compiled functions and their runtime objects: FunctionCode is what the
// compiler produces for a def, lambda or a module's top level; Function is a
// closure (code + defaults + captured cells + module); Cell boxes a variable
// shared between a function and the closures nested in it.
#pragma once

#include "frontend/lib/objects.h"
#include "frontend/lib/value.h"
#include "frontend/source/source_manager.h"
#include "frontend/syntax/ast.h"

#include <atomic>
#include <string>
#include <vector>

namespace fbc::star {

class StmtCode;
struct ModuleEnv;
class Program;

class Cell final : public Object {
public:
  static constexpr Kind kKind = Kind::Host;
  static constexpr bool kNeedsDestroy = false;
  explicit Cell(Value v) : Object(Kind::Host), value(v) {}
  std::string_view typeName() const override { return "cell"; }
  void repr(Printer &p) const override;
  Value value;
};

struct FunctionCode {
  std::string name; // "lambda" for lambdas, "<toplevel>" for a module
  frontend::Pos pos;
  const frontend::SourceFile *file = nullptr;

  uint32_t numLocals = 0;
  uint32_t numParams = 0; // including *args and **kwargs
  uint32_t numKwonly = 0;
  bool hasVarargs = false;
  bool hasKwargs = false;
  // Names of the ordinary parameters (numParams minus *args/**kwargs), as
  // interned Strings for keyword matching, and of every local for messages.
  std::vector<String *> paramNames;
  std::vector<std::string> localNames;
  // Locals captured by nested functions: their slots hold Cells.
  std::vector<uint32_t> cellLocals;
  // For each captured variable, where the closure finds it in the frame
  // that creates it: a cell slot of that frame, or one of its own freevars.
  struct Capture {
    bool fromFreevar;
    uint32_t index;
  };
  std::vector<Capture> captures;
  std::vector<std::string> freevarNames;

  // A def's or lambda's body is compiled on its first call (compiledBody()
  // in code.h): a spec defines thousands of test bodies that `fbc plan`
  // never calls, and their code would be most of the program's memory.
  // Null until then; set once, under the program's lock, possibly while
  // other threads call the function.
  mutable std::atomic<const StmtCode *> body{nullptr};
  Program *program = nullptr; // the program whose compiler compiles the body
  // The syntax it was compiled from (null for the top level). The
  // Interpreter keeps ASTs alive as long as itself, so analyses of a spec
  // (choose() axes in test bodies, ...) can walk a function's source.
  const syntax::Function *syntax = nullptr;
  // Number of active calls, for the "called recursively" check.
  mutable uint32_t active = 0;
};

class Function final : public Object {
public:
  static constexpr Kind kKind = Kind::Function;
  static constexpr bool kNeedsDestroy = false;
  Function(const FunctionCode *code, ModuleEnv *module, llvm::ArrayRef<Value> defaults,
           Cell **freevars)
      : Object(Kind::Function), code(code), module(module), defaults(defaults), freevars(freevars) {
  }
  std::string_view typeName() const override { return "function"; }
  void repr(Printer &p) const override;
  uint32_t hash(Thread &t) const override;
  bool callable() const override { return true; }
  Value call(Thread &t, const Args &args) override;
  std::string_view name() const override { return code->name; }
  void freeze() override;

  const FunctionCode *const code;
  ModuleEnv *const module;
  // Defaults of the parameters from the first optional one to the last
  // keyword-only one; a null entry marks a mandatory keyword-only parameter.
  const llvm::ArrayRef<Value> defaults;
  Cell **const freevars;
};

// Calls a Starlark function (argument binding as Go's setArgs).
Value callFunction(Thread &t, const Function &fn, const Args &args);

} // namespace fbc::star
