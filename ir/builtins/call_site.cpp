#include "ir/builtins/call_site.h"

#include "frontend/lib/args.h"
#include "frontend/syntax/walk.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/spec_builder.h"

#include <algorithm>

namespace fbc::ir::builtins {

namespace {

using namespace fbc::syntax;

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
  auto before = [](const FileCalls::Call &a, const FileCalls::Call &b) {
    return a.line != b.line ? a.line < b.line : a.col < b.col;
  };
  if (!fc.built) {
    // Every call in the file, function bodies included, by position.
    syntax::forEachCall(llvm::ArrayRef<Stmt *>(fc.ast->stmts), [&](const CallExpr *c) {
      fc.calls.push_back({c->lparen.line, c->lparen.col, c});
    });
    std::sort(fc.calls.begin(), fc.calls.end(), before);
    fc.calls.shrink_to_fit();
    fc.built = true;
  }
  FileCalls::Call key{lparen.line, lparen.col, nullptr};
  auto c = std::lower_bound(fc.calls.begin(), fc.calls.end(), key, before);
  return c == fc.calls.end() || c->line != key.line || c->col != key.col ? nullptr : c->call;
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
  failCoded(where, std::move(msg), "");
}

void CallSite::fail(const Loc &where, std::string msg, DiagCode code) const {
  failCoded(where, std::move(msg), codeName(code));
}

void CallSite::failCoded(const Loc &where, std::string msg, std::string_view code) const {
  bool here = caller_ && where.file == file_ && where.pos.valid();
  if (here)
    caller_->pos = where.pos;
  // In a test body the error becomes the test's failure reason, which
  // carries no traceback: put the location in the message. A builtin's own
  // check of its call is a mistake in how the body called it, so an error
  // row: BAD_ARGUMENT when the check names no code of its own.
  if (inBody()) {
    Loc at = here ? where : lparen();
    if (at.valid())
      msg = at.str() + ": " + msg;
    if (code.empty())
      code = codeName(DiagCode::BadArgument);
  }
  t_.failWithCode(code, std::move(msg));
}

void CallSite::fail(std::string msg) const {
  if (inBody())
    failCoded(lparen(), std::move(msg), "");
  t_.fail(std::move(msg));
}

bool CallSite::inBody() const {
  return t_.userData && SpecBuilder::of(t_).body;
}

void bindBuiltinArgs(star::Thread &t, std::string_view fn, const star::Args &args,
                     std::initializer_list<const char *> params,
                     std::initializer_list<star::Value *> out) {
  bindSlots(BindCall(t, args, {fn, UnknownForm::Go}), params, out);
}

void bindNoArgs(star::Thread &t, std::string_view fn, const star::Args &args) {
  try {
    star::bindNone(t, fn, args);
  } catch (const star::EvalError &e) {
    failMistake(t, args.kwargs.empty() ? DiagCode::BadArgument : DiagCode::UnknownKeyword,
                e.message());
  }
}

void failMistake(star::Thread &t, DiagCode code, std::string msg) {
  if (t.userData && SpecBuilder::of(t).body) {
    const star::CallFrame *f = t.top;
    while (f && !f->file)
      f = f->parent;
    if (f && f->pos.valid())
      msg = Loc{f->file, f->pos}.str() + ": " + msg;
  }
  t.failWithCode(codeName(code), std::move(msg));
}

} // namespace fbc::ir::builtins
