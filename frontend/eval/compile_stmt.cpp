// Statement nodes and their compilation, and the compilation of function
// bodies (assignment targets: compile_targets.cpp).
#include "frontend/eval/code.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/spellcheck.h"

#include <llvm/ADT/SmallVector.h>

namespace fbc::star {
namespace {

using frontend::Pos;
using syntax::Op;

// ---------------------------------------------------------- statements

class Block final : public StmtCode {
public:
  explicit Block(std::vector<const StmtCode *> stmts) : stmts_(std::move(stmts)) {}
  Flow exec(Frame &fr) const override {
    for (const StmtCode *s : stmts_) {
      Flow f = s->exec(fr);
      if (f != Flow::Normal)
        return f;
    }
    return Flow::Normal;
  }

private:
  std::vector<const StmtCode *> stmts_;
};

class ExprStmtNode final : public StmtCode {
public:
  explicit ExprStmtNode(const ExprCode *x) : x_(x) {}
  Flow exec(Frame &fr) const override {
    x_->eval(fr);
    return Flow::Normal;
  }

private:
  const ExprCode *x_;
};

class AssignNode final : public StmtCode {
public:
  AssignNode(const TargetCode *lhs, const ExprCode *rhs) : lhs_(lhs), rhs_(rhs) {}
  Flow exec(Frame &fr) const override {
    lhs_->assign(fr, rhs_->eval(fr));
    return Flow::Normal;
  }

private:
  const TargetCode *lhs_;
  const ExprCode *rhs_;
};

Value applyAugmented(Frame &fr, Op op, Pos opPos, Value x, Value y) {
  at(fr, opPos);
  switch (op) {
  case Op::PlusEq:
    return inplaceAdd(fr, x, y);
  case Op::MinusEq:
    return binary(fr.t, BinOp::Sub, x, y);
  case Op::StarEq:
    return binary(fr.t, BinOp::Mul, x, y);
  case Op::SlashEq:
    return binary(fr.t, BinOp::Div, x, y);
  case Op::SlashSlashEq:
    return binary(fr.t, BinOp::FloorDiv, x, y);
  case Op::PercentEq:
    return binary(fr.t, BinOp::Mod, x, y);
  case Op::AmpEq:
    return binary(fr.t, BinOp::BitAnd, x, y);
  case Op::PipeEq:
    return inplacePipe(fr, x, y);
  case Op::CaretEq:
    return binary(fr.t, BinOp::BitXor, x, y);
  case Op::LtLtEq:
    return binary(fr.t, BinOp::Shl, x, y);
  case Op::GtGtEq:
    return binary(fr.t, BinOp::Shr, x, y);
  default:
    llvm_unreachable("not an augmented assignment");
  }
}

// x op= y for a variable.
class AugVarNode final : public StmtCode {
public:
  AugVarNode(Op op, Pos opPos, const ExprCode *read, const TargetCode *write, const ExprCode *y)
      : op_(op), opPos_(opPos), read_(read), write_(write), y_(y) {}
  Flow exec(Frame &fr) const override {
    Value x = read_->eval(fr);
    Value y = y_->eval(fr);
    if (op_ == Op::PlusEq && (x.bits() & y.bits() & 1)) {
      int64_t r = x.smallInt() + y.smallInt();
      if (Value::fitsSmall(r)) {
        write_->assign(fr, Value::small(r));
        return Flow::Normal;
      }
    }
    write_->assign(fr, applyAugmented(fr, op_, opPos_, x, y));
    return Flow::Normal;
  }

private:
  Op op_;
  Pos opPos_;
  const ExprCode *read_;
  const TargetCode *write_;
  const ExprCode *y_;
};

// x[i] op= y: x and i are evaluated once.
class AugIndexNode final : public StmtCode {
public:
  AugIndexNode(Op op, Pos opPos, Pos lbrack, const ExprCode *x, const ExprCode *i,
               const ExprCode *y)
      : op_(op), opPos_(opPos), lbrack_(lbrack), x_(x), i_(i), y_(y) {}
  Flow exec(Frame &fr) const override {
    Value x = x_->eval(fr);
    Value i = i_->eval(fr);
    at(fr, lbrack_);
    Value old = getIndex(fr.t, x, i);
    Value y = y_->eval(fr);
    Value v = applyAugmented(fr, op_, opPos_, old, y);
    at(fr, lbrack_);
    setIndex(fr.t, x, i, v);
    return Flow::Normal;
  }

private:
  Op op_;
  Pos opPos_, lbrack_;
  const ExprCode *x_, *i_, *y_;
};

// x.f op= y: x is evaluated once.
class AugDotNode final : public StmtCode {
public:
  AugDotNode(Op op, Pos opPos, Pos dot, const ExprCode *x, std::string name, const ExprCode *y)
      : op_(op), opPos_(opPos), dot_(dot), x_(x), name_(std::move(name)), y_(y) {}
  Flow exec(Frame &fr) const override {
    Value x = x_->eval(fr);
    at(fr, dot_);
    Value old = getAttr(fr.t, x, name_);
    Value y = y_->eval(fr);
    Value v = applyAugmented(fr, op_, opPos_, old, y);
    at(fr, dot_);
    setField(fr.t, x, name_, v);
    return Flow::Normal;
  }

private:
  Op op_;
  Pos opPos_, dot_;
  const ExprCode *x_;
  std::string name_;
  const ExprCode *y_;
};

class IfNode final : public StmtCode {
public:
  IfNode(const ExprCode *cond, const StmtCode *then, const StmtCode *otherwise)
      : cond_(cond), then_(then), otherwise_(otherwise) {}
  Flow exec(Frame &fr) const override {
    if (cond_->cond(fr))
      return then_->exec(fr);
    return otherwise_ ? otherwise_->exec(fr) : Flow::Normal;
  }

private:
  const ExprCode *cond_;
  const StmtCode *then_, *otherwise_;
};

class ForNode final : public StmtCode {
public:
  ForNode(Pos pos, const TargetCode *vars, const ExprCode *x, const StmtCode *body)
      : pos_(pos), vars_(vars), x_(x), body_(body) {}
  Flow exec(Frame &fr) const override {
    Value seq = x_->eval(fr);
    at(fr, pos_);
    Flow result = Flow::Normal;
    forEachElement(fr.t, seq, [&](Value v) {
      fr.t.step();
      vars_->assign(fr, v);
      Flow f = body_->exec(fr);
      if (f == Flow::Break)
        return false;
      if (f == Flow::Return) {
        result = Flow::Return;
        return false;
      }
      return true;
    });
    return result;
  }

private:
  Pos pos_;
  const TargetCode *vars_;
  const ExprCode *x_;
  const StmtCode *body_;
};

class WhileNode final : public StmtCode {
public:
  WhileNode(const ExprCode *cond, const StmtCode *body) : cond_(cond), body_(body) {}
  Flow exec(Frame &fr) const override {
    while (cond_->cond(fr)) {
      fr.t.step();
      Flow f = body_->exec(fr);
      if (f == Flow::Break)
        break;
      if (f == Flow::Return)
        return f;
    }
    return Flow::Normal;
  }

private:
  const ExprCode *cond_;
  const StmtCode *body_;
};

class ReturnNode final : public StmtCode {
public:
  explicit ReturnNode(const ExprCode *x) : x_(x) {}
  Flow exec(Frame &fr) const override {
    fr.result = x_ ? x_->eval(fr) : none();
    return Flow::Return;
  }

private:
  const ExprCode *x_;
};

class BranchNode final : public StmtCode {
public:
  explicit BranchNode(Flow f) : f_(f) {}
  Flow exec(Frame &) const override { return f_; }

private:
  Flow f_;
};

class DefNode final : public StmtCode {
public:
  DefNode(const FunctionCode *code, std::vector<const ExprCode *> defaults, const TargetCode *name)
      : code_(code), defaults_(std::move(defaults)), name_(name) {}
  Flow exec(Frame &fr) const override {
    name_->assign(fr, makeClosure(fr, code_, defaults_));
    return Flow::Normal;
  }

private:
  const FunctionCode *code_;
  std::vector<const ExprCode *> defaults_;
  const TargetCode *name_;
};

class LoadNode final : public StmtCode {
public:
  struct Binding {
    std::string from;
    const TargetCode *to;
    const syntax::Ident *ident; // the name bound (ModuleEnv::loadBindings)
  };
  LoadNode(Pos pos, std::string module, std::vector<Binding> bindings)
      : pos_(pos), module_(std::move(module)), bindings_(std::move(bindings)) {}
  Flow exec(Frame &fr) const override {
    at(fr, pos_);
    if (!fr.t.load)
      fr.t.fail("load not implemented by this application");
    Value m = fr.t.load(fr.t, module_, fr.cf->file);
    at(fr, pos_);
    for (const Binding &b : bindings_) {
      Value v = getAttrOrNull(fr.t, m, b.from);
      if (v.isNull()) {
        std::string msg = "load: name " + b.from + " not found in module " + module_;
        std::vector<std::string> names = attrNames(m); // `near` points into it
        std::string_view near = nearestName(b.from, names);
        if (!near.empty())
          msg += " (did you mean " + std::string(near) + "?)";
        fr.t.fail(std::move(msg));
      }
      b.to->assign(fr, v);
      if (fr.module)
        fr.module->loadBindings.emplace_back(b.ident, v);
    }
    return Flow::Normal;
  }

private:
  Pos pos_;
  std::string module_;
  std::vector<Binding> bindings_;
};

} // namespace

// Go's defaults tuple: a value per optional parameter and a "mandatory"
// marker (null here) per required keyword-only parameter, in order.
std::vector<const ExprCode *> compileDefaults(Compiler &c, const syntax::Function &fn) {
  std::vector<const ExprCode *> defaults;
  bool seenStar = false;
  for (const syntax::Param &p : fn.params) {
    switch (p.kind) {
    case syntax::Param::Kind::Optional:
      defaults.push_back(c.expr(p.defaultValue));
      break;
    case syntax::Param::Kind::Star:
    case syntax::Param::Kind::StarStar:
      seenStar = true;
      break;
    case syntax::Param::Kind::Required:
      if (seenStar)
        defaults.push_back(nullptr);
      break;
    }
  }
  return defaults;
}

const StmtCode *Compiler::block(llvm::ArrayRef<syntax::Stmt *> stmts) {
  std::vector<const StmtCode *> out;
  out.reserve(stmts.size());
  for (const syntax::Stmt *s : stmts)
    out.push_back(stmt(s));
  if (out.size() == 1)
    return out[0];
  return node<Block>(std::move(out));
}

const StmtCode *Compiler::stmt(const syntax::Stmt *s) {
  using K = syntax::Node::Kind;
  switch (s->kind()) {
  case K::ExprStmt:
    return node<ExprStmtNode>(expr(llvm::cast<syntax::ExprStmt>(s)->x));
  case K::AssignStmt: {
    auto *a = llvm::cast<syntax::AssignStmt>(s);
    if (a->op == Op::Eq)
      return node<AssignNode>(target(a->lhs), expr(a->rhs));
    const syntax::Expr *lhs = a->lhs;
    while (auto *p = llvm::dyn_cast<syntax::ParenExpr>(lhs))
      lhs = p->x;
    if (auto *id = llvm::dyn_cast<syntax::Ident>(lhs))
      return node<AugVarNode>(a->op, a->opPos, compileIdent(*this, id), target(id), expr(a->rhs));
    if (auto *ix = llvm::dyn_cast<syntax::IndexExpr>(lhs))
      return node<AugIndexNode>(a->op, a->opPos, ix->lbrack, expr(ix->x), expr(ix->index),
                                expr(a->rhs));
    if (auto *dot = llvm::dyn_cast<syntax::DotExpr>(lhs))
      return node<AugDotNode>(a->op, a->opPos, dot->dot, expr(dot->x), dot->name->name.str(),
                              expr(a->rhs));
    llvm_unreachable("the parser admits no other augmented targets");
  }
  case K::DefStmt: {
    auto *d = llvm::cast<syntax::DefStmt>(s);
    std::vector<const ExprCode *> defaults = compileDefaults(*this, *d->fn);
    FunctionCode *code = function(*d->fn, d->fn->locals, d->fn->freevars, d->name->name.str());
    return node<DefNode>(code, std::move(defaults), bindingTarget(d->name));
  }
  case K::ReturnStmt: {
    auto *r = llvm::cast<syntax::ReturnStmt>(s);
    return node<ReturnNode>(r->result ? expr(r->result) : nullptr);
  }
  case K::IfStmt: {
    auto *i = llvm::cast<syntax::IfStmt>(s);
    return node<IfNode>(expr(i->cond), block(i->then),
                        i->otherwise.empty() ? nullptr : block(i->otherwise));
  }
  case K::ForStmt: {
    auto *f = llvm::cast<syntax::ForStmt>(s);
    const ExprCode *x = expr(f->x);
    return node<ForNode>(f->pos, target(f->vars), x, block(f->body));
  }
  case K::WhileStmt: {
    auto *w = llvm::cast<syntax::WhileStmt>(s);
    return node<WhileNode>(expr(w->cond), block(w->body));
  }
  case K::BranchStmt:
    switch (llvm::cast<syntax::BranchStmt>(s)->token) {
    case syntax::BranchStmt::Token::Break:
      return node<BranchNode>(Flow::Break);
    case syntax::BranchStmt::Token::Continue:
      return node<BranchNode>(Flow::Continue);
    case syntax::BranchStmt::Token::Pass:
      return node<BranchNode>(Flow::Normal);
    }
    break;
  case K::LoadStmt: {
    auto *l = llvm::cast<syntax::LoadStmt>(s);
    std::vector<LoadNode::Binding> bindings;
    for (size_t i = 0; i < l->from.size(); ++i)
      bindings.push_back({l->from[i]->name.str(), bindingTarget(l->to[i]), l->to[i]});
    return node<LoadNode>(l->pos, l->module->value.str(), std::move(bindings));
  }
  default:
    break;
  }
  llvm_unreachable("not a statement");
}

FunctionCode *Compiler::function(const syntax::Function &fn,
                                 llvm::ArrayRef<syntax::Binding *> locals,
                                 llvm::ArrayRef<syntax::Binding *> freevars, std::string name) {
  FunctionCode *code = prog.arena->make<FunctionCode>();
  prog.arena->functions.push_back(code);
  code->name = std::move(name);
  code->syntax = &fn;
  code->pos = fn.pos;
  code->file = file;
  code->numLocals = static_cast<uint32_t>(locals.size());
  code->numParams = fn.numParams;
  code->numKwonly = fn.numKwonlyParams;
  code->hasVarargs = fn.hasVarargs;
  code->hasKwargs = fn.hasKwargs;
  uint32_t ordinary = fn.numParams - (fn.hasVarargs ? 1 : 0) - (fn.hasKwargs ? 1 : 0);
  for (uint32_t i = 0; i < locals.size(); ++i) {
    const syntax::Binding *b = locals[i];
    std::string localName = b->first ? b->first->name.str() : std::string();
    if (i < ordinary)
      code->paramNames.push_back(intern(localName));
    code->localNames.push_back(std::move(localName));
    if (b->scope == syntax::Scope::Cell)
      code->cellLocals.push_back(i);
  }
  for (const syntax::Binding *b : freevars) {
    code->captures.push_back({b->scope == syntax::Scope::Free, b->index});
    code->freevarNames.push_back(b->first ? b->first->name.str() : std::string());
  }
  code->program = &prog;
  return code;
}

const StmtCode *compiledBody(const FunctionCode &code) {
  if (const StmtCode *b = code.body.load(std::memory_order_acquire))
    return b;
  Program::Lazy &lazy = *code.program->lazy;
  std::lock_guard<std::mutex> lock(lazy.mu);
  if (const StmtCode *b = code.body.load(std::memory_order_relaxed))
    return b;
  Compiler &c = lazy.compiler;
  const FunctionCode *saved = c.current;
  c.current = &code;
  const syntax::Function &fn = *code.syntax;
  const StmtCode *b =
      fn.body.empty() ? c.node<Block>(std::vector<const StmtCode *>{}) : c.block(fn.body);
  c.current = saved;
  code.body.store(b, std::memory_order_release);
  return b;
}

String *Compiler::intern(llvm::StringRef s) {
  String *&slot = interned_[s];
  if (!slot)
    slot = makeString(prog.constants, s).as<String>();
  return slot;
}

} // namespace fbc::star
