// Expression nodes and their compilation.
#include "frontend/eval/code.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/methods.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <llvm/ADT/SmallVector.h>

namespace fbc::star {

bool ExprCode::cond(Frame &fr) const {
  return truth(eval(fr));
}

namespace {

using frontend::Pos;
using syntax::Op;

// ------------------------------------------------------------- variables

class Const final : public ExprCode {
public:
  Const(Pos p, Value v) : ExprCode(p), v_(v) {}
  Value eval(Frame &) const override { return v_; }
  Value constant() const override { return v_; }

private:
  Value v_;
};

class LocalRead final : public ExprCode {
public:
  LocalRead(Pos p, uint32_t i, std::string name) : ExprCode(p), i_(i), name_(std::move(name)) {}
  int localSlot() const override { return static_cast<int>(i_); }
  Value eval(Frame &fr) const override {
    Value v = fr.locals[i_];
    if (__builtin_expect(v.isNull(), 0)) {
      at(fr, pos);
      fr.t.fail("local variable " + name_ + " referenced before assignment");
    }
    return v;
  }

private:
  uint32_t i_;
  std::string name_;
};

class CellRead final : public ExprCode {
public:
  CellRead(Pos p, uint32_t i, std::string name) : ExprCode(p), i_(i), name_(std::move(name)) {}
  Value eval(Frame &fr) const override {
    Value v = static_cast<Cell *>(fr.locals[i_].obj())->value;
    if (v.isNull()) {
      at(fr, pos);
      fr.t.fail("local variable " + name_ + " referenced before assignment");
    }
    return v;
  }

private:
  uint32_t i_;
  std::string name_;
};

class FreeRead final : public ExprCode {
public:
  FreeRead(Pos p, uint32_t i, std::string name) : ExprCode(p), i_(i), name_(std::move(name)) {}
  Value eval(Frame &fr) const override {
    Value v = fr.freevars[i_]->value;
    if (v.isNull()) {
      at(fr, pos);
      fr.t.fail("local variable " + name_ + " referenced before assignment");
    }
    return v;
  }

private:
  uint32_t i_;
  std::string name_;
};

class GlobalRead final : public ExprCode {
public:
  GlobalRead(Pos p, uint32_t i, std::string name) : ExprCode(p), i_(i), name_(std::move(name)) {}
  Value eval(Frame &fr) const override {
    Value v = fr.module->globals[i_];
    if (__builtin_expect(v.isNull(), 0)) {
      at(fr, pos);
      fr.t.fail("global variable " + name_ + " referenced before assignment");
    }
    return v;
  }

private:
  uint32_t i_;
  std::string name_;
};

// ------------------------------------------------------------ literals

class ListLit final : public ExprCode {
public:
  ListLit(Pos p, std::vector<const ExprCode *> elems) : ExprCode(p), elems_(std::move(elems)) {}
  Value eval(Frame &fr) const override {
    std::vector<Value> vals;
    vals.reserve(elems_.size());
    for (const ExprCode *e : elems_)
      vals.push_back(e->eval(fr));
    return Value::object(fr.t.heap.make<List>(std::move(vals)));
  }

private:
  std::vector<const ExprCode *> elems_;
};

class TupleLit final : public ExprCode {
public:
  TupleLit(Pos p, std::vector<const ExprCode *> elems) : ExprCode(p), elems_(std::move(elems)) {}
  Value eval(Frame &fr) const override {
    llvm::SmallVector<Value, 8> vals;
    for (const ExprCode *e : elems_)
      vals.push_back(e->eval(fr));
    return Value::object(makeTuple(fr.t.heap, vals));
  }

private:
  std::vector<const ExprCode *> elems_;
};

class DictLit final : public ExprCode {
public:
  struct Entry {
    const ExprCode *key, *value;
    Pos colon;
  };
  DictLit(Pos p, std::vector<Entry> entries) : ExprCode(p), entries_(std::move(entries)) {}
  Value eval(Frame &fr) const override {
    Dict *d = fr.t.heap.make<Dict>();
    d->table.reserve(fr.t, entries_.size());
    for (const Entry &e : entries_) {
      Value k = e.key->eval(fr);
      Value v = e.value->eval(fr);
      at(fr, e.colon);
      size_t before = d->table.size();
      d->table.set(fr.t, k, v);
      if (d->table.size() == before)
        fr.t.fail("duplicate key: " + repr(k));
    }
    return Value::object(d);
  }

private:
  std::vector<Entry> entries_;
};

// ---------------------------------------------------------- conditional

class CondNode final : public ExprCode {
public:
  CondNode(Pos p, const ExprCode *c, const ExprCode *a, const ExprCode *b)
      : ExprCode(p), c_(c), a_(a), b_(b) {}
  Value eval(Frame &fr) const override { return c_->cond(fr) ? a_->eval(fr) : b_->eval(fr); }

private:
  const ExprCode *c_, *a_, *b_;
};

// ------------------------------------------------------ access and calls

class DotNode final : public ExprCode {
public:
  DotNode(Pos p, Pos dot, const ExprCode *x, std::string name)
      : ExprCode(p), dot_(dot), x_(x), name_(std::move(name)) {}
  Value eval(Frame &fr) const override {
    Value x = x_->eval(fr);
    at(fr, dot_);
    return getAttr(fr.t, x, name_);
  }

private:
  Pos dot_;
  const ExprCode *x_;
  std::string name_;
};

class IndexNode final : public ExprCode {
public:
  IndexNode(Pos p, Pos lbrack, const ExprCode *x, const ExprCode *i)
      : ExprCode(p), lbrack_(lbrack), x_(x), i_(i) {}
  Value eval(Frame &fr) const override {
    Value x = x_->eval(fr);
    Value i = i_->eval(fr);
    if (List *l = x.as<List>(); l && i.isSmallInt()) {
      int64_t n = static_cast<int64_t>(l->elems.size()), k = i.smallInt();
      if (k < 0)
        k += n;
      if (k >= 0 && k < n)
        return l->elems[k];
    }
    at(fr, lbrack_);
    return getIndex(fr.t, x, i);
  }

private:
  Pos lbrack_;
  const ExprCode *x_, *i_;
};

class SliceNode final : public ExprCode {
public:
  SliceNode(Pos p, Pos lbrack, const ExprCode *x, const ExprCode *lo, const ExprCode *hi,
            const ExprCode *step)
      : ExprCode(p), lbrack_(lbrack), x_(x), lo_(lo), hi_(hi), step_(step) {}
  Value eval(Frame &fr) const override {
    Value x = x_->eval(fr);
    Value lo = lo_ ? lo_->eval(fr) : Value();
    Value hi = hi_ ? hi_->eval(fr) : Value();
    Value step = step_ ? step_->eval(fr) : Value();
    at(fr, lbrack_);
    return slice(fr.t, x, lo, hi, step);
  }

private:
  Pos lbrack_;
  const ExprCode *x_, *lo_, *hi_, *step_;
};

// Arguments of a call site, evaluated in Go's order: positional and named
// left to right, then *args, then **kwargs.
struct CallArgs {
  std::vector<const ExprCode *> positional;
  std::vector<std::pair<String *, const ExprCode *>> named;
  const ExprCode *star = nullptr;
  const ExprCode *starstar = nullptr;

  template <class Pos_, class Kw> void eval(Frame &fr, Pos lparen, Pos_ &pos, Kw &kws) const {
    for (const ExprCode *e : positional)
      pos.push_back(e->eval(fr));
    for (const auto &[name, e] : named)
      kws.push_back(Kwarg{name, e->eval(fr)});
    if (star) {
      Value s = star->eval(fr);
      if (List *l = s.as<List>()) {
        pos.append(l->elems.begin(), l->elems.end());
      } else if (Tuple *tu = s.as<Tuple>()) {
        pos.append(tu->elems().begin(), tu->elems().end());
      } else {
        at(fr, lparen);
        if (s.is(Kind::String) || !s.isObject() || !isIterable(s))
          fr.t.fail("argument after * must be iterable, not " + std::string(typeName(s)));
        forEachElement(fr.t, s, [&](Value v) {
          pos.push_back(v);
          return true;
        });
      }
    }
    if (starstar) {
      Value d = starstar->eval(fr);
      at(fr, lparen);
      Dict *dict = d.as<Dict>();
      if (!dict)
        fr.t.fail("argument after ** must be a mapping, not " + std::string(typeName(d)));
      for (const HashTable::Entry &e : dict->table.entries()) {
        if (e.value.isNull())
          continue;
        String *k = e.key.as<String>();
        if (!k)
          fr.t.fail("keywords must be strings, not " + std::string(typeName(e.key)));
        kws.push_back(Kwarg{k, e.value});
      }
    }
  }
};

inline Value invoke(Thread &t, Value f, const Args &args) {
  if (Function *fn = f.as<Function>())
    return callFunction(t, *fn, args);
  if (Builtin *b = f.as<Builtin>()) {
    BuiltinFrame frame(t, b->name_);
    return b->fn(t, b->self, args);
  }
  if (f.isObject() && f.obj()->callable()) {
    BuiltinFrame frame(t, f.obj()->name().data());
    return f.obj()->call(t, args);
  }
  t.fail("invalid call of non-function (" + std::string(typeName(f)) + ")");
}

class CallNode final : public ExprCode {
public:
  CallNode(Pos p, Pos lparen, const ExprCode *fn, CallArgs args)
      : ExprCode(p), lparen_(lparen), fn_(fn), args_(std::move(args)) {}
  Value eval(Frame &fr) const override {
    Value f = fn_->eval(fr);
    llvm::SmallVector<Value, 8> pos;
    llvm::SmallVector<Kwarg, 4> kws;
    args_.eval(fr, lparen_, pos, kws);
    at(fr, lparen_);
    return invoke(fr.t, f, Args{pos, kws});
  }

private:
  Pos lparen_;
  const ExprCode *fn_;
  CallArgs args_;
};

// x.name(...): methods of core types are called without binding.
class MethodCallNode final : public ExprCode {
public:
  MethodCallNode(Pos p, Pos dot, Pos lparen, const ExprCode *x, std::string name, CallArgs args)
      : ExprCode(p), dot_(dot), lparen_(lparen), x_(x), name_(std::move(name)),
        args_(std::move(args)) {}
  Value eval(Frame &fr) const override {
    Value recv = x_->eval(fr);
    Kind k = recv.kind();
    const Method *m = nullptr;
    Value f;
    if (k == cachedKind_ && cached_) {
      m = cached_;
    } else if ((m = findMethod(k, name_))) {
      cachedKind_ = k;
      cached_ = m;
    } else {
      at(fr, dot_);
      f = getAttr(fr.t, recv, name_);
    }
    llvm::SmallVector<Value, 8> pos;
    llvm::SmallVector<Kwarg, 4> kws;
    args_.eval(fr, lparen_, pos, kws);
    at(fr, lparen_);
    if (m) {
      BuiltinFrame frame(fr.t, m->name);
      return m->fn(fr.t, recv, Args{pos, kws});
    }
    return invoke(fr.t, f, Args{pos, kws});
  }

private:
  Pos dot_, lparen_;
  const ExprCode *x_;
  std::string name_;
  CallArgs args_;
  mutable Kind cachedKind_ = Kind::None;
  mutable const Method *cached_ = nullptr;
};

class LambdaNode final : public ExprCode {
public:
  LambdaNode(Pos p, const FunctionCode *code, std::vector<const ExprCode *> defaults)
      : ExprCode(p), code_(code), defaults_(std::move(defaults)) {}
  Value eval(Frame &fr) const override { return makeClosure(fr, code_, defaults_); }

private:
  const FunctionCode *code_;
  std::vector<const ExprCode *> defaults_;
};

// -------------------------------------------------------- comprehensions

class ComprehensionNode final : public ExprCode {
public:
  struct Clause {
    bool isFor;
    Pos pos;
    const TargetCode *vars; // For
    const ExprCode *x;      // iterable or condition
  };
  ComprehensionNode(Pos p, bool curly, std::vector<Clause> clauses, const ExprCode *body,
                    const ExprCode *value, Pos colon)
      : ExprCode(p), curly_(curly), clauses_(std::move(clauses)), body_(body), value_(value),
        colon_(colon) {}

  Value eval(Frame &fr) const override {
    if (curly_) {
      Dict *d = fr.t.heap.make<Dict>();
      run(fr, 0, Value::object(d));
      return Value::object(d);
    }
    List *l = fr.t.heap.make<List>();
    run(fr, 0, Value::object(l));
    return Value::object(l);
  }

private:
  void run(Frame &fr, size_t i, Value out) const {
    if (i == clauses_.size()) {
      if (curly_) {
        Value k = body_->eval(fr);
        Value v = value_->eval(fr);
        at(fr, colon_);
        out.as<Dict>()->table.set(fr.t, k, v);
      } else {
        out.as<List>()->elems.push_back(body_->eval(fr));
      }
      return;
    }
    const Clause &c = clauses_[i];
    if (!c.isFor) {
      if (c.x->cond(fr))
        run(fr, i + 1, out);
      return;
    }
    Value seq = c.x->eval(fr);
    at(fr, c.pos);
    forEachElement(fr.t, seq, [&](Value v) {
      fr.t.step();
      c.vars->assign(fr, v);
      run(fr, i + 1, out);
      return true;
    });
  }

  bool curly_;
  std::vector<Clause> clauses_;
  const ExprCode *body_;  // list element, or dict key
  const ExprCode *value_; // dict value
  Pos colon_;
};

CallArgs compileArgs(Compiler &c, llvm::ArrayRef<syntax::Argument> args) {
  CallArgs out;
  for (const syntax::Argument &a : args) {
    switch (a.kind) {
    case syntax::Argument::Kind::Positional:
      out.positional.push_back(c.expr(a.value));
      break;
    case syntax::Argument::Kind::Named:
      out.named.emplace_back(c.intern(a.name->name), c.expr(a.value));
      break;
    case syntax::Argument::Kind::Star:
      out.star = c.expr(a.value);
      break;
    case syntax::Argument::Kind::StarStar:
      out.starstar = c.expr(a.value);
      break;
    }
  }
  return out;
}

} // namespace

const ExprCode *compileIdent(Compiler &c, const syntax::Ident *id) {
  const syntax::Binding *b = id->binding;
  std::string name = id->name.str();
  switch (b->scope) {
  case syntax::Scope::Local:
    return c.node<LocalRead>(id->pos, b->index, name);
  case syntax::Scope::Cell:
    return c.node<CellRead>(id->pos, b->index, name);
  case syntax::Scope::Free:
    return c.node<FreeRead>(id->pos, b->index, name);
  case syntax::Scope::Global:
    return c.node<GlobalRead>(id->pos, b->index, name);
  case syntax::Scope::Predeclared:
    return c.node<Const>(id->pos, c.env.predeclared(id->name));
  case syntax::Scope::Universal:
    return c.node<Const>(id->pos, c.env.universal(id->name));
  case syntax::Scope::Undefined:
    break;
  }
  llvm_unreachable("unresolved identifier reached the compiler");
}

// [x for ...] and {k: v for ...}: the clauses in order, then the body.
static const ExprCode *compileComprehension(Compiler &c, const syntax::Comprehension *comp) {
  std::vector<ComprehensionNode::Clause> clauses;
  for (const syntax::Clause &cl : comp->clauses) {
    if (cl.kind == syntax::Clause::Kind::For)
      clauses.push_back({true, cl.pos, c.target(cl.vars), c.expr(cl.x)});
    else
      clauses.push_back({false, cl.pos, nullptr, c.expr(cl.x)});
  }
  if (comp->curly) {
    const syntax::DictEntry &entry = llvm::cast<syntax::DictExpr>(comp->body)->entries[0];
    return c.node<ComprehensionNode>(comp->pos, true, std::move(clauses), c.expr(entry.key),
                                     c.expr(entry.value), entry.colon);
  }
  return c.node<ComprehensionNode>(comp->pos, false, std::move(clauses), c.expr(comp->body),
                                   nullptr, Pos{});
}

const ExprCode *Compiler::expr(const syntax::Expr *e) {
  using K = syntax::Node::Kind;
  switch (e->kind()) {
  case K::Ident:
    return compileIdent(*this, llvm::cast<syntax::Ident>(e));
  case K::IntLit: {
    auto *lit = llvm::cast<syntax::IntLit>(e);
    Value v = lit->bigText.empty() ? makeInt(prog.constants, lit->value)
                                   : parseIntLiteral(prog.constants, lit->bigText);
    return node<Const>(e->pos, v);
  }
  case K::FloatLit:
    return node<Const>(e->pos, makeFloat(prog.constants, llvm::cast<syntax::FloatLit>(e)->value));
  case K::StringLit:
    return node<Const>(e->pos, Value::object(intern(llvm::cast<syntax::StringLit>(e)->value)));
  case K::BytesLit:
    return node<Const>(e->pos, makeBytes(prog.constants, llvm::cast<syntax::BytesLit>(e)->value));
  case K::ListExpr: {
    std::vector<const ExprCode *> elems;
    for (const syntax::Expr *x : llvm::cast<syntax::ListExpr>(e)->elems)
      elems.push_back(expr(x));
    return node<ListLit>(e->pos, std::move(elems));
  }
  case K::TupleExpr: {
    std::vector<const ExprCode *> elems;
    for (const syntax::Expr *x : llvm::cast<syntax::TupleExpr>(e)->elems)
      elems.push_back(expr(x));
    return node<TupleLit>(e->pos, std::move(elems));
  }
  case K::DictExpr: {
    std::vector<DictLit::Entry> entries;
    for (const syntax::DictEntry &d : llvm::cast<syntax::DictExpr>(e)->entries)
      entries.push_back({expr(d.key), expr(d.value), d.colon});
    return node<DictLit>(e->pos, std::move(entries));
  }
  case K::ParenExpr:
    return expr(llvm::cast<syntax::ParenExpr>(e)->x);
  case K::UnaryExpr:
    return compileUnary(*this, llvm::cast<syntax::UnaryExpr>(e));
  case K::BinaryExpr:
    return compileBinary(*this, llvm::cast<syntax::BinaryExpr>(e));
  case K::CondExpr: {
    auto *ce = llvm::cast<syntax::CondExpr>(e);
    return node<CondNode>(e->pos, expr(ce->cond), expr(ce->then), expr(ce->otherwise));
  }
  case K::CallExpr: {
    auto *call = llvm::cast<syntax::CallExpr>(e);
    if (auto *dot = llvm::dyn_cast<syntax::DotExpr>(call->fn))
      return node<MethodCallNode>(e->pos, dot->dot, call->lparen, expr(dot->x),
                                  dot->name->name.str(), compileArgs(*this, call->args));
    return node<CallNode>(e->pos, call->lparen, expr(call->fn), compileArgs(*this, call->args));
  }
  case K::DotExpr: {
    auto *dot = llvm::cast<syntax::DotExpr>(e);
    return node<DotNode>(e->pos, dot->dot, expr(dot->x), dot->name->name.str());
  }
  case K::IndexExpr: {
    auto *ix = llvm::cast<syntax::IndexExpr>(e);
    return node<IndexNode>(e->pos, ix->lbrack, expr(ix->x), expr(ix->index));
  }
  case K::SliceExpr: {
    auto *sl = llvm::cast<syntax::SliceExpr>(e);
    return node<SliceNode>(e->pos, sl->lbrack, expr(sl->x), sl->lo ? expr(sl->lo) : nullptr,
                           sl->hi ? expr(sl->hi) : nullptr, sl->step ? expr(sl->step) : nullptr);
  }
  case K::LambdaExpr: {
    const syntax::Function &fn = *llvm::cast<syntax::LambdaExpr>(e)->fn;
    std::vector<const ExprCode *> defaults = compileDefaults(*this, fn);
    FunctionCode *code = function(fn, fn.locals, fn.freevars, "lambda");
    return node<LambdaNode>(e->pos, code, std::move(defaults));
  }
  case K::Comprehension:
    return compileComprehension(*this, llvm::cast<syntax::Comprehension>(e));
  default:
    break;
  }
  llvm_unreachable("not an expression");
}

} // namespace fbc::star
