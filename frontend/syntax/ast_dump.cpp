#include "frontend/syntax/ast_dump.h"

#include <llvm/ADT/SmallString.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>

namespace fbc::syntax {
namespace {

const char *scopeName(Scope s) {
  switch (s) {
  case Scope::Undefined:
    return "undefined";
  case Scope::Local:
    return "local";
  case Scope::Cell:
    return "cell";
  case Scope::Free:
    return "free";
  case Scope::Global:
    return "global";
  case Scope::Predeclared:
    return "predeclared";
  case Scope::Universal:
    return "universal";
  }
  return "?";
}

// Shortest "%.*g" form that reads back as the same double.
std::string formatFloat(double v) {
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos)
    s += ".0";
  return s;
}

void quote(std::string &out, llvm::StringRef s) {
  static const char hex[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20 || c == 0x7F) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 0xF];
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

class Dumper {
public:
  explicit Dumper(DumpOptions opts) : opts_(opts) {}
  std::string out;

  void ident(const Ident *id) {
    out += id->name;
    if (opts_.showBindings && id->binding) {
      out += '@';
      out += scopeName(id->binding->scope);
      Scope s = id->binding->scope;
      if (s == Scope::Local || s == Scope::Cell || s == Scope::Free || s == Scope::Global)
        out += std::to_string(id->binding->index);
    }
  }

  void optExpr(const Expr *e) {
    if (e)
      expr(e);
    else
      out += '_';
  }

  void exprs(llvm::ArrayRef<Expr *> es) {
    for (const Expr *e : es) {
      out += ' ';
      expr(e);
    }
  }

  void params(llvm::ArrayRef<Param> ps) {
    out += "(params";
    for (const Param &p : ps) {
      out += ' ';
      switch (p.kind) {
      case Param::Kind::Required:
        ident(p.name);
        break;
      case Param::Kind::Optional:
        out += "(= ";
        ident(p.name);
        out += ' ';
        expr(p.defaultValue);
        out += ')';
        break;
      case Param::Kind::Star:
        out += "(*";
        if (p.name) {
          out += ' ';
          ident(p.name);
        }
        out += ')';
        break;
      case Param::Kind::StarStar:
        out += "(** ";
        ident(p.name);
        out += ')';
        break;
      }
    }
    out += ')';
  }

  // "(head part ...)", or "(part ...)" for an empty head: each part is an
  // expression (dumped), a word, or a function that writes itself; parts
  // are separated by spaces.
  template <typename... Parts> void form(std::string_view head, const Parts &...parts) {
    out += '(';
    out += head;
    bool first = head.empty();
    ((out += first ? "" : " ", first = false, part(parts)), ...);
    out += ')';
  }
  void part(const Expr *e) { expr(e); }
  void part(std::string_view word) { out += word; }
  void part(llvm::StringRef word) { out += word; }
  template <typename F>
  requires std::is_invocable_v<const F &>
  void part(const F &write) { write(); }

  void expr(const Expr *e) {
    if (literal(e))
      return;
    switch (e->kind()) {
    case Node::Kind::ListExpr:
      out += "(list";
      exprs(llvm::cast<ListExpr>(e)->elems);
      out += ')';
      return;
    case Node::Kind::TupleExpr:
      out += "(tuple";
      exprs(llvm::cast<TupleExpr>(e)->elems);
      out += ')';
      return;
    case Node::Kind::DictExpr:
      out += "(dict";
      for (const DictEntry &entry : llvm::cast<DictExpr>(e)->entries) {
        out += ' ';
        form("", entry.key, entry.value);
      }
      out += ')';
      return;
    case Node::Kind::ParenExpr:
      return form("paren", llvm::cast<ParenExpr>(e)->x);
    case Node::Kind::UnaryExpr: {
      auto *u = llvm::cast<UnaryExpr>(e);
      return form(opSpelling(u->op), u->x);
    }
    case Node::Kind::BinaryExpr: {
      auto *b = llvm::cast<BinaryExpr>(e);
      return form(opSpelling(b->op), b->x, b->y);
    }
    case Node::Kind::CondExpr: {
      auto *c = llvm::cast<CondExpr>(e);
      return form("cond", c->cond, c->then, c->otherwise);
    }
    case Node::Kind::CallExpr:
      return call(llvm::cast<CallExpr>(e));
    case Node::Kind::DotExpr: {
      auto *d = llvm::cast<DotExpr>(e);
      return form("dot", d->x, d->name->name);
    }
    case Node::Kind::IndexExpr: {
      auto *i = llvm::cast<IndexExpr>(e);
      return form("index", i->x, i->index);
    }
    case Node::Kind::SliceExpr: {
      auto *s = llvm::cast<SliceExpr>(e);
      return form(
          "slice", s->x, [&] { optExpr(s->lo); }, [&] { optExpr(s->hi); },
          [&] { optExpr(s->step); });
    }
    case Node::Kind::LambdaExpr: {
      const Function *fn = llvm::cast<LambdaExpr>(e)->fn;
      return form(
          "lambda", [&] { params(fn->params); }, llvm::cast<ReturnStmt>(fn->body[0])->result);
    }
    case Node::Kind::Comprehension:
      return comprehension(llvm::cast<Comprehension>(e));
    default:
      out += "<stmt?>";
    }
  }

  // Names and literals; false for anything else.
  bool literal(const Expr *e) {
    switch (e->kind()) {
    case Node::Kind::Ident:
      ident(llvm::cast<Ident>(e));
      return true;
    case Node::Kind::IntLit: {
      auto *lit = llvm::cast<IntLit>(e);
      if (!lit->bigText.empty())
        out += lit->bigText;
      else
        out += std::to_string(lit->value);
      return true;
    }
    case Node::Kind::FloatLit:
      out += formatFloat(llvm::cast<FloatLit>(e)->value);
      return true;
    case Node::Kind::StringLit:
      quote(out, llvm::cast<StringLit>(e)->value);
      return true;
    case Node::Kind::BytesLit:
      out += 'b';
      quote(out, llvm::cast<BytesLit>(e)->value);
      return true;
    default:
      return false;
    }
  }

  void call(const CallExpr *c) {
    out += "(call ";
    expr(c->fn);
    for (const Argument &a : c->args) {
      out += ' ';
      switch (a.kind) {
      case Argument::Kind::Positional:
        expr(a.value);
        break;
      case Argument::Kind::Named:
        form("kw", a.name->name, a.value);
        break;
      case Argument::Kind::Star:
        form("*", a.value);
        break;
      case Argument::Kind::StarStar:
        form("**", a.value);
        break;
      }
    }
    out += ')';
  }

  void comprehension(const Comprehension *c) {
    out += c->curly ? "(dictcomp " : "(listcomp ";
    if (c->curly) {
      const DictEntry &entry = llvm::cast<DictExpr>(c->body)->entries[0];
      form("", entry.key, entry.value);
    } else {
      expr(c->body);
    }
    for (const Clause &cl : c->clauses) {
      out += ' ';
      if (cl.kind == Clause::Kind::For)
        form("for", cl.vars, cl.x);
      else
        form("if", cl.x);
    }
    out += ')';
  }

  void body(llvm::ArrayRef<Stmt *> stmts) {
    for (const Stmt *s : stmts) {
      out += ' ';
      stmt(s);
    }
  }

  void stmt(const Stmt *s) {
    switch (s->kind()) {
    case Node::Kind::ExprStmt:
      return expr(llvm::cast<ExprStmt>(s)->x);
    case Node::Kind::AssignStmt: {
      auto *a = llvm::cast<AssignStmt>(s);
      return form(opSpelling(a->op), a->lhs, a->rhs);
    }
    case Node::Kind::DefStmt: {
      auto *d = llvm::cast<DefStmt>(s);
      out += "(def ";
      ident(d->name);
      out += ' ';
      params(d->fn->params);
      body(d->fn->body);
      out += ')';
      return;
    }
    case Node::Kind::ReturnStmt: {
      auto *r = llvm::cast<ReturnStmt>(s);
      if (r->result)
        return form("return", r->result);
      out += "(return)";
      return;
    }
    case Node::Kind::IfStmt:
      return ifStmt(llvm::cast<IfStmt>(s));
    case Node::Kind::ForStmt: {
      auto *f = llvm::cast<ForStmt>(s);
      out += "(for ";
      expr(f->vars);
      out += ' ';
      expr(f->x);
      body(f->body);
      out += ')';
      return;
    }
    case Node::Kind::WhileStmt: {
      auto *w = llvm::cast<WhileStmt>(s);
      out += "(while ";
      expr(w->cond);
      body(w->body);
      out += ')';
      return;
    }
    case Node::Kind::BranchStmt:
      out += branchWord(llvm::cast<BranchStmt>(s)->token);
      return;
    case Node::Kind::LoadStmt:
      return load(llvm::cast<LoadStmt>(s));
    default:
      out += "<expr?>";
    }
  }

  void ifStmt(const IfStmt *i) {
    out += "(if ";
    expr(i->cond);
    out += " (then";
    body(i->then);
    out += ')';
    if (i->elsePos.valid()) {
      out += " (else";
      body(i->otherwise);
      out += ')';
    }
    out += ')';
  }

  static const char *branchWord(BranchStmt::Token t) {
    switch (t) {
    case BranchStmt::Token::Break:
      return "(break)";
    case BranchStmt::Token::Continue:
      return "(continue)";
    case BranchStmt::Token::Pass:
      return "(pass)";
    }
    return "";
  }

  void load(const LoadStmt *l) {
    out += "(load ";
    quote(out, l->module->value);
    for (size_t i = 0; i < l->to.size(); ++i) {
      out += ' ';
      form(
          "", [&] { ident(l->to[i]); }, [&] { quote(out, l->from[i]->name); });
    }
    out += ')';
  }

private:
  DumpOptions opts_;
};

} // namespace

std::string dumpExpr(const Expr *e, DumpOptions opts) {
  Dumper d(opts);
  d.expr(e);
  return d.out;
}

std::string dumpStmt(const Stmt *s, DumpOptions opts) {
  Dumper d(opts);
  d.stmt(s);
  return d.out;
}

std::string dumpFile(const File &f, DumpOptions opts) {
  Dumper d(opts);
  for (const Stmt *s : f.stmts) {
    d.stmt(s);
    d.out += '\n';
  }
  return d.out;
}

} // namespace fbc::syntax
