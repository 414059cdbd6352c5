// Name resolution with the semantics of Go's resolve/resolve.go.
//
// The lexical environment is a tree of blocks: the file block at the root,
// function and comprehension blocks below it. Binding uses (assignments,
// parameters, loop variables) create bindings as they are met; other uses
// are recorded per container (function or file) and resolved when the
// container ends (locals and cells), or at the end of the file (free
// variables, globals, predeclared and universal names), because a function
// may refer to a global or an enclosing local bound later in the text.
#include "frontend/resolve/resolver.h"

#include "frontend/lib/spellcheck.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

namespace fbc::resolve {
namespace {

using frontend::Pos;
using namespace syntax;

const char *scopeName(Scope s) {
  switch (s) {
  case Scope::Undefined:
    return "undefined";
  case Scope::Local:
    return "local";
  case Scope::Cell:
    return "cell";
  case Scope::Free:
    return "free";
  case Scope::Global:
    return "global";
  case Scope::Predeclared:
    return "predeclared";
  case Scope::Universal:
    return "universal";
  }
  return "?";
}

// Go's lower-cased syntax type names, for "can't assign to literal".
const char *nodeTypeName(const Expr *e) {
  switch (e->kind()) {
  case Node::Kind::IntLit:
  case Node::Kind::FloatLit:
  case Node::Kind::StringLit:
  case Node::Kind::BytesLit:
    return "literal";
  case Node::Kind::DictExpr:
    return "dictexpr";
  case Node::Kind::UnaryExpr:
    return "unaryexpr";
  case Node::Kind::BinaryExpr:
    return "binaryexpr";
  case Node::Kind::CondExpr:
    return "condexpr";
  case Node::Kind::CallExpr:
    return "callexpr";
  case Node::Kind::SliceExpr:
    return "sliceexpr";
  case Node::Kind::LambdaExpr:
    return "lambdaexpr";
  case Node::Kind::Comprehension:
    return "comprehension";
  default:
    return "expr";
  }
}

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

  void error(Pos pos, std::string msg) {
    diags_.error(file_.source, pos, std::move(msg));
    failed_ = true;
  }

  std::string posString(Pos pos) const {
    std::string path = file_.source ? file_.source->path() : "<unknown>";
    return path + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col);
  }

  Block *newBlock() { return &blocks_.emplace_back(); }

  Binding *newBinding(Scope scope, uint32_t index, Ident *first) {
    Binding *b = ctx_.make<Binding>();
    b->scope = scope;
    b->index = index;
    b->first = first;
    return b;
  }

  // The innermost enclosing function block, or the file block.
  Block *container() const {
    for (Block *b = env_;; b = b->parent)
      if (b->function || b == fileBlock_)
        return b;
  }

  void push(Block *b) {
    env_->children.push_back(b);
    b->parent = env_;
    env_ = b;
  }
  void pop() { env_ = env_->parent; }

  // ----------------------------------------------------------- binding

  // Binds `id` in the current block: a global at top level (reporting a
  // reassignment unless the dialect allows it), a local otherwise. Returns
  // whether a binding already existed.
  bool bind(Ident *id) {
    if (env_ != fileBlock_)
      return bindLocal(id);
    Binding *b = fileBlock_->bindings.lookup(id->name);
    bool existed = b != nullptr;
    if (!b) {
      auto [it, inserted] = globals_.try_emplace(id->name, nullptr);
      existed = !inserted;
      if (inserted) {
        it->second = newBinding(Scope::Global, static_cast<uint32_t>(moduleGlobals_.size()), id);
        moduleGlobals_.push_back(it->second);
      }
      b = it->second;
    }
    if (existed && !globalReassign_)
      error(id->pos, std::string("cannot reassign ") + scopeName(b->scope) + " " + id->name.str() +
                         " declared at " + posString(b->first->pos));
    id->binding = b;
    return existed;
  }

  bool bindLocal(Ident *id) {
    bool existed = env_->bindings.count(id->name) != 0;
    if (!existed) {
      Block *c = container();
      auto &locals = c->function ? c->locals : moduleLocals_;
      Binding *b = newBinding(Scope::Local, static_cast<uint32_t>(locals.size()), id);
      env_->bindings[id->name] = b;
      locals.push_back(b);
    }
    use(id);
    return existed;
  }

  void use(Ident *id) {
    Use u{id, env_};
    // Legacy (Bazel/Python) semantics piggyback on global reassignment: a
    // top-level use sees only the bindings made before it.
    if (globalReassign_ && env_ == fileBlock_) {
      useTopLevel(u);
      return;
    }
    container()->uses.push_back(u);
  }

  // Resolves a name visible at top level: file-local, global,
  // predeclared or universal.
  Binding *useTopLevel(const Use &u) {
    Ident *id = u.id;
    Binding *b = fileBlock_->bindings.lookup(id->name);
    if (!b)
      b = globals_.lookup(id->name);
    if (!b)
      b = predeclared_.lookup(id->name);
    if (!b) {
      if (environment_.isPredeclared && environment_.isPredeclared(id->name)) {
        b = newBinding(Scope::Predeclared, 0, nullptr);
        predeclared_[id->name] = b;
      } else if (environment_.isUniversal && environment_.isUniversal(id->name)) {
        b = newBinding(Scope::Universal, 0, nullptr);
        predeclared_[id->name] = b;
      } else {
        b = newBinding(Scope::Undefined, 0, nullptr);
        std::string msg = "undefined: " + id->name.str();
        std::string_view hint = spellcheck(u);
        if (!hint.empty())
          msg += " (did you mean " + std::string(hint) + "?)";
        error(id->pos, std::move(msg));
      }
    }
    id->binding = b;
    return b;
  }

  // The nearest name to a misspelled one among the enclosing blocks'
  // bindings, the module's globals and (when the embedder lists them) the
  // predeclared and universal names.
  std::string_view spellcheck(const Use &u) {
    spellNames_.clear();
    for (Block *b = u.env; b; b = b->parent)
      for (auto &entry : b->bindings)
        spellNames_.push_back(entry.first);
    for (Binding *g : moduleGlobals_)
      spellNames_.push_back(g->first->name);
    if (environment_.allPredeclared)
      environment_.allPredeclared(spellNames_);
    std::sort(spellNames_.begin(), spellNames_.end());
    llvm::SmallVector<std::string_view, 32> names;
    for (llvm::StringRef n : spellNames_)
      names.push_back(std::string_view(n.data(), n.size()));
    return star::nearestName(std::string_view(u.id->name.data(), u.id->name.size()), names);
  }

  // Looks a use up within its own function (or the file).
  static Binding *lookupLocal(const Use &u) {
    for (Block *b = u.env; b; b = b->parent) {
      if (Binding *found = b->bindings.lookup(u.id->name))
        return found;
      if (b->function)
        break;
    }
    return nullptr;
  }

  // On leaving a container: resolve uses of its locals and cells; keep the
  // rest (free, global, ...) for the end of the file.
  static void resolveLocalUses(Block *b) {
    auto unresolved = b->uses.begin();
    for (const Use &u : b->uses) {
      Binding *found = lookupLocal(u);
      if (found && (found->scope == Scope::Local || found->scope == Scope::Cell))
        u.id->binding = found;
      else
        *unresolved++ = u;
    }
    b->uses.erase(unresolved, b->uses.end());
  }

  void resolveNonLocalUses(Block *b) {
    for (Block *child : b->children)
      resolveNonLocalUses(child);
    for (const Use &u : b->uses)
      u.id->binding = lookupLexical(u, u.env);
  }

  // Looks a use up through the enclosing blocks. A local of an enclosing
  // function becomes a cell there and a free variable of every function in
  // between; results are memoized per block so each function captures a
  // name at most once.
  Binding *lookupLexical(const Use &u, Block *env) {
    if (env == fileBlock_)
      return useTopLevel(u);
    if (Binding *b = env->bindings.lookup(u.id->name))
      return b;
    Binding *b = lookupLexical(u, env->parent);
    if (env->function &&
        (b->scope == Scope::Local || b->scope == Scope::Free || b->scope == Scope::Cell)) {
      if (b->scope == Scope::Local)
        b->scope = Scope::Cell;
      uint32_t index = static_cast<uint32_t>(env->freevars.size());
      env->freevars.push_back(b);
      b = newBinding(Scope::Free, index, b->first);
    }
    env->bindings[u.id->name] = b;
    return b;
  }

  // --------------------------------------------------------- statements

  void stmts(llvm::ArrayRef<Stmt *> list) {
    for (Stmt *s : list)
      stmt(s);
  }

  bool atTopLevel() const { return container()->function == nullptr; }

  void stmt(Stmt *s) {
    switch (s->kind()) {
    case Node::Kind::ExprStmt:
      expr(llvm::cast<ExprStmt>(s)->x);
      return;

    case Node::Kind::BranchStmt: {
      auto *b = llvm::cast<BranchStmt>(s);
      if (loops_ == 0 && b->token != BranchStmt::Token::Pass)
        error(b->pos, b->token == BranchStmt::Token::Break ? "break not in a loop"
                                                           : "continue not in a loop");
      return;
    }

    case Node::Kind::IfStmt: {
      auto *i = llvm::cast<IfStmt>(s);
      if (!topLevelControl_ && atTopLevel())
        error(i->pos, "if statement not within a function");
      expr(i->cond);
      ++ifStmts_;
      stmts(i->then);
      stmts(i->otherwise);
      --ifStmts_;
      return;
    }

    case Node::Kind::AssignStmt: {
      auto *a = llvm::cast<AssignStmt>(s);
      expr(a->rhs);
      assign(a->lhs, a->op != Op::Eq);
      return;
    }

    case Node::Kind::DefStmt: {
      auto *d = llvm::cast<DefStmt>(s);
      bind(d->name);
      function(d->fn);
      return;
    }

    case Node::Kind::ForStmt: {
      auto *f = llvm::cast<ForStmt>(s);
      if (!topLevelControl_ && atTopLevel())
        error(f->pos, "for loop not within a function");
      expr(f->x);
      assign(f->vars, false);
      ++loops_;
      stmts(f->body);
      --loops_;
      return;
    }

    case Node::Kind::WhileStmt: {
      auto *w = llvm::cast<WhileStmt>(s);
      if (!allowWhile_)
        error(w->pos, "this Starlark dialect does not support while loops");
      if (!topLevelControl_ && atTopLevel())
        error(w->pos, "while loop not within a function");
      expr(w->cond);
      ++loops_;
      stmts(w->body);
      --loops_;
      return;
    }

    case Node::Kind::ReturnStmt: {
      auto *r = llvm::cast<ReturnStmt>(s);
      if (atTopLevel())
        error(r->pos, "return statement not within a function");
      if (r->result)
        expr(r->result);
      return;
    }

    case Node::Kind::LoadStmt: {
      auto *l = llvm::cast<LoadStmt>(s);
      if (!atTopLevel())
        error(l->pos, "load statement within a function");
      else if (loops_ > 0)
        error(l->pos, "load statement within a loop");
      else if (ifStmts_ > 0)
        error(l->pos, "load statement within a conditional");
      for (size_t i = 0; i < l->from.size(); ++i) {
        Ident *from = l->from[i];
        if (from->name.empty()) {
          error(from->pos, "load: empty identifier");
          continue;
        }
        if (from->name.front() == '_')
          error(from->pos,
                "load: names with leading underscores are not exported: " + from->name.str());
        Ident *to = l->to[i];
        if (loadBindsGlobally_)
          bind(to);
        else if (bindLocal(to) && !globalReassign_)
          error(to->pos, "cannot reassign top-level " + to->name.str());
      }
      return;
    }

    default:
      return;
    }
  }

  void assign(Expr *lhs, bool augmented) {
    switch (lhs->kind()) {
    case Node::Kind::Ident:
      bind(llvm::cast<Ident>(lhs));
      return;
    case Node::Kind::IndexExpr: {
      auto *i = llvm::cast<IndexExpr>(lhs);
      expr(i->x);
      expr(i->index);
      return;
    }
    case Node::Kind::DotExpr:
      expr(llvm::cast<DotExpr>(lhs)->x);
      return;
    case Node::Kind::TupleExpr:
      if (augmented)
        error(lhs->pos, "can't use tuple expression in augmented assignment");
      for (Expr *e : llvm::cast<TupleExpr>(lhs)->elems)
        assign(e, augmented);
      return;
    case Node::Kind::ListExpr:
      if (augmented)
        error(lhs->pos, "can't use list expression in augmented assignment");
      for (Expr *e : llvm::cast<ListExpr>(lhs)->elems)
        assign(e, augmented);
      return;
    case Node::Kind::ParenExpr:
      assign(llvm::cast<ParenExpr>(lhs)->x, augmented);
      return;
    default:
      error(lhs->pos, std::string("can't assign to ") + nodeTypeName(lhs));
    }
  }

  // -------------------------------------------------------- expressions

  void expr(Expr *e) {
    switch (e->kind()) {
    case Node::Kind::Ident:
      use(llvm::cast<Ident>(e));
      return;
    case Node::Kind::IntLit:
    case Node::Kind::FloatLit:
    case Node::Kind::StringLit:
    case Node::Kind::BytesLit:
      return;
    case Node::Kind::ListExpr:
      for (Expr *x : llvm::cast<ListExpr>(e)->elems)
        expr(x);
      return;
    case Node::Kind::TupleExpr:
      for (Expr *x : llvm::cast<TupleExpr>(e)->elems)
        expr(x);
      return;
    case Node::Kind::DictExpr:
      for (const DictEntry &entry : llvm::cast<DictExpr>(e)->entries) {
        expr(entry.key);
        expr(entry.value);
      }
      return;
    case Node::Kind::ParenExpr:
      expr(llvm::cast<ParenExpr>(e)->x);
      return;
    case Node::Kind::UnaryExpr:
      expr(llvm::cast<UnaryExpr>(e)->x);
      return;
    case Node::Kind::BinaryExpr: {
      auto *b = llvm::cast<BinaryExpr>(e);
      expr(b->x);
      expr(b->y);
      return;
    }
    case Node::Kind::CondExpr: {
      auto *c = llvm::cast<CondExpr>(e);
      expr(c->cond);
      expr(c->then);
      expr(c->otherwise);
      return;
    }
    case Node::Kind::DotExpr:
      expr(llvm::cast<DotExpr>(e)->x);
      return;
    case Node::Kind::IndexExpr: {
      auto *i = llvm::cast<IndexExpr>(e);
      expr(i->x);
      expr(i->index);
      return;
    }
    case Node::Kind::SliceExpr: {
      auto *s = llvm::cast<SliceExpr>(e);
      expr(s->x);
      if (s->lo)
        expr(s->lo);
      if (s->hi)
        expr(s->hi);
      if (s->step)
        expr(s->step);
      return;
    }
    case Node::Kind::CallExpr:
      call(llvm::cast<CallExpr>(e));
      return;
    case Node::Kind::LambdaExpr:
      function(llvm::cast<LambdaExpr>(e)->fn);
      return;
    case Node::Kind::Comprehension:
      comprehension(llvm::cast<Comprehension>(e));
      return;
    default:
      return;
    }
  }

  void comprehension(Comprehension *c) {
    // The first `in` operand is resolved in the enclosing block:
    // [x for x in x] reads the outer x.
    const Clause &first = c->clauses[0];
    expr(first.x);

    Block *b = newBlock();
    b->comp = c;
    push(b);
    assign(first.vars, false);
    for (const Clause &clause : c->clauses.drop_front()) {
      if (clause.kind == Clause::Kind::If) {
        expr(clause.x);
      } else {
        assign(clause.vars, false);
        expr(clause.x);
      }
    }
    expr(c->body);
    pop();
  }

  void call(CallExpr *c) {
    expr(c->fn);
    bool seenVarargs = false, seenKwargs = false;
    llvm::SmallVector<llvm::StringRef, 8> seenNames;
    unsigned positional = 0, named = 0;
    for (const Argument &a : c->args) {
      switch (a.kind) {
      case Argument::Kind::StarStar:
        if (seenKwargs)
          error(a.pos, "multiple **kwargs not allowed");
        seenKwargs = true;
        expr(a.value);
        break;
      case Argument::Kind::Star:
        if (seenKwargs)
          error(a.pos, "*args may not follow **kwargs");
        else if (seenVarargs)
          error(a.pos, "multiple *args not allowed");
        seenVarargs = true;
        expr(a.value);
        break;
      case Argument::Kind::Named:
        ++named;
        if (seenKwargs)
          error(a.pos, "keyword argument may not follow **kwargs");
        else if (seenVarargs)
          error(a.pos, "keyword argument may not follow *args");
        if (llvm::is_contained(seenNames, a.name->name))
          error(a.name->pos, "keyword argument " + a.name->name.str() + " repeated");
        else
          seenNames.push_back(a.name->name);
        expr(a.value);
        break;
      case Argument::Kind::Positional:
        ++positional;
        if (seenVarargs)
          error(a.pos, "positional argument may not follow *args");
        else if (seenKwargs)
          error(a.pos, "positional argument may not follow **kwargs");
        else if (!seenNames.empty())
          error(a.pos, "positional argument may not follow named");
        expr(a.value);
        break;
      }
    }
    // Limits of Go's bytecode, kept so that programs stay portable.
    if (positional >= 256)
      error(c->pos, std::to_string(positional) + " positional arguments in call, limit is 255");
    if (named >= 256)
      error(c->pos, std::to_string(named) + " keyword arguments in call, limit is 255");
  }

  // A def or lambda: defaults are resolved in the enclosing block, then
  // the parameters are bound (regular ones first, then *args, then
  // **kwargs, so the regular ones are contiguous) and the body resolved.
  void function(Function *fn) {
    for (const Param &p : fn->params)
      if (p.kind == Param::Kind::Optional)
        expr(p.defaultValue);

    Block *b = newBlock();
    b->function = fn;
    push(b);
    // A nested function is not inside its enclosing loops.
    int savedLoops = loops_, savedIfs = ifStmts_;
    loops_ = ifStmts_ = 0;

    bool seenOptional = false;
    const Param *star = nullptr;
    Ident *starStar = nullptr;
    uint32_t numKwonly = 0;
    for (const Param &p : fn->params) {
      switch (p.kind) {
      case Param::Kind::Required:
        if (starStar)
          error(p.pos, "required parameter may not follow **" + starStar->name.str());
        else if (star)
          ++numKwonly;
        else if (seenOptional)
          error(p.pos, "required parameter may not follow optional");
        if (bind(p.name))
          error(p.name->pos, "duplicate parameter: " + p.name->name.str());
        break;
      case Param::Kind::Optional:
        if (starStar)
          error(p.pos, "optional parameter may not follow **" + starStar->name.str());
        else if (star)
          ++numKwonly;
        if (bind(p.name))
          error(p.pos, "duplicate parameter: " + p.name->name.str());
        seenOptional = true;
        break;
      case Param::Kind::Star:
        if (starStar)
          error(p.pos, "* parameter may not follow **" + starStar->name.str());
        else if (star)
          error(p.pos, "multiple * parameters not allowed");
        else
          star = &p;
        break;
      case Param::Kind::StarStar:
        if (starStar)
          error(p.pos, "multiple ** parameters not allowed");
        starStar = p.name;
        break;
      }
    }
    if (star) {
      if (star->name) {
        if (bind(star->name))
          error(star->name->pos, "duplicate parameter: " + star->name->name.str());
        fn->hasVarargs = true;
      } else if (numKwonly == 0) {
        error(star->pos, "bare * must be followed by keyword-only parameters");
      }
    }
    if (starStar) {
      if (bind(starStar))
        error(starStar->pos, "duplicate parameter: " + starStar->name.str());
      fn->hasKwargs = true;
    }
    fn->numKwonlyParams = numKwonly;
    // A bare `*` is not a parameter.
    fn->numParams = static_cast<uint32_t>(fn->params.size()) -
                    (numKwonly > 0 && !fn->hasVarargs && star ? 1 : 0);

    stmts(fn->body);
    resolveLocalUses(b);
    loops_ = savedLoops;
    ifStmts_ = savedIfs;
    pop();
  }

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

} // namespace

bool resolveFile(AstContext &ctx, File &file, const Dialect &dialect, const Environment &env,
                 frontend::DiagnosticList &diags) {
  return Resolver(ctx, file, dialect, env, diags).run();
}

} // namespace fbc::resolve
