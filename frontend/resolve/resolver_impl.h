// The resolver's class, shared by its halves: blocks, bindings and uses
// (resolver.cpp) and the walk over statements and expressions
// (resolve_walk.cpp). Internal to frontend/resolve; the interface is
// resolver.h.
#pragma once

#include "frontend/resolve/resolver.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>

#include <deque>
#include <string>
#include <vector>

namespace fbc::resolve::detail {

using frontend::Pos;
using namespace syntax;

struct Block;

// An identifier and the block in which it appears.
struct Use {
  Ident *id;
  Block *env;
};

struct Block {
  Block *parent = nullptr;
  Function *function = nullptr;  // function blocks only
  Comprehension *comp = nullptr; // comprehension blocks only
  llvm::DenseMap<llvm::StringRef, Binding *> bindings;
  llvm::SmallVector<Block *, 4> children;
  std::vector<Use> uses; // containers only: uses not yet resolved
  // Function blocks: the slots being allocated.
  llvm::SmallVector<Binding *, 8> locals;
  llvm::SmallVector<Binding *, 4> freevars;
};

class Resolver {
public:
  Resolver(AstContext &ctx, File &file, const Dialect &dialect, const Environment &env,
           frontend::DiagnosticList &diags)
      : ctx_(ctx), file_(file), environment_(env), diags_(diags),
        globalReassign_(dialect.allowGlobalReassign),
        topLevelControl_(dialect.allowTopLevelControl || dialect.allowGlobalReassign),
        allowWhile_(dialect.allowWhile), loadBindsGlobally_(dialect.loadBindsGlobally) {
    fileBlock_ = newBlock();
    env_ = fileBlock_;
  }

  bool run() {
    stmts(file_.stmts);
    resolveLocalUses(fileBlock_);
    resolveNonLocalUses(fileBlock_);

    file_.locals = ctx_.copy(llvm::ArrayRef<Binding *>(moduleLocals_));
    file_.globals = ctx_.copy(llvm::ArrayRef<Binding *>(moduleGlobals_));
    for (Block &b : blocks_) {
      if (!b.function)
        continue;
      b.function->locals = ctx_.copy(llvm::ArrayRef<Binding *>(b.locals));
      b.function->freevars = ctx_.copy(llvm::ArrayRef<Binding *>(b.freevars));
    }
    return !failed_;
  }

private:
  // ------------------------------------------------------------ helpers

  void error(Pos pos, std::string msg);

  std::string posString(Pos pos) const;

  Block *newBlock() { return &blocks_.emplace_back(); }

  Binding *newBinding(Scope scope, uint32_t index, Ident *first);

  // The innermost enclosing function block, or the file block.
  Block *container() const;

  void push(Block *b);
  void pop() { env_ = env_->parent; }

  // ----------------------------------------------------------- binding

  // Binds `id` in the current block: a global at top level (reporting a
  // reassignment unless the dialect allows it), a local otherwise. Returns
  // whether a binding already existed.
  bool bind(Ident *id);

  bool bindLocal(Ident *id);

  void use(Ident *id);

  // Resolves a name visible at top level: file-local, global,
  // predeclared or universal.
  Binding *useTopLevel(const Use &u);

  // The nearest name to a misspelled one among the enclosing blocks'
  // bindings, the module's globals and (when the embedder lists them) the
  // predeclared and universal names.
  std::string_view spellcheck(const Use &u);

  // Looks a use up within its own function (or the file).
  static Binding *lookupLocal(const Use &u);

  // On leaving a container: resolve uses of its locals and cells; keep the
  // rest (free, global, ...) for the end of the file.
  static void resolveLocalUses(Block *b);

  void resolveNonLocalUses(Block *b);

  // Looks a use up through the enclosing blocks. A local of an enclosing
  // function becomes a cell there and a free variable of every function in
  // between; results are memoized per block so each function captures a
  // name at most once.
  Binding *lookupLexical(const Use &u, Block *env);

  // --------------------------------------------------------- statements

  void stmts(llvm::ArrayRef<Stmt *> list);

  bool atTopLevel() const { return container()->function == nullptr; }

  void stmt(Stmt *s);
  void load(LoadStmt *l);

  void assign(Expr *lhs, bool augmented);

  // -------------------------------------------------------- expressions

  void expr(Expr *e);

  void comprehension(Comprehension *c);

  void call(CallExpr *c);

  // A def or lambda: defaults are resolved in the enclosing block, then
  // the parameters are bound (regular ones first, then *args, then
  // **kwargs, so the regular ones are contiguous) and the body resolved.
  void function(Function *fn);

  AstContext &ctx_;
  File &file_;
  const Environment &environment_;
  frontend::DiagnosticList &diags_;
  const bool globalReassign_;
  const bool topLevelControl_;
  const bool allowWhile_;
  const bool loadBindsGlobally_;

  std::deque<Block> blocks_;
  Block *fileBlock_ = nullptr;
  Block *env_ = nullptr;
  llvm::SmallVector<Binding *, 8> moduleLocals_;
  llvm::SmallVector<Binding *, 32> moduleGlobals_;
  llvm::StringMap<Binding *> globals_;
  llvm::StringMap<Binding *> predeclared_; // predeclared and universal
  std::vector<llvm::StringRef> spellNames_;
  int loops_ = 0;
  int ifStmts_ = 0;
  bool failed_ = false;
};

} // namespace fbc::resolve::detail
