// Recursive-descent parser for Starlark, following the LL(1) structure of
// Go's syntax/parse.go so that errors are reported with the same messages
// at the same positions. Most errors are reported at the scanner position,
// i.e. just after the offending lookahead token, as Go does.
#include "frontend/syntax/parser.h"

#include "frontend/syntax/scanner.h"

#include <llvm/ADT/SmallVector.h>

namespace fbc::syntax {
namespace {

using frontend::Pos;

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

// The assignment operator of a token, if it is one.
bool assignOp(Tok t, Op &op) {
  switch (t) {
  case Tok::Eq:
    op = Op::Eq;
    return true;
  case Tok::PlusEq:
    op = Op::PlusEq;
    return true;
  case Tok::MinusEq:
    op = Op::MinusEq;
    return true;
  case Tok::StarEq:
    op = Op::StarEq;
    return true;
  case Tok::SlashEq:
    op = Op::SlashEq;
    return true;
  case Tok::SlashSlashEq:
    op = Op::SlashSlashEq;
    return true;
  case Tok::PercentEq:
    op = Op::PercentEq;
    return true;
  case Tok::AmpEq:
    op = Op::AmpEq;
    return true;
  case Tok::PipeEq:
    op = Op::PipeEq;
    return true;
  case Tok::CaretEq:
    op = Op::CaretEq;
    return true;
  case Tok::LtLtEq:
    op = Op::LtLtEq;
    return true;
  case Tok::GtGtEq:
    op = Op::GtGtEq;
    return true;
  default:
    return false;
  }
}

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

class Parser {
public:
  Parser(AstContext &ctx, const frontend::SourceFile &src) : ctx_(ctx), in_(ctx, src.text()) {}

  File *parseFile() {
    nextToken();
    llvm::SmallVector<Stmt *, 32> stmts;
    while (tok_ != Tok::Eof) {
      if (tok_ == Tok::Newline) {
        nextToken();
        continue;
      }
      parseStmt(stmts);
    }
    File *f = ctx_.make<File>();
    f->stmts = ctx_.copy(llvm::ArrayRef<Stmt *>(stmts));
    return f;
  }

  Expr *parseWholeExpr() {
    nextToken();
    Expr *x = parseExpr(false);
    if (tok_ == Tok::Newline)
      nextToken();
    if (tok_ != Tok::Eof)
      error("got " + tokenGoString(tok_) + " after expression, want EOF");
    return x;
  }

private:
  // Advances to the next token; returns the position of the previous one.
  Pos nextToken() {
    Pos old = val_.pos;
    tok_ = in_.next(val_);
    return old;
  }

  [[noreturn]] void error(std::string msg) { in_.error(in_.pos(), std::move(msg)); }

  Pos consume(Tok t) {
    if (tok_ != t)
      error("got " + tokenGoString(tok_) + ", want " + tokenGoString(t));
    return nextToken();
  }

  template <class T> llvm::ArrayRef<T> copy(const llvm::SmallVectorImpl<T> &v) {
    return ctx_.copy(llvm::ArrayRef<T>(v));
  }

  // --------------------------------------------------------- statements

  void parseStmt(llvm::SmallVectorImpl<Stmt *> &stmts) {
    switch (tok_) {
    case Tok::Def:
      stmts.push_back(parseDefStmt());
      return;
    case Tok::If:
      stmts.push_back(parseIfStmt());
      return;
    case Tok::For:
      stmts.push_back(parseForStmt());
      return;
    case Tok::While:
      stmts.push_back(parseWhileStmt());
      return;
    default:
      parseSimpleStmt(stmts);
    }
  }

  Stmt *parseDefStmt() {
    Pos defPos = nextToken();
    Ident *name = parseIdent();
    consume(Tok::LParen);
    llvm::ArrayRef<Param> params = parseParams();
    consume(Tok::RParen);
    consume(Tok::Colon);
    Function *fn = ctx_.make<Function>();
    fn->pos = defPos;
    fn->name = name->name;
    fn->params = params;
    fn->body = parseSuite();
    return ctx_.make<DefStmt>(defPos, name, fn);
  }

  Stmt *parseIfStmt() {
    Pos ifPos = nextToken();
    Expr *cond = parseTest();
    consume(Tok::Colon);
    auto *head = ctx_.make<IfStmt>(ifPos, cond, parseSuite(), Pos{}, llvm::ArrayRef<Stmt *>{});
    IfStmt *tail = head;
    while (tok_ == Tok::Elif) {
      Pos elifPos = nextToken();
      Expr *elifCond = parseTest();
      consume(Tok::Colon);
      auto *elif =
          ctx_.make<IfStmt>(elifPos, elifCond, parseSuite(), Pos{}, llvm::ArrayRef<Stmt *>{});
      tail->elsePos = elifPos;
      Stmt *only[] = {elif};
      tail->otherwise = ctx_.copy(llvm::ArrayRef<Stmt *>(only));
      tail = elif;
    }
    if (tok_ == Tok::Else) {
      tail->elsePos = nextToken();
      consume(Tok::Colon);
      tail->otherwise = parseSuite();
    }
    return head;
  }

  Stmt *parseForStmt() {
    Pos forPos = nextToken();
    Expr *vars = parseForLoopVariables();
    consume(Tok::In);
    Expr *x = parseExpr(false);
    consume(Tok::Colon);
    return ctx_.make<ForStmt>(forPos, vars, x, parseSuite());
  }

  Stmt *parseWhileStmt() {
    Pos whilePos = nextToken();
    Expr *cond = parseTest();
    consume(Tok::Colon);
    return ctx_.make<WhileStmt>(whilePos, cond, parseSuite());
  }

  // loop_variables = primary_with_suffix (',' primary_with_suffix)* ','?
  // (not parseExpr, which would swallow the `in`).
  Expr *parseForLoopVariables() {
    Expr *v = parsePrimaryWithSuffix();
    if (tok_ != Tok::Comma)
      return v;
    llvm::SmallVector<Expr *, 4> list{v};
    while (tok_ == Tok::Comma) {
      nextToken();
      if (terminatesExprList(tok_))
        break;
      list.push_back(parsePrimaryWithSuffix());
    }
    return ctx_.make<TupleExpr>(v->pos, copy(list));
  }

  // simple_stmt = small_stmt (';' small_stmt)* ';'? NEWLINE
  void parseSimpleStmt(llvm::SmallVectorImpl<Stmt *> &stmts) {
    for (;;) {
      stmts.push_back(parseSmallStmt());
      if (tok_ != Tok::Semi)
        break;
      nextToken();
      if (tok_ == Tok::Newline || tok_ == Tok::Eof)
        break;
    }
    // `if x: pass` at the very end of the input has no NEWLINE.
    if (tok_ != Tok::Eof)
      consume(Tok::Newline);
  }

  Stmt *parseSmallStmt() {
    switch (tok_) {
    case Tok::Return: {
      Pos pos = nextToken();
      Expr *result = nullptr;
      if (tok_ != Tok::Eof && tok_ != Tok::Newline && tok_ != Tok::Semi)
        result = parseExpr(false);
      return ctx_.make<ReturnStmt>(pos, result);
    }
    case Tok::Break:
    case Tok::Continue:
    case Tok::Pass: {
      auto kind = tok_ == Tok::Break      ? BranchStmt::Token::Break
                  : tok_ == Tok::Continue ? BranchStmt::Token::Continue
                                          : BranchStmt::Token::Pass;
      return ctx_.make<BranchStmt>(nextToken(), kind);
    }
    case Tok::Load:
      return parseLoadStmt();
    default:
      break;
    }

    Expr *x = parseExpr(false);
    Op op;
    if (assignOp(tok_, op)) {
      Pos opPos = nextToken();
      Expr *rhs = parseExpr(false);
      return ctx_.make<AssignStmt>(x->pos, op, opPos, x, rhs);
    }
    return ctx_.make<ExprStmt>(x->pos, x);
  }

  // The name a load operand "x" binds: Go places it one column into the
  // string literal.
  Ident *loadName(StringLit *lit) {
    return ctx_.make<Ident>(Pos{lit->pos.line, lit->pos.col + 1}, lit->value);
  }

  // load_stmt = 'load' '(' STRING {',' (IDENT '=')? STRING} [','] ')'
  Stmt *parseLoadStmt() {
    Pos loadPos = nextToken();
    Pos lparen = consume(Tok::LParen);
    if (tok_ != Tok::String)
      error("first operand of load statement must be a string literal");
    auto *module = llvm::cast<StringLit>(parsePrimary());

    llvm::SmallVector<Ident *, 4> from, to;
    while (tok_ != Tok::RParen && tok_ != Tok::Eof) {
      consume(Tok::Comma);
      if (tok_ == Tok::RParen)
        break; // trailing comma
      switch (tok_) {
      case Tok::String: {
        auto *lit = llvm::cast<StringLit>(parsePrimary());
        to.push_back(loadName(lit));
        from.push_back(loadName(lit));
        break;
      }
      case Tok::Ident: {
        Ident *id = parseIdent();
        std::string name = id->name.str();
        to.push_back(id);
        if (tok_ != Tok::Eq)
          error("load operand must be \"" + name + "\" or " + name +
                "=\"originalname\" (want '=' after " + name + ")");
        consume(Tok::Eq);
        if (tok_ != Tok::String)
          error("original name of loaded symbol must be quoted: " + name + "=\"originalname\"");
        from.push_back(loadName(llvm::cast<StringLit>(parsePrimary())));
        break;
      }
      case Tok::RParen:
        error("trailing comma in load statement");
      default:
        error("load operand must be \"name\" or localname=\"name\" (got " + tokenGoString(tok_) +
              ")");
      }
    }
    Pos rparen = consume(Tok::RParen);
    if (to.empty())
      in_.error(lparen, "load statement must import at least 1 symbol");
    return ctx_.make<LoadStmt>(loadPos, module, copy(from), copy(to), rparen);
  }

  // suite = simple_stmt | NEWLINE INDENT stmt+ OUTDENT
  llvm::ArrayRef<Stmt *> parseSuite() {
    llvm::SmallVector<Stmt *, 8> stmts;
    if (tok_ == Tok::Newline) {
      nextToken();
      consume(Tok::Indent);
      while (tok_ != Tok::Outdent && tok_ != Tok::Eof)
        parseStmt(stmts);
      consume(Tok::Outdent);
    } else {
      parseSimpleStmt(stmts);
    }
    return copy(stmts);
  }

  Ident *parseIdent() {
    if (tok_ != Tok::Ident)
      error("not an identifier");
    auto *id = ctx_.make<Ident>(val_.pos, val_.string);
    nextToken();
    return id;
  }

  // params = (param ',')* param ','?   where param is x, x=default, *,
  // *args or **kwargs. Their order is checked by the resolver.
  llvm::ArrayRef<Param> parseParams() {
    llvm::SmallVector<Param, 8> params;
    while (tok_ != Tok::RParen && tok_ != Tok::Colon && tok_ != Tok::Eof) {
      if (!params.empty())
        consume(Tok::Comma);
      if (tok_ == Tok::RParen)
        break;
      if (tok_ == Tok::Star || tok_ == Tok::StarStar) {
        bool starStar = tok_ == Tok::StarStar;
        Param p{starStar ? Param::Kind::StarStar : Param::Kind::Star, nextToken()};
        if (starStar || tok_ == Tok::Ident)
          p.name = parseIdent();
        params.push_back(p);
        continue;
      }
      Ident *id = parseIdent();
      if (tok_ == Tok::Eq) {
        // An optional parameter's pos is its '=' (where Go reports errors).
        Param p{Param::Kind::Optional, nextToken(), id};
        p.defaultValue = parseTest();
        params.push_back(p);
        continue;
      }
      params.push_back(Param{Param::Kind::Required, id->pos, id});
    }
    return copy(params);
  }

  // ------------------------------------------------------- expressions

  // A test, or an unparenthesized tuple of tests.
  Expr *parseExpr(bool inParens) {
    Expr *x = parseTest();
    if (tok_ != Tok::Comma)
      return x;
    llvm::SmallVector<Expr *, 4> exprs{x};
    parseExprs(exprs, inParens);
    return ctx_.make<TupleExpr>(x->pos, copy(exprs));
  }

  // expr_list = (',' test)* ','?   starting at the comma.
  void parseExprs(llvm::SmallVectorImpl<Expr *> &exprs, bool allowTrailingComma) {
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

  Expr *parseTest() {
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
  Expr *parseTestNoCond() {
    if (tok_ == Tok::Lambda)
      return parseLambda(false);
    return parseTestPrec(0);
  }

  Expr *parseLambda(bool allowCond) {
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

  Expr *parseTestPrec(int prec) {
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
  Expr *parseBinopLoop(int prec, Expr *x) {
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
  Expr *parsePrimaryWithSuffix() {
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
  Expr *parseSliceSuffix(Expr *x) {
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

  Expr *parseCallSuffix(Expr *fn) {
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
  llvm::ArrayRef<Argument> parseArgs() {
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

  Expr *parsePrimary() {
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

  Expr *parseList() {
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

  Expr *parseDict() {
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

  DictEntry parseDictEntry() {
    Expr *key = parseTest();
    Pos colon = consume(Tok::Colon);
    Expr *value = parseTest();
    return DictEntry{key, value, colon};
  }

  // comp_suffix = (FOR loop_variables IN test_prec0 | IF test_nocond)* end
  // The operand of `in` may not be a conditional, a lambda or an
  // unparenthesized tuple (as in Python 3).
  Expr *parseComprehensionSuffix(Pos lbrack, Expr *body, Tok end) {
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

  AstContext &ctx_;
  Scanner in_;
  Tok tok_ = Tok::Illegal;
  TokenValue val_;
};

} // namespace

File *parseFile(AstContext &ctx, const frontend::SourceFile &src, frontend::DiagnosticList &diags) {
  try {
    File *f = Parser(ctx, src).parseFile();
    f->source = &src;
    return f;
  } catch (const SyntaxError &e) {
    diags.error(&src, e.pos, e.message);
    return nullptr;
  }
}

Expr *parseExpr(AstContext &ctx, const frontend::SourceFile &src, frontend::DiagnosticList &diags) {
  try {
    return Parser(ctx, src).parseWholeExpr();
  } catch (const SyntaxError &e) {
    diags.error(&src, e.pos, e.message);
    return nullptr;
  }
}

} // namespace fbc::syntax
