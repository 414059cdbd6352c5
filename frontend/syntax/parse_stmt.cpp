// The statement half of the parser: def, if, for, while, simple and
// small statements, load(), suites and parameter lists.
#include "frontend/syntax/parser_impl.h"

namespace fbc::syntax {
namespace {

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

} // namespace

using frontend::Pos;

void Parser::parseStmt(llvm::SmallVectorImpl<Stmt *> &stmts) {
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

Stmt *Parser::parseDefStmt() {
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

Stmt *Parser::parseIfStmt() {
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

Stmt *Parser::parseForStmt() {
  Pos forPos = nextToken();
  Expr *vars = parseForLoopVariables();
  consume(Tok::In);
  Expr *x = parseExpr(false);
  consume(Tok::Colon);
  return ctx_.make<ForStmt>(forPos, vars, x, parseSuite());
}

Stmt *Parser::parseWhileStmt() {
  Pos whilePos = nextToken();
  Expr *cond = parseTest();
  consume(Tok::Colon);
  return ctx_.make<WhileStmt>(whilePos, cond, parseSuite());
}

// loop_variables = primary_with_suffix (',' primary_with_suffix)* ','?
// (not parseExpr, which would swallow the `in`).
Expr *Parser::parseForLoopVariables() {
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
void Parser::parseSimpleStmt(llvm::SmallVectorImpl<Stmt *> &stmts) {
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

Stmt *Parser::parseSmallStmt() {
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
Ident *Parser::loadName(StringLit *lit) {
  return ctx_.make<Ident>(Pos{lit->pos.line, lit->pos.col + 1}, lit->value);
}

// load_stmt = 'load' '(' STRING {',' (IDENT '=')? STRING} [','] ')'
Stmt *Parser::parseLoadStmt() {
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
llvm::ArrayRef<Stmt *> Parser::parseSuite() {
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

Ident *Parser::parseIdent() {
  if (tok_ != Tok::Ident)
    error("not an identifier");
  auto *id = ctx_.make<Ident>(val_.pos, val_.string);
  nextToken();
  return id;
}

// params = (param ',')* param ','?   where param is x, x=default, *,
// *args or **kwargs. Their order is checked by the resolver.
llvm::ArrayRef<Param> Parser::parseParams() {
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

} // namespace fbc::syntax
