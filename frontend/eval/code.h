// The executable form of Starlark code: the compiler turns each AST node
// into a node object specialised for its operands (a local read, a small-int
// add, a method call, ...) whose eval()/exec() runs it directly. This is
// internal to frontend/eval.
#pragma once

#include "frontend/eval/function.h"
#include "frontend/eval/program.h"
#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Allocator.h>

#include <memory>
#include <mutex>
#include <vector>

namespace fbc::star {

// One activation of a function.
struct Frame {
  Thread &t;
  Value *locals;
  Cell **freevars;
  ModuleEnv *module;
  CallFrame *cf; // cf->pos is kept at the operation in progress
  Value result;  // set by `return`
};

class ExprCode {
public:
  explicit ExprCode(frontend::Pos pos) : pos(pos) {}
  virtual ~ExprCode() = default;
  virtual Value eval(Frame &fr) const = 0;
  // bool(eval(fr)); comparisons and `not` answer without making a Value.
  virtual bool cond(Frame &fr) const;
  // For the compiler's operand specialisation: the slot of a local read
  // (else -1), the value of a constant (else null).
  virtual int localSlot() const { return -1; }
  virtual Value constant() const { return Value(); }
  frontend::Pos pos;
};

// How a statement finished.
enum class Flow : uint8_t { Normal, Break, Continue, Return };

class StmtCode {
public:
  virtual ~StmtCode() = default;
  virtual Flow exec(Frame &fr) const = 0;
};

// The left-hand side of an assignment (or loop variables).
class TargetCode {
public:
  virtual ~TargetCode() = default;
  virtual void assign(Frame &fr, Value v) const = 0;
};

// Marks the operation in progress, for error positions.
inline void at(Frame &fr, frontend::Pos p) {
  fr.cf->pos = p;
}

// Owns every node of a Program. The nodes are bump-allocated (a large spec
// compiles to hundreds of thousands of small nodes, which malloc would pad
// and head one by one); the lists run their destructors (nodes own vectors
// and strings) before the memory goes with `alloc`.
struct Program::Arena {
  llvm::BumpPtrAllocator alloc;
  std::vector<ExprCode *> exprs;
  std::vector<StmtCode *> stmts;
  std::vector<TargetCode *> targets;
  std::vector<FunctionCode *> functions;

  template <class T, class... A> T *make(A &&...args) {
    return new (alloc.Allocate(sizeof(T), alignof(T))) T(std::forward<A>(args)...);
  }
  ~Arena() {
    for (ExprCode *p : exprs)
      p->~ExprCode();
    for (StmtCode *p : stmts)
      p->~StmtCode();
    for (TargetCode *p : targets)
      p->~TargetCode();
    for (FunctionCode *p : functions)
      p->~FunctionCode();
  }
};

// Shared pieces of the compiler (compile_*.cpp).
class Compiler {
public:
  Compiler(Program &prog, const Environment &env) : prog(prog), env(env) {}

  const ExprCode *expr(const syntax::Expr *e);
  const StmtCode *block(llvm::ArrayRef<syntax::Stmt *> stmts);
  const StmtCode *stmt(const syntax::Stmt *s);
  const TargetCode *target(const syntax::Expr *e);
  // The target a binding use (x = ..., def x, load(..., x=...)) assigns.
  const TargetCode *bindingTarget(const syntax::Ident *id);
  FunctionCode *function(const syntax::Function &fn, llvm::ArrayRef<syntax::Binding *> locals,
                         llvm::ArrayRef<syntax::Binding *> freevars, std::string name);

  template <class T, class... A> const T *node(A &&...args) {
    Program::Arena &a = current == &prog.toplevel ? *prog.toplevelArena : *prog.arena;
    T *raw = a.make<T>(std::forward<A>(args)...);
    if constexpr (std::is_base_of_v<ExprCode, T>)
      a.exprs.push_back(raw);
    else if constexpr (std::is_base_of_v<StmtCode, T>)
      a.stmts.push_back(raw);
    else
      a.targets.push_back(raw);
    return raw;
  }

  // An interned String constant.
  String *intern(llvm::StringRef s);

  Program &prog;
  const Environment &env;
  const frontend::SourceFile *file = nullptr;
  const FunctionCode *current = nullptr;

private:
  llvm::StringMap<String *> interned_;
};

// What compiles function bodies after compileProgram() has returned.
struct Program::Lazy {
  Lazy(Program &prog, Environment e) : env(std::move(e)), compiler(prog, env) {}
  Environment env;
  Compiler compiler;
  std::mutex mu; // bodies may be first called from several threads at once
};

// The function's body, compiled now if this is its first call.
const StmtCode *compiledBody(const FunctionCode &code);

// Reads of variables, shared by expressions and augmented assignment.
const ExprCode *compileIdent(Compiler &c, const syntax::Ident *id);
// Unary and binary operators (compile_operators.cpp).
const ExprCode *compileUnary(Compiler &c, const syntax::UnaryExpr *u);
const ExprCode *compileBinary(Compiler &c, const syntax::BinaryExpr *b);
// Builds a Function value for `code` in frame `fr` (def and lambda).
Value makeClosure(Frame &fr, const FunctionCode *code, llvm::ArrayRef<const ExprCode *> defaults);
// Default-value expressions of a def or lambda (null: mandatory kw-only).
std::vector<const ExprCode *> compileDefaults(Compiler &c, const syntax::Function &fn);
// x += y semantics (lists extend in place).
Value inplaceAdd(Frame &fr, Value x, Value y);
// x |= y semantics (dicts update in place).
Value inplacePipe(Frame &fr, Value x, Value y);

} // namespace fbc::star
