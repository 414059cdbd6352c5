// An S-expression dump of the syntax tree, for tests and debugging:
//
//   (= x (+ 1 (call f a (kw b 2))))
//
// With `showBindings`, resolved identifiers carry their scope and slot:
// x@local0, y@global1, z@cell0, w@free0, len@universal, M@predeclared.
#pragma once

#include "frontend/syntax/ast.h"

#include <string>

namespace fbc::syntax {

struct DumpOptions {
  bool showBindings = false;
};

std::string dumpExpr(const Expr *e, DumpOptions opts = {});
std::string dumpStmt(const Stmt *s, DumpOptions opts = {});
// One line per top-level statement.
std::string dumpFile(const File &f, DumpOptions opts = {});

} // namespace fbc::syntax
