#include "ir/builtins/call_site.h"

#include "ir/builtins/spec_builder.h"

namespace fbc::ir::builtins {

namespace {

using namespace fbc::syntax;

// Collects every call in a file, including those in function bodies.
class CallCollector {
public:
  explicit CallCollector(std::map<std::pair<uint32_t, uint32_t>, const CallExpr *> &out)
      : out_(out) {}

  void stmts(llvm::ArrayRef<Stmt *> list) {
    for (const Stmt *s : list)
      stmt(s);
  }

  void stmt(const Stmt *s) {
    if (!s)
      return;
    if (auto *x = llvm::dyn_cast<ExprStmt>(s)) {
      expr(x->x);
    } else if (auto *a = llvm::dyn_cast<AssignStmt>(s)) {
      expr(a->lhs);
      expr(a->rhs);
    } else if (auto *d = llvm::dyn_cast<DefStmt>(s)) {
      function(d->fn);
    } else if (auto *r = llvm::dyn_cast<ReturnStmt>(s)) {
      expr(r->result);
    } else if (auto *i = llvm::dyn_cast<IfStmt>(s)) {
      expr(i->cond);
      stmts(i->then);
      stmts(i->otherwise);
    } else if (auto *f = llvm::dyn_cast<ForStmt>(s)) {
      expr(f->vars);
      expr(f->x);
      stmts(f->body);
    } else if (auto *w = llvm::dyn_cast<WhileStmt>(s)) {
      expr(w->cond);
      stmts(w->body);
    }
  }

  void function(const Function *fn) {
    for (const Param &p : fn->params)
      expr(p.defaultValue);
    stmts(fn->body);
  }

  void expr(const Expr *e) {
    if (!e)
      return;
    switch (e->kind()) {
    case Node::Kind::ListExpr:
      for (const Expr *x : llvm::cast<ListExpr>(e)->elems)
        expr(x);
      break;
    case Node::Kind::TupleExpr:
      for (const Expr *x : llvm::cast<TupleExpr>(e)->elems)
        expr(x);
      break;
    case Node::Kind::DictExpr:
      for (const DictEntry &d : llvm::cast<DictExpr>(e)->entries) {
        expr(d.key);
        expr(d.value);
      }
      break;
    case Node::Kind::ParenExpr:
      expr(llvm::cast<ParenExpr>(e)->x);
      break;
    case Node::Kind::UnaryExpr:
      expr(llvm::cast<UnaryExpr>(e)->x);
      break;
    case Node::Kind::BinaryExpr:
      expr(llvm::cast<BinaryExpr>(e)->x);
      expr(llvm::cast<BinaryExpr>(e)->y);
      break;
    case Node::Kind::CondExpr: {
      auto *c = llvm::cast<CondExpr>(e);
      expr(c->cond);
      expr(c->then);
      expr(c->otherwise);
      break;
    }
    case Node::Kind::CallExpr: {
      auto *c = llvm::cast<CallExpr>(e);
      out_[{c->lparen.line, c->lparen.col}] = c;
      expr(c->fn);
      for (const Argument &a : c->args)
        expr(a.value);
      break;
    }
    case Node::Kind::DotExpr:
      expr(llvm::cast<DotExpr>(e)->x);
      break;
    case Node::Kind::IndexExpr:
      expr(llvm::cast<IndexExpr>(e)->x);
      expr(llvm::cast<IndexExpr>(e)->index);
      break;
    case Node::Kind::SliceExpr: {
      auto *s = llvm::cast<SliceExpr>(e);
      expr(s->x);
      expr(s->lo);
      expr(s->hi);
      expr(s->step);
      break;
    }
    case Node::Kind::LambdaExpr:
      function(llvm::cast<LambdaExpr>(e)->fn);
      break;
    case Node::Kind::Comprehension: {
      auto *c = llvm::cast<Comprehension>(e);
      expr(c->body);
      for (const Clause &cl : c->clauses) {
        expr(cl.vars);
        expr(cl.x);
      }
      break;
    }
    default:
      break;
    }
  }

private:
  std::map<std::pair<uint32_t, uint32_t>, const CallExpr *> &out_;
};

const Expr *unparen(const Expr *e) {
  while (e && llvm::isa<ParenExpr>(e))
    e = llvm::cast<ParenExpr>(e)->x;
  return e;
}

} // namespace

void CallSiteIndex::addFile(const syntax::File &file) {
  if (file.source)
    files_[file.source] = FileCalls{&file, false, {}};
}

const syntax::CallExpr *CallSiteIndex::find(const frontend::SourceFile *file,
                                            frontend::Pos lparen) const {
  auto it = files_.find(file);
  if (it == files_.end())
    return nullptr;
  FileCalls &fc = it->second;
  if (!fc.built) {
    CallCollector(fc.calls).stmts(fc.ast->stmts);
    fc.built = true;
  }
  auto c = fc.calls.find({lparen.line, lparen.col});
  return c == fc.calls.end() ? nullptr : c->second;
}

CallSite::CallSite(star::Thread &t, const CallSiteIndex &index) : t_(t) {
  // t.top is the builtin's own frame; its parent is the Starlark caller.
  if (t.top && t.top->parent && t.top->parent->file) {
    caller_ = t.top->parent;
    file_ = caller_->file;
    lparen_ = caller_->pos;
    call_ = index.find(file_, lparen_);
  }
}

Loc CallSite::lparen() const {
  return Loc{file_, lparen_};
}

Loc CallSite::loc() const {
  return call_ ? Loc{file_, call_->pos} : lparen();
}

const syntax::Expr *CallSite::positional(size_t i) const {
  if (!call_)
    return nullptr;
  size_t n = 0;
  for (const Argument &a : call_->args) {
    if (a.kind == Argument::Kind::Star || a.kind == Argument::Kind::StarStar)
      return nullptr;
    if (a.kind == Argument::Kind::Positional && n++ == i)
      return a.value;
  }
  return nullptr;
}

const syntax::Argument *CallSite::keyword(std::string_view name) const {
  if (!call_)
    return nullptr;
  for (const Argument &a : call_->args)
    if (a.kind == Argument::Kind::Named && a.name && a.name->name == llvm::StringRef(name))
      return &a;
  return nullptr;
}

const syntax::Expr *CallSite::keywordValue(std::string_view name) const {
  const Argument *a = keyword(name);
  return a ? a->value : nullptr;
}

const syntax::Expr *CallSite::param(size_t i, std::string_view name) const {
  if (const syntax::Expr *e = keywordValue(name))
    return e;
  return positional(i);
}

const syntax::Expr *CallSite::element(const syntax::Expr *container, size_t i) {
  container = unparen(container);
  if (!container)
    return nullptr;
  if (auto *l = llvm::dyn_cast<ListExpr>(container))
    return i < l->elems.size() ? l->elems[i] : nullptr;
  if (auto *t = llvm::dyn_cast<TupleExpr>(container))
    return i < t->elems.size() ? t->elems[i] : nullptr;
  if (auto *d = llvm::dyn_cast<DictExpr>(container))
    return i < d->entries.size() ? d->entries[i].key : nullptr;
  return nullptr;
}

Loc CallSite::at(const syntax::Expr *e) const {
  return e ? Loc{file_, e->pos} : lparen();
}

Loc CallSite::at(const syntax::Argument *a) const {
  return a ? Loc{file_, a->pos} : lparen();
}

void CallSite::fail(const Loc &where, std::string msg) const {
  bool here = caller_ && where.file == file_ && where.pos.valid();
  if (here)
    caller_->pos = where.pos;
  // In a test body the error becomes the test's failure reason, which
  // carries no traceback: put the location in the message.
  if (t_.userData && SpecBuilder::of(t_).body) {
    Loc at = here ? where : lparen();
    if (at.valid())
      msg = at.str() + ": " + msg;
  }
  t_.fail(std::move(msg));
}

void CallSite::fail(std::string msg) const {
  t_.fail(std::move(msg));
}

} // namespace fbc::ir::builtins
