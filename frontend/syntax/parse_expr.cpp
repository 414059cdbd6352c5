// The expression half of the parser: tests, lambdas, binary operators by
// precedence climbing, primaries with their suffixes (attribute, index,
// slice, call), list and dict displays, comprehensions.
#include "frontend/syntax/parser_impl.h"

namespace fbc::syntax {
namespace {

// Binary operator precedence levels, lowest first (Go's preclevels):
//   or, and, not, comparisons, |, ^, &, << >>, + -, * / // %
constexpr int kNotPrec = 2;
constexpr int kComparePrec = 3;
constexpr int kNumPrecLevels = 10;

int precedence(Tok t) {
  switch (t) {
  case Tok::Or:
    return 0;
  case Tok::And:
    return 1;
  case Tok::Not:
    return kNotPrec;
  case Tok::EqEq:
  case Tok::NotEq:
  case Tok::Lt:
  case Tok::Gt:
  case Tok::Le:
  case Tok::Ge:
  case Tok::In:
  case Tok::NotIn:
    return kComparePrec;
  case Tok::Pipe:
    return 4;
  case Tok::Caret:
    return 5;
  case Tok::Amp:
    return 6;
  case Tok::LtLt:
  case Tok::GtGt:
    return 7;
  case Tok::Minus:
  case Tok::Plus:
    return 8;
  case Tok::Star:
  case Tok::Percent:
  case Tok::Slash:
  case Tok::SlashSlash:
    return 9;
  default:
    return -1;
  }
}

Op binaryOp(Tok t) {
  switch (t) {
  case Tok::Or:
    return Op::Or;
  case Tok::And:
    return Op::And;
  case Tok::EqEq:
    return Op::EqEq;
  case Tok::NotEq:
    return Op::NotEq;
  case Tok::Lt:
    return Op::Lt;
  case Tok::Gt:
    return Op::Gt;
  case Tok::Le:
    return Op::Le;
  case Tok::Ge:
    return Op::Ge;
  case Tok::In:
    return Op::In;
  case Tok::NotIn:
    return Op::NotIn;
  case Tok::Pipe:
    return Op::Pipe;
  case Tok::Caret:
    return Op::Caret;
  case Tok::Amp:
    return Op::Amp;
  case Tok::LtLt:
    return Op::LtLt;
  case Tok::GtGt:
    return Op::GtGt;
  case Tok::Minus:
    return Op::Minus;
  case Tok::Plus:
    return Op::Plus;
  case Tok::Star:
    return Op::Star;
  case Tok::Percent:
    return Op::Percent;
  case Tok::Slash:
    return Op::Slash;
  default:
    return Op::SlashSlash;
  }
}

} // namespace

using frontend::Pos;

bool terminatesExprList(Tok t) {
  switch (t) {
  case Tok::Eof:
  case Tok::Newline:
  case Tok::Eq:
  case Tok::RBrace:
  case Tok::RBrack:
  case Tok::RParen:
  case Tok::Semi:
    return true;
  default:
    return false;
  }
}

// A test, or an unparenthesized tuple of tests.
Expr *Parser::parseExpr(bool inParens) {
  Expr *x = parseTest();
  if (tok_ != Tok::Comma)
    return x;
  llvm::SmallVector<Expr *, 4> exprs{x};
  parseExprs(exprs, inParens);
  return ctx_.make<TupleExpr>(x->pos, copy(exprs));
}

// expr_list = (',' test)* ','?   starting at the comma.
void Parser::parseExprs(llvm::SmallVectorImpl<Expr *> &exprs, bool allowTrailingComma) {
  while (tok_ == Tok::Comma) {
    Pos comma = nextToken();
    if (terminatesExprList(tok_)) {
      if (!allowTrailingComma)
        in_.error(comma, "unparenthesized tuple with trailing comma");
      break;
    }
    exprs.push_back(parseTest());
  }
}

Expr *Parser::parseTest() {
  if (tok_ == Tok::Lambda)
    return parseLambda(true);
  Expr *x = parseTestPrec(0);
  if (tok_ == Tok::If) {
    Pos ifPos = nextToken();
    Expr *cond = parseTestPrec(0);
    if (tok_ != Tok::Else)
      in_.error(ifPos, "conditional expression without else clause");
    nextToken();
    Expr *otherwise = parseTest();
    return ctx_.make<CondExpr>(x->pos, cond, x, otherwise);
  }
  return x;
}

// A test without a trailing `if cond else x` (comprehension conditions).
Expr *Parser::parseTestNoCond() {
  if (tok_ == Tok::Lambda)
    return parseLambda(false);
  return parseTestPrec(0);
}

Expr *Parser::parseLambda(bool allowCond) {
  Pos lambdaPos = nextToken();
  llvm::ArrayRef<Param> params;
  if (tok_ != Tok::Colon)
    params = parseParams();
  consume(Tok::Colon);
  Expr *body = allowCond ? parseTest() : parseTestNoCond();

  Function *fn = ctx_.make<Function>();
  fn->pos = lambdaPos;
  fn->name = "lambda";
  fn->params = params;
  Stmt *ret[] = {ctx_.make<ReturnStmt>(body->pos, body)};
  fn->body = ctx_.copy(llvm::ArrayRef<Stmt *>(ret));
  return ctx_.make<LambdaExpr>(lambdaPos, fn);
}

Expr *Parser::parseTestPrec(int prec) {
  if (prec >= kNumPrecLevels)
    return parsePrimaryWithSuffix();
  if (prec > kNotPrec) {
    // Levels above `not` nest trivially (each starts with the next), so
    // run them innermost-first from one primary rather than recursing
    // through every level for every operand.
    Expr *x = parsePrimaryWithSuffix();
    for (int level = kNumPrecLevels - 1; level >= prec; --level)
      x = parseBinopLoop(level, x);
    return x;
  }
  if (tok_ == Tok::Not && prec == kNotPrec) {
    Pos pos = nextToken();
    Expr *x = parseTestPrec(prec);
    return ctx_.make<UnaryExpr>(pos, Op::Not, x);
  }
  return parseBinopLoop(prec, parseTestPrec(prec + 1));
}

// The operators of one precedence level after its first operand `x`
// (precedence climbing; comparisons do not associate).
Expr *Parser::parseBinopLoop(int prec, Expr *x) {
  for (bool first = true;; first = false) {
    if (tok_ == Tok::Not) {
      nextToken();
      if (tok_ != Tok::In)
        error("got " + tokenGoString(tok_) + ", want in");
      tok_ = Tok::NotIn;
    }
    int opPrec = precedence(tok_);
    if (opPrec < prec)
      return x;
    if (!first && opPrec == kComparePrec)
      error(std::string(opSpelling(llvm::cast<BinaryExpr>(x)->op)) + " does not associate with " +
            tokenName(tok_) + " (use parens)");
    Op op = binaryOp(tok_);
    Pos opPos = nextToken();
    Expr *y = parseTestPrec(opPrec + 1);
    x = ctx_.make<BinaryExpr>(x->pos, op, opPos, x, y);
  }
}

// primary_with_suffix = primary ('.' IDENT | slice_suffix | call_suffix)*
Expr *Parser::parsePrimaryWithSuffix() {
  Expr *x = parsePrimary();
  for (;;) {
    switch (tok_) {
    case Tok::Dot: {
      Pos dot = nextToken();
      Ident *name = parseIdent();
      x = ctx_.make<DotExpr>(x->pos, x, dot, name);
      break;
    }
    case Tok::LBrack:
      x = parseSliceSuffix(x);
      break;
    case Tok::LParen:
      x = parseCallSuffix(x);
      break;
    default:
      return x;
    }
  }
}

// slice_suffix = '[' expr? ':' test? (':' test?)? ']'  |  '[' expr ']'
Expr *Parser::parseSliceSuffix(Expr *x) {
  Pos lbrack = nextToken();
  Expr *lo = nullptr, *hi = nullptr, *step = nullptr;
  if (tok_ != Tok::Colon) {
    Expr *y = parseExpr(false);
    if (tok_ == Tok::RBrack) {
      nextToken();
      return ctx_.make<IndexExpr>(x->pos, x, lbrack, y);
    }
    lo = y;
  }
  if (tok_ == Tok::Colon) {
    nextToken();
    if (tok_ != Tok::Colon && tok_ != Tok::RBrack)
      hi = parseTest();
  }
  if (tok_ == Tok::Colon) {
    nextToken();
    if (tok_ != Tok::RBrack)
      step = parseTest();
  }
  consume(Tok::RBrack);
  return ctx_.make<SliceExpr>(x->pos, x, lbrack, lo, hi, step);
}

Expr *Parser::parseCallSuffix(Expr *fn) {
  Pos lparen = consume(Tok::LParen);
  llvm::ArrayRef<Argument> args;
  Pos rparen;
  if (tok_ == Tok::RParen) {
    rparen = nextToken();
  } else {
    args = parseArgs();
    rparen = consume(Tok::RParen);
  }
  return ctx_.make<CallExpr>(fn->pos, fn, lparen, args, rparen);
}

// arg_list = ((arg ',')* arg ','?)?   where arg is x, name=x, *x or **x.
// `name=` is parsed as a test and then checked to be an identifier.
llvm::ArrayRef<Argument> Parser::parseArgs() {
  llvm::SmallVector<Argument, 8> args;
  while (tok_ != Tok::RParen && tok_ != Tok::Eof) {
    if (!args.empty())
      consume(Tok::Comma);
    if (tok_ == Tok::RParen)
      break;
    if (tok_ == Tok::Star || tok_ == Tok::StarStar) {
      auto kind = tok_ == Tok::Star ? Argument::Kind::Star : Argument::Kind::StarStar;
      Pos pos = nextToken();
      Expr *x = parseTest();
      args.push_back(Argument{kind, pos, nullptr, x});
      continue;
    }
    Expr *x = parseTest();
    if (tok_ == Tok::Eq) {
      auto *name = llvm::dyn_cast<Ident>(x);
      if (!name)
        error("keyword argument must have form name=expr");
      nextToken();
      Expr *value = parseTest();
      args.push_back(Argument{Argument::Kind::Named, x->pos, name, value});
      continue;
    }
    args.push_back(Argument{Argument::Kind::Positional, x->pos, nullptr, x});
  }
  return copy(args);
}

Expr *Parser::parsePrimary() {
  switch (tok_) {
  case Tok::Ident:
    return parseIdent();
  case Tok::Int: {
    Expr *lit = val_.bigInt ? ctx_.make<IntLit>(val_.pos, val_.raw)
                            : ctx_.make<IntLit>(val_.pos, val_.intValue);
    nextToken();
    return lit;
  }
  case Tok::Float: {
    Expr *lit = ctx_.make<FloatLit>(val_.pos, val_.floatValue);
    nextToken();
    return lit;
  }
  case Tok::String: {
    Expr *lit = ctx_.make<StringLit>(val_.pos, val_.string);
    nextToken();
    return lit;
  }
  case Tok::Bytes: {
    Expr *lit = ctx_.make<BytesLit>(val_.pos, val_.string);
    nextToken();
    return lit;
  }
  case Tok::LBrack:
    return parseList();
  case Tok::LBrace:
    return parseDict();
  case Tok::LParen: {
    Pos lparen = nextToken();
    if (tok_ == Tok::RParen) {
      nextToken();
      return ctx_.make<TupleExpr>(lparen, llvm::ArrayRef<Expr *>{});
    }
    Expr *x = parseExpr(true);
    consume(Tok::RParen);
    return ctx_.make<ParenExpr>(lparen, x);
  }
  case Tok::Minus:
  case Tok::Plus:
  case Tok::Tilde: {
    Op op = tok_ == Tok::Minus ? Op::Minus : tok_ == Tok::Plus ? Op::Plus : Op::Tilde;
    Pos pos = nextToken();
    Expr *x = parsePrimaryWithSuffix();
    return ctx_.make<UnaryExpr>(pos, op, x);
  }
  default:
    error("got " + tokenGoString(tok_) + ", want primary expression");
  }
}

Expr *Parser::parseList() {
  Pos lbrack = nextToken();
  if (tok_ == Tok::RBrack) {
    nextToken();
    return ctx_.make<ListExpr>(lbrack, llvm::ArrayRef<Expr *>{});
  }
  Expr *x = parseTest();
  if (tok_ == Tok::For)
    return parseComprehensionSuffix(lbrack, x, Tok::RBrack);
  llvm::SmallVector<Expr *, 8> exprs{x};
  if (tok_ == Tok::Comma)
    parseExprs(exprs, true);
  consume(Tok::RBrack);
  return ctx_.make<ListExpr>(lbrack, copy(exprs));
}

Expr *Parser::parseDict() {
  Pos lbrace = nextToken();
  if (tok_ == Tok::RBrace) {
    nextToken();
    return ctx_.make<DictExpr>(lbrace, llvm::ArrayRef<DictEntry>{});
  }
  DictEntry first = parseDictEntry();
  if (tok_ == Tok::For) {
    DictEntry only[] = {first};
    Expr *body = ctx_.make<DictExpr>(first.key->pos, ctx_.copy(llvm::ArrayRef<DictEntry>(only)));
    return parseComprehensionSuffix(lbrace, body, Tok::RBrace);
  }
  llvm::SmallVector<DictEntry, 8> entries{first};
  while (tok_ == Tok::Comma) {
    nextToken();
    if (tok_ == Tok::RBrace)
      break;
    entries.push_back(parseDictEntry());
  }
  consume(Tok::RBrace);
  return ctx_.make<DictExpr>(lbrace, copy(entries));
}

DictEntry Parser::parseDictEntry() {
  Expr *key = parseTest();
  Pos colon = consume(Tok::Colon);
  Expr *value = parseTest();
  return DictEntry{key, value, colon};
}

// comp_suffix = (FOR loop_variables IN test_prec0 | IF test_nocond)* end
// The operand of `in` may not be a conditional, a lambda or an
// unparenthesized tuple (as in Python 3).
Expr *Parser::parseComprehensionSuffix(Pos lbrack, Expr *body, Tok end) {
  llvm::SmallVector<Clause, 4> clauses;
  while (tok_ != end) {
    if (tok_ == Tok::For) {
      Clause c{};
      c.kind = Clause::Kind::For;
      c.pos = nextToken();
      c.vars = parseForLoopVariables();
      c.inPos = consume(Tok::In);
      c.x = parseTestPrec(0);
      clauses.push_back(c);
    } else if (tok_ == Tok::If) {
      Clause c{};
      c.kind = Clause::Kind::If;
      c.pos = nextToken();
      c.x = parseTestNoCond();
      clauses.push_back(c);
    } else {
      error("got " + tokenGoString(tok_) + ", want '" + tokenName(end) + "', for, or if");
    }
  }
  Pos rbrack = nextToken();
  return ctx_.make<Comprehension>(lbrack, end == Tok::RBrace, body, copy(clauses), rbrack);
}

} // namespace fbc::syntax
