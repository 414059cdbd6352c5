// Where a spec builtin was called from, down to its arguments. The frame of
// a running builtin only knows the position of the call's '('; the index
// below maps that back to the CallExpr (the interpreter keeps every parsed
// file's AST), so IR entities get the position of the call and diagnostics
// can point at the offending argument or list element.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/syntax/ast.h"
#include "ir/diagnostic_codes.h"
#include "ir/spec.h"

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::ir::builtins {

class CallSiteIndex {
public:
  // Registers a parsed file; its calls are indexed on first lookup.
  void addFile(const syntax::File &file);
  // The call whose '(' is at `lparen` in `file`, or null.
  const syntax::CallExpr *find(const frontend::SourceFile *file, frontend::Pos lparen) const;

private:
  struct FileCalls {
    const syntax::File *ast = nullptr;
    bool built = false;
    // Every call in the file by the position of its '(' (line, col),
    // sorted: one flat array (a large spec has tens of thousands of calls).
    struct Call {
      uint32_t line, col;
      const syntax::CallExpr *call;
    };
    std::vector<Call> calls;
  };
  mutable std::map<const frontend::SourceFile *, FileCalls> files_;
};

// The Starlark call of the running builtin.
class CallSite {
public:
  CallSite(star::Thread &t, const CallSiteIndex &index);

  // The call expression's start (`service` in `service(...)`), else '('.
  Loc loc() const;
  // Argument expressions; null when absent or hidden behind *args/**kwargs.
  const syntax::Expr *positional(size_t i) const;
  const syntax::Argument *keyword(std::string_view name) const;
  const syntax::Expr *keywordValue(std::string_view name) const;
  // A parameter passed either way: by keyword `name`, else positional i.
  const syntax::Expr *param(size_t i, std::string_view name) const;
  // Element i of a list/tuple literal (or key i of a dict literal); null if
  // `container` is not such a literal.
  static const syntax::Expr *element(const syntax::Expr *container, size_t i);

  // Locations, each falling back to the call's '(' when unknown.
  Loc at(const syntax::Expr *e) const;
  Loc at(const syntax::Argument *a) const;
  Loc lparen() const;

  // Fails the builtin with the error reported at `where` (a location in
  // the calling file; otherwise at the call). In a test body the message
  // starts with that location, and the failure is a mistake in how the
  // body called the builtin: the run makes it an error row with
  // BAD_ARGUMENT.
  [[noreturn]] void fail(const Loc &where, std::string msg) const;
  [[noreturn]] void fail(std::string msg) const;
  // fail() of a mistake with a stable code of its own (ir/diagnostic_codes.h),
  // which the error row carries.
  [[noreturn]] void fail(const Loc &where, std::string msg, DiagCode code) const;

  star::Thread &thread() const { return t_; }

private:
  [[noreturn]] void failCoded(const Loc &where, std::string msg, std::string_view code) const;
  bool inBody() const;

  star::Thread &t_;
  star::CallFrame *caller_ = nullptr;
  const frontend::SourceFile *file_ = nullptr;
  frontend::Pos lparen_;
  const syntax::CallExpr *call_ = nullptr;
};

// Fails with a mistake's stable code outside a builtin's own checks (an
// attribute read, a body-time builtin of the runtime): in a test body the
// message starts with the innermost Starlark frame's location (a builtin's
// call, a `.name`), as CallSite::fail's does, and the run makes the row an
// error carrying the code.
[[noreturn]] void failMistake(star::Thread &t, DiagCode code, std::string msg);

// star::bindArgs / star::bindNone (their messages) for a builtin a test
// body may call: what they cannot bind is a mistake with a code
// (failMistake): a keyword that names no parameter UNKNOWN_KEYWORD, a
// missing, extra or doubled argument BAD_ARGUMENT. bindBuiltinArgs is the
// binder's bindSlots (ir/builtins/binder.h) in Go's wording.
void bindBuiltinArgs(star::Thread &t, std::string_view fn, const star::Args &args,
                     std::initializer_list<const char *> params,
                     std::initializer_list<star::Value *> out);
void bindNoArgs(star::Thread &t, std::string_view fn, const star::Args &args);

} // namespace fbc::ir::builtins
