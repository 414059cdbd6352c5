// The Starlark syntax tree. Nodes are allocated in an AstContext arena and
// never freed individually; child lists are ArrayRefs into the same arena.
// Every node has the position of its first token (`pos`); binary operators,
// calls, indexing and dots also keep the position of the operator token,
// which is where Go reports runtime errors.
//
// RTTI is LLVM-style: isa<CallExpr>(e), dyn_cast<Ident>(e), via classof on
// the node kind. The resolver (frontend/resolve) annotates Ident::binding
// and the Function / File scope tables in place.
#pragma once

#include "frontend/source/source_manager.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/Casting.h>

#include <cstdint>
#include <cstring>
#include <memory>

namespace fbc::syntax {

using frontend::Pos;

// ---------------------------------------------------------------- tokens

// Operator tokens that appear in the tree.
enum class Op : uint8_t {
  // binary
  Plus, Minus, Star, Slash, SlashSlash, Percent, Amp, Pipe, Caret, LtLt, GtGt,
  EqEq, NotEq, Lt, Gt, Le, Ge, In, NotIn, And, Or,
  // unary
  Not, Tilde, // Minus and Plus double as unary
  // assignment
  Eq, PlusEq, MinusEq, StarEq, SlashEq, SlashSlashEq, PercentEq, AmpEq, PipeEq, CaretEq,
  LtLtEq, GtGtEq,
};
const char *opSpelling(Op op);

// ------------------------------------------------------------- bindings

enum class Scope : uint8_t {
  Undefined,
  Local,       // a slot of the enclosing function (or the file's locals)
  Cell,        // a local captured by a nested function: the slot holds a cell
  Free,        // a captured cell of an enclosing function: index into freevars
  Global,      // a module global: index into File::globals
  Predeclared, // provided by the embedder (spec builtins)
  Universal,   // len, dict, ... (the universe)
};

class Ident;

struct Binding {
  Scope scope = Scope::Undefined;
  uint32_t index = 0; // slot, freevar index or global index; 0 otherwise
  Ident *first = nullptr; // first binding occurrence (Local/Cell/Free/Global)
};

// ---------------------------------------------------------------- nodes

class Node {
public:
  enum class Kind : uint8_t {
    // expressions
    Ident, IntLit, FloatLit, StringLit, BytesLit, ListExpr, TupleExpr, DictExpr, ParenExpr,
    UnaryExpr, BinaryExpr, CondExpr, CallExpr, DotExpr, IndexExpr, SliceExpr, LambdaExpr,
    Comprehension,
    // statements
    ExprStmt, AssignStmt, DefStmt, ReturnStmt, IfStmt, ForStmt, WhileStmt, BranchStmt,
    LoadStmt,
  };
  Kind kind() const { return kind_; }
  Pos pos; // first token

protected:
  Node(Kind k, Pos p) : pos(p), kind_(k) {}

private:
  Kind kind_;
};

class Expr : public Node {
public:
  static bool classof(const Node *n) { return n->kind() <= Kind::Comprehension; }

protected:
  using Node::Node;
};

class Stmt : public Node {
public:
  static bool classof(const Node *n) { return n->kind() >= Kind::ExprStmt; }

protected:
  using Node::Node;
};

#define FBC_NODE(NAME, BASE)                                                                       \
  static bool classof(const Node *n) { return n->kind() == Kind::NAME; }

class Ident final : public Expr {
public:
  Ident(Pos p, llvm::StringRef name) : Expr(Kind::Ident, p), name(name) {}
  FBC_NODE(Ident, Expr)
  llvm::StringRef name;
  Binding *binding = nullptr; // set by the resolver
};

// An int literal. Values that fit int64 are in `value`; larger ones keep
// the literal text (with its 0x/0o/0b prefix) in `bigText`.
class IntLit final : public Expr {
public:
  IntLit(Pos p, int64_t v) : Expr(Kind::IntLit, p), value(v) {}
  IntLit(Pos p, llvm::StringRef big) : Expr(Kind::IntLit, p), bigText(big) {}
  FBC_NODE(IntLit, Expr)
  int64_t value = 0;
  llvm::StringRef bigText; // non-empty iff the literal exceeds int64
};

class FloatLit final : public Expr {
public:
  FloatLit(Pos p, double v) : Expr(Kind::FloatLit, p), value(v) {}
  FBC_NODE(FloatLit, Expr)
  double value;
};

// A string literal after escape processing (bytes, not necessarily UTF-8).
class StringLit final : public Expr {
public:
  StringLit(Pos p, llvm::StringRef v) : Expr(Kind::StringLit, p), value(v) {}
  FBC_NODE(StringLit, Expr)
  llvm::StringRef value;
};

class BytesLit final : public Expr {
public:
  BytesLit(Pos p, llvm::StringRef v) : Expr(Kind::BytesLit, p), value(v) {}
  FBC_NODE(BytesLit, Expr)
  llvm::StringRef value;
};

class ListExpr final : public Expr {
public:
  ListExpr(Pos p, llvm::ArrayRef<Expr *> elems) : Expr(Kind::ListExpr, p), elems(elems) {}
  FBC_NODE(ListExpr, Expr)
  llvm::ArrayRef<Expr *> elems;
};

// `a, b` or `(a, b)`. pos is the first element's (or the lparen's).
class TupleExpr final : public Expr {
public:
  TupleExpr(Pos p, llvm::ArrayRef<Expr *> elems) : Expr(Kind::TupleExpr, p), elems(elems) {}
  FBC_NODE(TupleExpr, Expr)
  llvm::ArrayRef<Expr *> elems;
};

struct DictEntry {
  Expr *key;
  Expr *value;
  Pos colon;
};

class DictExpr final : public Expr {
public:
  DictExpr(Pos p, llvm::ArrayRef<DictEntry> entries) : Expr(Kind::DictExpr, p), entries(entries) {}
  FBC_NODE(DictExpr, Expr)
  llvm::ArrayRef<DictEntry> entries;
};

// `(x)`: kept so that `(x) = 1` and `(a, b)` positions match Go's.
class ParenExpr final : public Expr {
public:
  ParenExpr(Pos p, Expr *x) : Expr(Kind::ParenExpr, p), x(x) {}
  FBC_NODE(ParenExpr, Expr)
  Expr *x;
};

class UnaryExpr final : public Expr {
public:
  UnaryExpr(Pos p, Op op, Expr *x) : Expr(Kind::UnaryExpr, p), op(op), x(x) {}
  FBC_NODE(UnaryExpr, Expr)
  Op op; // Minus, Plus, Tilde, Not
  Expr *x;
};

class BinaryExpr final : public Expr {
public:
  BinaryExpr(Pos p, Op op, Pos opPos, Expr *x, Expr *y)
      : Expr(Kind::BinaryExpr, p), op(op), opPos(opPos), x(x), y(y) {}
  FBC_NODE(BinaryExpr, Expr)
  Op op;
  Pos opPos;
  Expr *x, *y;
};

class CondExpr final : public Expr {
public:
  CondExpr(Pos p, Expr *cond, Expr *then, Expr *otherwise)
      : Expr(Kind::CondExpr, p), cond(cond), then(then), otherwise(otherwise) {}
  FBC_NODE(CondExpr, Expr)
  Expr *cond, *then, *otherwise;
};

struct Argument {
  enum class Kind : uint8_t { Positional, Named, Star, StarStar };
  Kind kind;
  Pos pos;
  Ident *name = nullptr; // Named only
  Expr *value;
};

class CallExpr final : public Expr {
public:
  CallExpr(Pos p, Expr *fn, Pos lparen, llvm::ArrayRef<Argument> args, Pos rparen)
      : Expr(Kind::CallExpr, p), fn(fn), lparen(lparen), args(args), rparen(rparen) {}
  FBC_NODE(CallExpr, Expr)
  Expr *fn;
  Pos lparen; // Go reports call errors at the lparen
  llvm::ArrayRef<Argument> args;
  Pos rparen;
};

class DotExpr final : public Expr {
public:
  DotExpr(Pos p, Expr *x, Pos dot, Ident *name) : Expr(Kind::DotExpr, p), x(x), dot(dot), name(name) {}
  FBC_NODE(DotExpr, Expr)
  Expr *x;
  Pos dot;
  Ident *name; // not resolved
};

class IndexExpr final : public Expr {
public:
  IndexExpr(Pos p, Expr *x, Pos lbrack, Expr *index)
      : Expr(Kind::IndexExpr, p), x(x), lbrack(lbrack), index(index) {}
  FBC_NODE(IndexExpr, Expr)
  Expr *x;
  Pos lbrack;
  Expr *index;
};

class SliceExpr final : public Expr {
public:
  SliceExpr(Pos p, Expr *x, Pos lbrack, Expr *lo, Expr *hi, Expr *step)
      : Expr(Kind::SliceExpr, p), x(x), lbrack(lbrack), lo(lo), hi(hi), step(step) {}
  FBC_NODE(SliceExpr, Expr)
  Expr *x;
  Pos lbrack;
  Expr *lo, *hi, *step; // each may be null
};

class Stmt;

struct Param {
  enum class Kind : uint8_t {
    Required, // x
    Optional, // x=default
    Star,     // *args, or a bare `*` (name null) introducing keyword-only params
    StarStar, // **kwargs
  };
  Kind kind;
  Pos pos;
  Ident *name = nullptr;
  Expr *defaultValue = nullptr; // Optional only
};

// A def or lambda body with its resolved scope.
class Function {
public:
  Pos pos;              // of `def` or `lambda`
  llvm::StringRef name; // "lambda" for lambdas
  llvm::ArrayRef<Param> params;
  llvm::ArrayRef<Stmt *> body; // a lambda's body is a synthetic ReturnStmt

  // Filled by the resolver.
  bool hasVarargs = false;
  bool hasKwargs = false;
  uint32_t numParams = 0;       // all parameters, including *args and **kwargs
  uint32_t numKwonlyParams = 0; // parameters after `*` / `*args`, before **kwargs
  llvm::ArrayRef<Binding *> locals;   // parameters first, then other locals
  llvm::ArrayRef<Binding *> freevars; // enclosing cells captured by this function
};

class LambdaExpr final : public Expr {
public:
  LambdaExpr(Pos p, Function *fn) : Expr(Kind::LambdaExpr, p), fn(fn) {}
  FBC_NODE(LambdaExpr, Expr)
  Function *fn;
};

struct Clause {
  enum class Kind : uint8_t { For, If };
  Kind kind;
  Pos pos;           // of `for` / `if`
  Expr *vars = nullptr; // For: the loop variables (Ident, TupleExpr, ...)
  Expr *x;           // For: the iterable; If: the condition
  Pos inPos;         // For: position of `in`
};

// [body for ... if ...] or {k: v for ...}. For a dict comprehension, body is
// a DictExpr with exactly one entry.
class Comprehension final : public Expr {
public:
  Comprehension(Pos p, bool curly, Expr *body, llvm::ArrayRef<Clause> clauses, Pos rbrack)
      : Expr(Kind::Comprehension, p), curly(curly), body(body), clauses(clauses), rbrack(rbrack) {}
  FBC_NODE(Comprehension, Expr)
  bool curly;
  Expr *body;
  llvm::ArrayRef<Clause> clauses;
  Pos rbrack;
};

// ------------------------------------------------------------ statements

class ExprStmt final : public Stmt {
public:
  ExprStmt(Pos p, Expr *x) : Stmt(Kind::ExprStmt, p), x(x) {}
  FBC_NODE(ExprStmt, Stmt)
  Expr *x;
};

// `lhs op rhs` where op is Eq or an augmented operator (PlusEq, ...).
class AssignStmt final : public Stmt {
public:
  AssignStmt(Pos p, Op op, Pos opPos, Expr *lhs, Expr *rhs)
      : Stmt(Kind::AssignStmt, p), op(op), opPos(opPos), lhs(lhs), rhs(rhs) {}
  FBC_NODE(AssignStmt, Stmt)
  Op op;
  Pos opPos;
  Expr *lhs, *rhs;
};

class DefStmt final : public Stmt {
public:
  DefStmt(Pos p, Ident *name, Function *fn) : Stmt(Kind::DefStmt, p), name(name), fn(fn) {}
  FBC_NODE(DefStmt, Stmt)
  Ident *name;
  Function *fn;
};

class ReturnStmt final : public Stmt {
public:
  ReturnStmt(Pos p, Expr *result) : Stmt(Kind::ReturnStmt, p), result(result) {}
  FBC_NODE(ReturnStmt, Stmt)
  Expr *result; // may be null
};

// if/elif/else: an elif chain is an IfStmt nested as the sole else statement.
class IfStmt final : public Stmt {
public:
  IfStmt(Pos p, Expr *cond, llvm::ArrayRef<Stmt *> then, Pos elsePos, llvm::ArrayRef<Stmt *> otherwise)
      : Stmt(Kind::IfStmt, p), cond(cond), then(then), elsePos(elsePos), otherwise(otherwise) {}
  FBC_NODE(IfStmt, Stmt)
  Expr *cond;
  llvm::ArrayRef<Stmt *> then;
  Pos elsePos; // invalid if no else/elif
  llvm::ArrayRef<Stmt *> otherwise;
};

class ForStmt final : public Stmt {
public:
  ForStmt(Pos p, Expr *vars, Expr *x, llvm::ArrayRef<Stmt *> body)
      : Stmt(Kind::ForStmt, p), vars(vars), x(x), body(body) {}
  FBC_NODE(ForStmt, Stmt)
  Expr *vars;
  Expr *x;
  llvm::ArrayRef<Stmt *> body;
};

class WhileStmt final : public Stmt {
public:
  WhileStmt(Pos p, Expr *cond, llvm::ArrayRef<Stmt *> body)
      : Stmt(Kind::WhileStmt, p), cond(cond), body(body) {}
  FBC_NODE(WhileStmt, Stmt)
  Expr *cond;
  llvm::ArrayRef<Stmt *> body;
};

// break, continue or pass.
class BranchStmt final : public Stmt {
public:
  enum class Token : uint8_t { Break, Continue, Pass };
  BranchStmt(Pos p, Token t) : Stmt(Kind::BranchStmt, p), token(t) {}
  FBC_NODE(BranchStmt, Stmt)
  Token token;
};

// load("module", "x", y="z"): from[i] is the name in the module, to[i] the
// local binding.
class LoadStmt final : public Stmt {
public:
  LoadStmt(Pos p, StringLit *module, llvm::ArrayRef<Ident *> from, llvm::ArrayRef<Ident *> to, Pos rparen)
      : Stmt(Kind::LoadStmt, p), module(module), from(from), to(to), rparen(rparen) {}
  FBC_NODE(LoadStmt, Stmt)
  StringLit *module;
  llvm::ArrayRef<Ident *> from; // names in the module (not resolved)
  llvm::ArrayRef<Ident *> to;   // bindings in this file
  Pos rparen;
};

#undef FBC_NODE

// A parsed file.
class File {
public:
  const frontend::SourceFile *source = nullptr;
  llvm::ArrayRef<Stmt *> stmts;

  // Filled by the resolver.
  llvm::ArrayRef<Binding *> locals;  // file-local (load bindings, top-level comprehension vars)
  llvm::ArrayRef<Binding *> globals; // module globals, in order of first binding
};

// Owns all nodes of one or more files.
class AstContext {
public:
  template <class T, class... A> T *make(A &&...args) {
    return new (alloc_.Allocate(sizeof(T), alignof(T))) T(std::forward<A>(args)...);
  }
  // Copies a list into the arena.
  template <class T> llvm::ArrayRef<T> copy(llvm::ArrayRef<T> items) {
    if (items.empty())
      return {};
    T *mem = static_cast<T *>(alloc_.Allocate(sizeof(T) * items.size(), alignof(T)));
    std::uninitialized_copy(items.begin(), items.end(), mem);
    return {mem, items.size()};
  }
  llvm::StringRef copy(llvm::StringRef s) {
    char *mem = static_cast<char *>(alloc_.Allocate(s.size() + 1, 1));
    std::memcpy(mem, s.data(), s.size());
    mem[s.size()] = 0;
    return {mem, s.size()};
  }

private:
  llvm::BumpPtrAllocator alloc_;
};

} // namespace fbc::syntax
