// Recursive-descent parser for Starlark, following the LL(1) structure of
// Go's syntax/parse.go so that errors are reported with the same messages
// at the same positions. Most errors are reported at the scanner position,
// i.e. just after the offending lookahead token, as Go does.
#include "frontend/syntax/parser.h"

#include "frontend/syntax/parser_impl.h"

namespace fbc::syntax {

File *Parser::parseFile() {
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

Expr *Parser::parseWholeExpr() {
  nextToken();
  Expr *x = parseExpr(false);
  if (tok_ == Tok::Newline)
    nextToken();
  if (tok_ != Tok::Eof)
    error("got " + tokenGoString(tok_) + " after expression, want EOF");
  return x;
}

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
