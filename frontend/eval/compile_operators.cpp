// The operator nodes of compiled expressions: not, unary - + ~, and / or
// (short-circuit), arithmetic and comparisons with small-int fast paths
// specialised by operand shape (local, constant, expression), and in /
// not in.
#include "frontend/eval/code.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/ops.h"

namespace fbc::star {

namespace {

using frontend::Pos;
using syntax::Op;

class NotNode final : public ExprCode {
public:
  NotNode(Pos p, const ExprCode *x) : ExprCode(p), x_(x) {}
  Value eval(Frame &fr) const override { return boolean(!x_->cond(fr)); }
  bool cond(Frame &fr) const override { return !x_->cond(fr); }

private:
  const ExprCode *x_;
};

class UnaryNode final : public ExprCode {
public:
  UnaryNode(Pos p, UnOp op, const ExprCode *x) : ExprCode(p), op_(op), x_(x) {}
  Value eval(Frame &fr) const override {
    Value x = x_->eval(fr);
    if (op_ == UnOp::Neg && x.isSmallInt() && x.smallInt() != Value::kMinSmall)
      return Value::small(-x.smallInt());
    at(fr, pos);
    return unary(fr.t, op_, x);
  }

private:
  UnOp op_;
  const ExprCode *x_;
};

class AndNode final : public ExprCode {
public:
  AndNode(Pos p, const ExprCode *x, const ExprCode *y) : ExprCode(p), x_(x), y_(y) {}
  Value eval(Frame &fr) const override {
    Value x = x_->eval(fr);
    return truth(x) ? y_->eval(fr) : x;
  }
  bool cond(Frame &fr) const override { return x_->cond(fr) && y_->cond(fr); }

private:
  const ExprCode *x_, *y_;
};

class OrNode final : public ExprCode {
public:
  OrNode(Pos p, const ExprCode *x, const ExprCode *y) : ExprCode(p), x_(x), y_(y) {}
  Value eval(Frame &fr) const override {
    Value x = x_->eval(fr);
    return truth(x) ? x : y_->eval(fr);
  }
  bool cond(Frame &fr) const override { return x_->cond(fr) || y_->cond(fr); }

private:
  const ExprCode *x_, *y_;
};

// Small-int fast paths; anything else (overflow included) takes the
// general path in ops.
template <BinOp OP> inline bool smallArith(Value x, Value y, Value &out) {
  if (!(x.bits() & y.bits() & 1))
    return false;
  int64_t a = x.smallInt(), b = y.smallInt(), r;
  if constexpr (OP == BinOp::Add) {
    r = a + b; // cannot overflow int64: both are 63-bit
  } else if constexpr (OP == BinOp::Sub) {
    r = a - b;
  } else if constexpr (OP == BinOp::Mul) {
    if (__builtin_mul_overflow(a, b, &r))
      return false;
  } else if constexpr (OP == BinOp::Mod) {
    if (b <= 0)
      return false; // zero divisor error and negative divisors: general path
    r = a % b;
    if (r < 0)
      r += b;
  } else if constexpr (OP == BinOp::FloorDiv) {
    if (b <= 0)
      return false;
    r = a / b;
    if ((a % b) < 0)
      --r;
  } else if constexpr (OP == BinOp::BitAnd) {
    r = a & b;
  } else if constexpr (OP == BinOp::BitOr) {
    r = a | b;
  } else if constexpr (OP == BinOp::BitXor) {
    r = a ^ b;
  } else {
    return false;
  }
  if (!Value::fitsSmall(r))
    return false;
  out = Value::small(r);
  return true;
}

// Where a binary operator's operand comes from. Reading a local slot or a
// constant directly saves a virtual call per operand on the hottest nodes
// (`i + 1`, `n < 2`, `x % k`); anything else is an expression node.
struct ExprOperand {
  const ExprCode *e;
  explicit ExprOperand(const ExprCode *e) : e(e) {}
  Value get(Frame &fr) const { return e->eval(fr); }
};
struct LocalOperand {
  const ExprCode *e; // the LocalRead, for its "referenced before assignment"
  uint32_t slot;
  explicit LocalOperand(const ExprCode *e) : e(e), slot(static_cast<uint32_t>(e->localSlot())) {}
  Value get(Frame &fr) const {
    Value v = fr.locals[slot];
    return __builtin_expect(v.isNull(), 0) ? e->eval(fr) : v;
  }
};
struct ConstOperand {
  Value v;
  explicit ConstOperand(const ExprCode *e) : v(e->constant()) {}
  Value get(Frame &) const { return v; }
};

template <BinOp OP, class X, class Y> class ArithNode final : public ExprCode {
public:
  ArithNode(Pos p, Pos opPos, const ExprCode *x, const ExprCode *y)
      : ExprCode(p), opPos_(opPos), x_(x), y_(y) {}
  Value eval(Frame &fr) const override {
    Value x = x_.get(fr);
    Value y = y_.get(fr);
    Value r;
    if (smallArith<OP>(x, y, r))
      return r;
    at(fr, opPos_);
    return binary(fr.t, OP, x, y);
  }

private:
  Pos opPos_;
  X x_;
  Y y_;
};

template <CmpOp OP> inline bool cmpInts(int64_t a, int64_t b) {
  switch (OP) {
  case CmpOp::Eq:
    return a == b;
  case CmpOp::Ne:
    return a != b;
  case CmpOp::Lt:
    return a < b;
  case CmpOp::Le:
    return a <= b;
  case CmpOp::Gt:
    return a > b;
  case CmpOp::Ge:
    return a >= b;
  }
  return false;
}

template <CmpOp OP, class X, class Y> class CompareNode final : public ExprCode {
public:
  CompareNode(Pos p, Pos opPos, const ExprCode *x, const ExprCode *y)
      : ExprCode(p), opPos_(opPos), x_(x), y_(y) {}
  Value eval(Frame &fr) const override { return boolean(cond(fr)); }
  bool cond(Frame &fr) const override {
    Value x = x_.get(fr);
    Value y = y_.get(fr);
    if (x.bits() & y.bits() & 1)
      return cmpInts<OP>(x.smallInt(), y.smallInt());
    at(fr, opPos_);
    return compare(fr.t, OP, x, y);
  }

private:
  Pos opPos_;
  X x_;
  Y y_;
};

// Node<Operator, XOperand, YOperand> for the operand shapes worth a
// specialisation: local or expression on the left, constant, local or
// expression on the right.
template <template <auto, class, class> class Node, auto OP>
const ExprCode *binaryNode(Compiler &c, const syntax::BinaryExpr *b) {
  const ExprCode *x = c.expr(b->x), *y = c.expr(b->y);
  bool xl = x->localSlot() >= 0, yl = y->localSlot() >= 0, yk = !y->constant().isNull();
  if (xl && yk)
    return c.node<Node<OP, LocalOperand, ConstOperand>>(b->pos, b->opPos, x, y);
  if (xl && yl)
    return c.node<Node<OP, LocalOperand, LocalOperand>>(b->pos, b->opPos, x, y);
  if (xl)
    return c.node<Node<OP, LocalOperand, ExprOperand>>(b->pos, b->opPos, x, y);
  if (yk)
    return c.node<Node<OP, ExprOperand, ConstOperand>>(b->pos, b->opPos, x, y);
  return c.node<Node<OP, ExprOperand, ExprOperand>>(b->pos, b->opPos, x, y);
}
template <BinOp OP> const ExprCode *arith(Compiler &c, const syntax::BinaryExpr *b) {
  return binaryNode<ArithNode, OP>(c, b);
}
template <CmpOp OP> const ExprCode *cmp(Compiler &c, const syntax::BinaryExpr *b) {
  return binaryNode<CompareNode, OP>(c, b);
}

class MembershipNode final : public ExprCode {
public:
  MembershipNode(Pos p, Pos opPos, BinOp op, const ExprCode *x, const ExprCode *y)
      : ExprCode(p), opPos_(opPos), op_(op), x_(x), y_(y) {}
  Value eval(Frame &fr) const override {
    Value x = x_->eval(fr);
    Value y = y_->eval(fr);
    at(fr, opPos_);
    return binary(fr.t, op_, x, y);
  }

private:
  Pos opPos_;
  BinOp op_;
  const ExprCode *x_, *y_;
};

} // namespace

const ExprCode *compileBinary(Compiler &c, const syntax::BinaryExpr *b) {
  switch (b->op) {
  case Op::And:
    return c.node<AndNode>(b->pos, c.expr(b->x), c.expr(b->y));
  case Op::Or:
    return c.node<OrNode>(b->pos, c.expr(b->x), c.expr(b->y));
  case Op::Plus:
    return arith<BinOp::Add>(c, b);
  case Op::Minus:
    return arith<BinOp::Sub>(c, b);
  case Op::Star:
    return arith<BinOp::Mul>(c, b);
  case Op::Slash:
    return arith<BinOp::Div>(c, b);
  case Op::SlashSlash:
    return arith<BinOp::FloorDiv>(c, b);
  case Op::Percent:
    return arith<BinOp::Mod>(c, b);
  case Op::Amp:
    return arith<BinOp::BitAnd>(c, b);
  case Op::Pipe:
    return arith<BinOp::BitOr>(c, b);
  case Op::Caret:
    return arith<BinOp::BitXor>(c, b);
  case Op::LtLt:
    return arith<BinOp::Shl>(c, b);
  case Op::GtGt:
    return arith<BinOp::Shr>(c, b);
  case Op::EqEq:
    return cmp<CmpOp::Eq>(c, b);
  case Op::NotEq:
    return cmp<CmpOp::Ne>(c, b);
  case Op::Lt:
    return cmp<CmpOp::Lt>(c, b);
  case Op::Le:
    return cmp<CmpOp::Le>(c, b);
  case Op::Gt:
    return cmp<CmpOp::Gt>(c, b);
  case Op::Ge:
    return cmp<CmpOp::Ge>(c, b);
  case Op::In:
    return c.node<MembershipNode>(b->pos, b->opPos, BinOp::In, c.expr(b->x), c.expr(b->y));
  case Op::NotIn:
    return c.node<MembershipNode>(b->pos, b->opPos, BinOp::NotIn, c.expr(b->x), c.expr(b->y));
  default:
    break;
  }
  llvm_unreachable("not a binary operator");
}

const ExprCode *compileUnary(Compiler &c, const syntax::UnaryExpr *u) {
  switch (u->op) {
  case Op::Not:
    return c.node<NotNode>(u->pos, c.expr(u->x));
  case Op::Minus:
    return c.node<UnaryNode>(u->pos, UnOp::Neg, c.expr(u->x));
  case Op::Plus:
    return c.node<UnaryNode>(u->pos, UnOp::Plus, c.expr(u->x));
  case Op::Tilde:
    return c.node<UnaryNode>(u->pos, UnOp::Invert, c.expr(u->x));
  default:
    llvm_unreachable("not a unary operator");
  }
}

} // namespace fbc::star
