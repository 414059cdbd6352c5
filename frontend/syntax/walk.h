// Pre-order walks over a syntax tree, in source order, descending into
// nested defs, lambdas (parameter defaults included) and comprehensions.
// Static analyses that look for particular builtins (choose(), fault(),
// parallel(), the spec builtins' call sites) or names share them instead of
// each keeping its own switch over every node kind.
#pragma once

#include "frontend/syntax/ast.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Casting.h>

namespace fbc::syntax {

// `fn(const Expr *)` on every expression, parents before children.
template <class F> void forEachExpr(const Expr *e, F &&fn);
template <class F> void forEachExpr(llvm::ArrayRef<Stmt *> stmts, F &&fn);

template <class F> void forEachExpr(const Function *f, F &&fn) {
  for (const Param &p : f->params)
    if (p.defaultValue)
      forEachExpr(p.defaultValue, fn);
  forEachExpr(llvm::ArrayRef<Stmt *>(f->body), fn);
}

template <class F> void forEachExpr(const Expr *e, F &&fn) {
  if (!e)
    return;
  fn(e);
  switch (e->kind()) {
  case Node::Kind::ListExpr:
    for (const Expr *x : llvm::cast<ListExpr>(e)->elems)
      forEachExpr(x, fn);
    break;
  case Node::Kind::TupleExpr:
    for (const Expr *x : llvm::cast<TupleExpr>(e)->elems)
      forEachExpr(x, fn);
    break;
  case Node::Kind::DictExpr:
    for (const DictEntry &d : llvm::cast<DictExpr>(e)->entries) {
      forEachExpr(d.key, fn);
      forEachExpr(d.value, fn);
    }
    break;
  case Node::Kind::ParenExpr:
    forEachExpr(llvm::cast<ParenExpr>(e)->x, fn);
    break;
  case Node::Kind::UnaryExpr:
    forEachExpr(llvm::cast<UnaryExpr>(e)->x, fn);
    break;
  case Node::Kind::BinaryExpr: {
    auto *b = llvm::cast<BinaryExpr>(e);
    forEachExpr(b->x, fn);
    forEachExpr(b->y, fn);
    break;
  }
  case Node::Kind::CondExpr: { // `then if cond else otherwise`
    auto *c = llvm::cast<CondExpr>(e);
    forEachExpr(c->then, fn);
    forEachExpr(c->cond, fn);
    forEachExpr(c->otherwise, fn);
    break;
  }
  case Node::Kind::CallExpr: {
    auto *c = llvm::cast<CallExpr>(e);
    forEachExpr(c->fn, fn);
    for (const Argument &a : c->args)
      forEachExpr(a.value, fn);
    break;
  }
  case Node::Kind::DotExpr:
    forEachExpr(llvm::cast<DotExpr>(e)->x, fn);
    break;
  case Node::Kind::IndexExpr: {
    auto *i = llvm::cast<IndexExpr>(e);
    forEachExpr(i->x, fn);
    forEachExpr(i->index, fn);
    break;
  }
  case Node::Kind::SliceExpr: {
    auto *s = llvm::cast<SliceExpr>(e);
    forEachExpr(s->x, fn);
    forEachExpr(s->lo, fn);
    forEachExpr(s->hi, fn);
    forEachExpr(s->step, fn);
    break;
  }
  case Node::Kind::LambdaExpr:
    forEachExpr(llvm::cast<LambdaExpr>(e)->fn, fn);
    break;
  case Node::Kind::Comprehension: {
    auto *c = llvm::cast<Comprehension>(e);
    for (const Clause &cl : c->clauses) {
      forEachExpr(cl.vars, fn);
      forEachExpr(cl.x, fn);
    }
    forEachExpr(c->body, fn);
    break;
  }
  default:
    break;
  }
}

template <class F> void forEachExpr(llvm::ArrayRef<Stmt *> stmts, F &&fn) {
  for (const Stmt *s : stmts) {
    switch (s->kind()) {
    case Node::Kind::ExprStmt:
      forEachExpr(llvm::cast<ExprStmt>(s)->x, fn);
      break;
    case Node::Kind::AssignStmt: {
      auto *a = llvm::cast<AssignStmt>(s);
      forEachExpr(a->lhs, fn);
      forEachExpr(a->rhs, fn);
      break;
    }
    case Node::Kind::DefStmt:
      forEachExpr(llvm::cast<DefStmt>(s)->fn, fn);
      break;
    case Node::Kind::ReturnStmt:
      forEachExpr(llvm::cast<ReturnStmt>(s)->result, fn);
      break;
    case Node::Kind::IfStmt: {
      auto *i = llvm::cast<IfStmt>(s);
      forEachExpr(i->cond, fn);
      forEachExpr(i->then, fn);
      forEachExpr(i->otherwise, fn);
      break;
    }
    case Node::Kind::ForStmt: {
      auto *f = llvm::cast<ForStmt>(s);
      forEachExpr(f->vars, fn);
      forEachExpr(f->x, fn);
      forEachExpr(f->body, fn);
      break;
    }
    case Node::Kind::WhileStmt: {
      auto *w = llvm::cast<WhileStmt>(s);
      forEachExpr(w->cond, fn);
      forEachExpr(w->body, fn);
      break;
    }
    default:
      break;
    }
  }
}

// `fn(const CallExpr *)` on every call, an outer call before the calls in
// its callee and arguments. `Node` is an Expr, a Function or a statement list.
template <class Node, class F> void forEachCall(const Node &node, F &&fn) {
  forEachExpr(node, [&](const Expr *e) {
    if (auto *c = llvm::dyn_cast<CallExpr>(e))
      fn(c);
  });
}

} // namespace fbc::syntax
