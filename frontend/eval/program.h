// Compiling and running a module: a resolved syntax::File becomes a Program
// (code + constants), and running a Program in a Thread yields the module's
// globals.
#pragma once

#include "frontend/eval/function.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/heap.h"
#include "frontend/syntax/ast.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fbc::star {

// Names visible without definition: the embedder's predeclared values and
// the universe. Looked up once, at compile time (which, for a function
// body, is its first call: the lookups must stay valid as long as the
// program).
struct Environment {
  std::function<Value(llvm::StringRef)> predeclared;
  std::function<Value(llvm::StringRef)> universal;
};

// The globals of one executing (or executed) module. It lives in the
// Thread's heap, like the functions that refer to it.
struct ModuleEnv final : public Object {
  static constexpr Kind kKind = Kind::Host;
  static constexpr bool kNeedsDestroy = true;
  ModuleEnv() : Object(Kind::Host) {}
  std::string_view typeName() const override { return "module_env"; }
  void repr(Printer &p) const override;

  const frontend::SourceFile *file = nullptr;
  std::vector<std::string> names; // by global index
  std::vector<Value> globals;     // null until assigned

  // Global by name, or null.
  Value get(std::string_view name) const;

  // What each top-level load() bound, by the identifier it bound (a
  // file-local, gone with the top level's frame): lets a static pass see
  // through `load("x.star", "api")` to the value, as it sees a global.
  std::vector<std::pair<const syntax::Ident *, Value>> loadBindings;
  // The value load() bound to `to`, or null.
  Value loaded(const syntax::Ident *to) const;
};

class Program {
public:
  // The compiled top level; nested functions hang off it.
  FunctionCode toplevel;
  std::vector<std::string> globalNames;
  // Constants (strings, floats, big ints, interned keyword names) and the
  // functions' code nodes live as long as the program; the top level's own
  // nodes (outside any def or lambda) are in `toplevelArena`, freed by
  // releaseToplevel() once the module has run.
  Heap constants;
  struct Arena;
  std::unique_ptr<Arena> arena;
  std::unique_ptr<Arena> toplevelArena;
  // The compiler, kept for the function bodies compiled on first call.
  struct Lazy;
  std::unique_ptr<Lazy> lazy;

  Program();
  ~Program();
};

// Compiles a resolved file. FunctionCode::syntax points into the file's
// AST, which must outlive the program if that field is used.
std::unique_ptr<Program> compileProgram(const syntax::File &file, Environment env);

// Runs the program's top level. On success the module's globals are frozen
// (Go semantics) and returned; errors propagate as EvalError.
ModuleEnv *execProgram(Thread &t, const Program &prog);

// Frees the top level's code nodes after execProgram: a module runs once,
// and the functions it defined keep their own code (and their defaults,
// evaluated when the def ran). A large spec's top level (service(),
// test(), fault_matrix() calls) is most of its compiled code, so its memory
// is reused by what follows. The program cannot be run again.
void releaseToplevel(Program &prog);

} // namespace fbc::star
