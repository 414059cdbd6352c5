// Scanner + recursive-descent parser for the whole Starlark grammar (the Go
// implementation's doc/spec.md is normative). Errors use Go's messages,
// e.g. "got newline, want primary expression", at Go's positions.
#pragma once

#include "frontend/source/diagnostic.h"
#include "frontend/syntax/ast.h"

namespace fbc::syntax {

// Parses a whole file. On a syntax error, reports it to `diags` and
// returns null (parsing stops at the first error, as in Go).
File *parseFile(AstContext &ctx, const frontend::SourceFile &src, frontend::DiagnosticList &diags);

// Parses a single expression (used by tools and tests).
Expr *parseExpr(AstContext &ctx, const frontend::SourceFile &src, frontend::DiagnosticList &diags);

} // namespace fbc::syntax
