// The resolver's walk over statements and expressions: binding uses
// (assignments, parameters, loop variables, load), the checks Go's
// resolver makes on statements (control flow at top level, break outside
// a loop, ...) and on calls and comprehensions.
#include "frontend/resolve/resolver_impl.h"

namespace fbc::resolve {
namespace {

using namespace syntax;

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

} // namespace

namespace detail {

void Resolver::stmts(llvm::ArrayRef<Stmt *> list) {
  for (Stmt *s : list)
    stmt(s);
}

void Resolver::stmt(Stmt *s) {
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

  case Node::Kind::LoadStmt:
    load(llvm::cast<LoadStmt>(s));
    return;

  default:
    return;
  }
}

// load(): only at top level, outside loops and conditionals; binds its
// names (globally under loadBindsGlobally, else in the file block).
void Resolver::load(LoadStmt *l) {
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
}

void Resolver::assign(Expr *lhs, bool augmented) {
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

void Resolver::expr(Expr *e) {
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

void Resolver::comprehension(Comprehension *c) {
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

void Resolver::call(CallExpr *c) {
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
void Resolver::function(Function *fn) {
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
  fn->numParams =
      static_cast<uint32_t>(fn->params.size()) - (numKwonly > 0 && !fn->hasVarargs && star ? 1 : 0);

  stmts(fn->body);
  resolveLocalUses(b);
  loops_ = savedLoops;
  ifStmts_ = savedIfs;
  pop();
}

} // namespace detail
} // namespace fbc::resolve
