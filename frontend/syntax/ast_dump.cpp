#include "frontend/syntax/ast_dump.h"

#include <llvm/ADT/SmallString.h>

#include <cstdio>
#include <cstdlib>

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

  void expr(const Expr *e) {
    switch (e->kind()) {
    case Node::Kind::Ident:
      ident(llvm::cast<Ident>(e));
      return;
    case Node::Kind::IntLit: {
      auto *lit = llvm::cast<IntLit>(e);
      if (!lit->bigText.empty())
        out += lit->bigText;
      else
        out += std::to_string(lit->value);
      return;
    }
    case Node::Kind::FloatLit:
      out += formatFloat(llvm::cast<FloatLit>(e)->value);
      return;
    case Node::Kind::StringLit:
      quote(out, llvm::cast<StringLit>(e)->value);
      return;
    case Node::Kind::BytesLit:
      out += 'b';
      quote(out, llvm::cast<BytesLit>(e)->value);
      return;
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
        out += " (";
        expr(entry.key);
        out += ' ';
        expr(entry.value);
        out += ')';
      }
      out += ')';
      return;
    case Node::Kind::ParenExpr:
      out += "(paren ";
      expr(llvm::cast<ParenExpr>(e)->x);
      out += ')';
      return;
    case Node::Kind::UnaryExpr: {
      auto *u = llvm::cast<UnaryExpr>(e);
      out += '(';
      out += opSpelling(u->op);
      out += ' ';
      expr(u->x);
      out += ')';
      return;
    }
    case Node::Kind::BinaryExpr: {
      auto *b = llvm::cast<BinaryExpr>(e);
      out += '(';
      out += opSpelling(b->op);
      out += ' ';
      expr(b->x);
      out += ' ';
      expr(b->y);
      out += ')';
      return;
    }
    case Node::Kind::CondExpr: {
      auto *c = llvm::cast<CondExpr>(e);
      out += "(cond ";
      expr(c->cond);
      out += ' ';
      expr(c->then);
      out += ' ';
      expr(c->otherwise);
      out += ')';
      return;
    }
    case Node::Kind::CallExpr: {
      auto *c = llvm::cast<CallExpr>(e);
      out += "(call ";
      expr(c->fn);
      for (const Argument &a : c->args) {
        out += ' ';
        switch (a.kind) {
        case Argument::Kind::Positional:
          expr(a.value);
          break;
        case Argument::Kind::Named:
          out += "(kw ";
          out += a.name->name;
          out += ' ';
          expr(a.value);
          out += ')';
          break;
        case Argument::Kind::Star:
          out += "(* ";
          expr(a.value);
          out += ')';
          break;
        case Argument::Kind::StarStar:
          out += "(** ";
          expr(a.value);
          out += ')';
          break;
        }
      }
      out += ')';
      return;
    }
    case Node::Kind::DotExpr: {
      auto *d = llvm::cast<DotExpr>(e);
      out += "(dot ";
      expr(d->x);
      out += ' ';
      out += d->name->name;
      out += ')';
      return;
    }
    case Node::Kind::IndexExpr: {
      auto *i = llvm::cast<IndexExpr>(e);
      out += "(index ";
      expr(i->x);
      out += ' ';
      expr(i->index);
      out += ')';
      return;
    }
    case Node::Kind::SliceExpr: {
      auto *s = llvm::cast<SliceExpr>(e);
      out += "(slice ";
      expr(s->x);
      out += ' ';
      optExpr(s->lo);
      out += ' ';
      optExpr(s->hi);
      out += ' ';
      optExpr(s->step);
      out += ')';
      return;
    }
    case Node::Kind::LambdaExpr: {
      const Function *fn = llvm::cast<LambdaExpr>(e)->fn;
      out += "(lambda ";
      params(fn->params);
      out += ' ';
      expr(llvm::cast<ReturnStmt>(fn->body[0])->result);
      out += ')';
      return;
    }
    case Node::Kind::Comprehension: {
      auto *c = llvm::cast<Comprehension>(e);
      out += c->curly ? "(dictcomp " : "(listcomp ";
      if (c->curly) {
        const DictEntry &entry = llvm::cast<DictExpr>(c->body)->entries[0];
        out += '(';
        expr(entry.key);
        out += ' ';
        expr(entry.value);
        out += ')';
      } else {
        expr(c->body);
      }
      for (const Clause &cl : c->clauses) {
        if (cl.kind == Clause::Kind::For) {
          out += " (for ";
          expr(cl.vars);
          out += ' ';
          expr(cl.x);
        } else {
          out += " (if ";
          expr(cl.x);
        }
        out += ')';
      }
      out += ')';
      return;
    }
    default:
      out += "<stmt?>";
    }
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
      expr(llvm::cast<ExprStmt>(s)->x);
      return;
    case Node::Kind::AssignStmt: {
      auto *a = llvm::cast<AssignStmt>(s);
      out += '(';
      out += opSpelling(a->op);
      out += ' ';
      expr(a->lhs);
      out += ' ';
      expr(a->rhs);
      out += ')';
      return;
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
      out += "(return";
      if (r->result) {
        out += ' ';
        expr(r->result);
      }
      out += ')';
      return;
    }
    case Node::Kind::IfStmt: {
      auto *i = llvm::cast<IfStmt>(s);
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
      return;
    }
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
      switch (llvm::cast<BranchStmt>(s)->token) {
      case BranchStmt::Token::Break:
        out += "(break)";
        return;
      case BranchStmt::Token::Continue:
        out += "(continue)";
        return;
      case BranchStmt::Token::Pass:
        out += "(pass)";
        return;
      }
      return;
    case Node::Kind::LoadStmt: {
      auto *l = llvm::cast<LoadStmt>(s);
      out += "(load ";
      quote(out, l->module->value);
      for (size_t i = 0; i < l->to.size(); ++i) {
        out += " (";
        ident(l->to[i]);
        out += ' ';
        quote(out, l->from[i]->name);
        out += ')';
      }
      out += ')';
      return;
    }
    default:
      out += "<expr?>";
    }
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
