// The recursive-descent parser's class, shared by its two halves:
// statements (parse_stmt.cpp) and expressions (parse_expr.cpp). Internal to
// frontend/syntax; the interface is parser.h.
#pragma once

#include "frontend/syntax/ast.h"
#include "frontend/syntax/scanner.h"

#include <llvm/ADT/SmallVector.h>

#include <string>

namespace fbc::syntax {

// Whether `t` ends an expression list (what may follow its last comma).
bool terminatesExprList(Tok t);

class Parser {
public:
  Parser(AstContext &ctx, const frontend::SourceFile &src) : ctx_(ctx), in_(ctx, src.text()) {}

  File *parseFile();
  Expr *parseWholeExpr();

private:
  // Advances to the next token; returns the position of the previous one.
  frontend::Pos nextToken() {
    frontend::Pos old = val_.pos;
    tok_ = in_.next(val_);
    return old;
  }

  [[noreturn]] void error(std::string msg) { in_.error(in_.pos(), std::move(msg)); }

  frontend::Pos consume(Tok t) {
    if (tok_ != t)
      error("got " + tokenGoString(tok_) + ", want " + tokenGoString(t));
    return nextToken();
  }

  template <class T> llvm::ArrayRef<T> copy(const llvm::SmallVectorImpl<T> &v) {
    return ctx_.copy(llvm::ArrayRef<T>(v));
  }

  // --------------------------------------------------------- statements

  void parseStmt(llvm::SmallVectorImpl<Stmt *> &stmts);
  Stmt *parseDefStmt();
  Stmt *parseIfStmt();
  Stmt *parseForStmt();

  Stmt *parseWhileStmt();

  // loop_variables = primary_with_suffix (',' primary_with_suffix)* ','?
  // (not parseExpr, which would swallow the `in`).
  Expr *parseForLoopVariables();

  // simple_stmt = small_stmt (';' small_stmt)* ';'? NEWLINE
  void parseSimpleStmt(llvm::SmallVectorImpl<Stmt *> &stmts);
  Stmt *parseSmallStmt();

  // The name a load operand "x" binds: Go places it one column into the
  // string literal.
  Ident *loadName(StringLit *lit);

  // load_stmt = 'load' '(' STRING {',' (IDENT '=')? STRING} [','] ')'
  Stmt *parseLoadStmt();

  // suite = simple_stmt | NEWLINE INDENT stmt+ OUTDENT
  llvm::ArrayRef<Stmt *> parseSuite();
  Ident *parseIdent();

  // params = (param ',')* param ','?   where param is x, x=default, *,
  // *args or **kwargs. Their order is checked by the resolver.
  llvm::ArrayRef<Param> parseParams();

  // ------------------------------------------------------- expressions

  // A test, or an unparenthesized tuple of tests.
  Expr *parseExpr(bool inParens);

  // expr_list = (',' test)* ','?   starting at the comma.
  void parseExprs(llvm::SmallVectorImpl<Expr *> &exprs, bool allowTrailingComma);
  Expr *parseTest();

  // A test without a trailing `if cond else x` (comprehension conditions).
  Expr *parseTestNoCond();
  Expr *parseLambda(bool allowCond);
  Expr *parseTestPrec(int prec);

  // The operators of one precedence level after its first operand `x`
  // (precedence climbing; comparisons do not associate).
  Expr *parseBinopLoop(int prec, Expr *x);

  // primary_with_suffix = primary ('.' IDENT | slice_suffix | call_suffix)*
  Expr *parsePrimaryWithSuffix();

  // slice_suffix = '[' expr? ':' test? (':' test?)? ']'  |  '[' expr ']'
  Expr *parseSliceSuffix(Expr *x);
  Expr *parseCallSuffix(Expr *fn);

  // arg_list = ((arg ',')* arg ','?)?   where arg is x, name=x, *x or **x.
  // `name=` is parsed as a test and then checked to be an identifier.
  llvm::ArrayRef<Argument> parseArgs();
  Expr *parsePrimary();
  Expr *parseList();
  Expr *parseDict();

  DictEntry parseDictEntry();

  // comp_suffix = (FOR loop_variables IN test_prec0 | IF test_nocond)* end
  // The operand of `in` may not be a conditional, a lambda or an
  // unparenthesized tuple (as in Python 3).
  Expr *parseComprehensionSuffix(Pos lbrack, Expr *body, Tok end);

  AstContext &ctx_;
  Scanner in_;
  Tok tok_ = Tok::Illegal;
  TokenValue val_;
};

} // namespace fbc::syntax
