// Temporary definitions of the scanner/parser/resolver symbols so every test
// binary links while they are being written. Removed as the real ones land.
#include "frontend/resolve/resolver.h"
#include "frontend/syntax/ast.h"
#include "frontend/syntax/parser.h"

#include <cstdlib>

namespace fbc::syntax {

const char *opSpelling(Op) {
  std::abort();
}

File *parseFile(AstContext &, const frontend::SourceFile &, frontend::DiagnosticList &) {
  std::abort();
}

Expr *parseExpr(AstContext &, const frontend::SourceFile &, frontend::DiagnosticList &) {
  std::abort();
}

} // namespace fbc::syntax

namespace fbc::resolve {

bool resolveFile(syntax::AstContext &, syntax::File &, const syntax::Dialect &, const Environment &,
                 frontend::DiagnosticList &) {
  std::abort();
}

} // namespace fbc::resolve
