// Assignment-target nodes (a name of each scope, x[i], x.f, unpacking) and
// their compilation.
#include "frontend/eval/code.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/ops.h"

namespace fbc::star {
namespace {

using frontend::Pos;

// ------------------------------------------------------------- targets

class LocalTarget final : public TargetCode {
public:
  explicit LocalTarget(uint32_t i) : i_(i) {}
  void assign(Frame &fr, Value v) const override { fr.locals[i_] = v; }

private:
  uint32_t i_;
};

class CellTarget final : public TargetCode {
public:
  explicit CellTarget(uint32_t i) : i_(i) {}
  void assign(Frame &fr, Value v) const override {
    static_cast<Cell *>(fr.locals[i_].obj())->value = v;
  }

private:
  uint32_t i_;
};

class FreeTarget final : public TargetCode {
public:
  explicit FreeTarget(uint32_t i) : i_(i) {}
  void assign(Frame &fr, Value v) const override { fr.freevars[i_]->value = v; }

private:
  uint32_t i_;
};

class GlobalTarget final : public TargetCode {
public:
  explicit GlobalTarget(uint32_t i) : i_(i) {}
  void assign(Frame &fr, Value v) const override { fr.module->globals[i_] = v; }

private:
  uint32_t i_;
};

class IndexTarget final : public TargetCode {
public:
  IndexTarget(Pos lbrack, const ExprCode *x, const ExprCode *i) : lbrack_(lbrack), x_(x), i_(i) {}
  void assign(Frame &fr, Value v) const override {
    Value x = x_->eval(fr);
    Value i = i_->eval(fr);
    at(fr, lbrack_);
    setIndex(fr.t, x, i, v);
  }

private:
  Pos lbrack_;
  const ExprCode *x_, *i_;
};

class DotTarget final : public TargetCode {
public:
  DotTarget(Pos dot, const ExprCode *x, std::string name)
      : dot_(dot), x_(x), name_(std::move(name)) {}
  void assign(Frame &fr, Value v) const override {
    Value x = x_->eval(fr);
    at(fr, dot_);
    setField(fr.t, x, name_, v);
  }

private:
  Pos dot_;
  const ExprCode *x_;
  std::string name_;
};

// a, b = ... / [a, b] = ...
class UnpackTarget final : public TargetCode {
public:
  UnpackTarget(Pos pos, std::vector<const TargetCode *> elems)
      : pos_(pos), elems_(std::move(elems)) {}
  void assign(Frame &fr, Value v) const override {
    at(fr, pos_);
    const size_t want = elems_.size();
    if (!isIterable(v))
      fr.t.fail("got " + std::string(typeName(v)) + " in sequence assignment");
    llvm::SmallVector<Value, 8> vals;
    bool tooMany = false;
    forEachElement(fr.t, v, [&](Value e) {
      if (vals.size() == want) {
        tooMany = true;
        return false;
      }
      vals.push_back(e);
      return true;
    });
    if (tooMany) {
      int64_t n = length(v);
      fr.t.fail("too many values to unpack (got " +
                (n >= 0 ? std::to_string(n) : std::string("more")) + ", want " +
                std::to_string(want) + ")");
    }
    if (vals.size() < want)
      fr.t.fail("too few values to unpack (got " + std::to_string(vals.size()) + ", want " +
                std::to_string(want) + ")");
    for (size_t i = 0; i < want; ++i)
      elems_[i]->assign(fr, vals[i]);
  }

private:
  Pos pos_;
  std::vector<const TargetCode *> elems_;
};

} // namespace

const TargetCode *Compiler::bindingTarget(const syntax::Ident *id) {
  const syntax::Binding *b = id->binding;
  switch (b->scope) {
  case syntax::Scope::Local:
    return node<LocalTarget>(b->index);
  case syntax::Scope::Cell:
    return node<CellTarget>(b->index);
  case syntax::Scope::Free:
    return node<FreeTarget>(b->index);
  case syntax::Scope::Global:
    return node<GlobalTarget>(b->index);
  default:
    break;
  }
  llvm_unreachable("cannot assign to a predeclared or universal name");
}

const TargetCode *Compiler::target(const syntax::Expr *e) {
  using K = syntax::Node::Kind;
  switch (e->kind()) {
  case K::Ident:
    return bindingTarget(llvm::cast<syntax::Ident>(e));
  case K::ParenExpr:
    return target(llvm::cast<syntax::ParenExpr>(e)->x);
  case K::TupleExpr:
  case K::ListExpr: {
    llvm::ArrayRef<syntax::Expr *> elems = llvm::isa<syntax::TupleExpr>(e)
                                               ? llvm::cast<syntax::TupleExpr>(e)->elems
                                               : llvm::cast<syntax::ListExpr>(e)->elems;
    std::vector<const TargetCode *> targets;
    for (const syntax::Expr *x : elems)
      targets.push_back(target(x));
    return node<UnpackTarget>(e->pos, std::move(targets));
  }
  case K::IndexExpr: {
    auto *ix = llvm::cast<syntax::IndexExpr>(e);
    return node<IndexTarget>(ix->lbrack, expr(ix->x), expr(ix->index));
  }
  case K::DotExpr: {
    auto *dot = llvm::cast<syntax::DotExpr>(e);
    return node<DotTarget>(dot->dot, expr(dot->x), dot->name->name.str());
  }
  default:
    break;
  }
  llvm_unreachable("the parser admits no other assignment targets");
}

} // namespace fbc::star
