// A choose() option as the plan prints it and as the run hands it to
// test(assume=): from a literal in the body or a module constant's value.
#include "passes/axes_sites.h"

#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/syntax/ast.h"
#include "ir/quote.h"

#include <llvm/Support/Casting.h>

namespace fbc::passes::axes {

using llvm::dyn_cast;
using llvm::isa;
using namespace fbc::syntax;

// Go's %v of a float64 is close enough to the IR's shortest form.
std::string renderLiteral(const Expr *e) {
  if (auto *p = dyn_cast<ParenExpr>(e))
    return renderLiteral(p->x);
  if (auto *s = dyn_cast<StringLit>(e))
    return s->value.str();
  if (auto *b = dyn_cast<BytesLit>(e))
    return b->value.str();
  if (auto *i = dyn_cast<IntLit>(e))
    return i->bigText.empty() ? std::to_string(i->value) : i->bigText.str();
  if (auto *f = dyn_cast<FloatLit>(e))
    return ir::formatNumber(f->value);
  if (auto *id = dyn_cast<Ident>(e))
    return id->name.str();
  if (auto *u = dyn_cast<UnaryExpr>(e))
    if (u->op == syntax::Op::Minus && (isa<IntLit>(u->x) || isa<FloatLit>(u->x)))
      return std::string("-").append(renderLiteral(u->x));
  return "<expr>";
}

// An option as the run hands it to test(assume=) (ir::OptionConstant).
ir::OptionConstant constantOf(star::Value v) {
  ir::OptionConstant c;
  int64_t i;
  if (v.is(star::Kind::None)) {
    c.kind = ir::OptionConstant::Kind::None;
  } else if (auto *b = v.as<star::Bool>()) {
    c.kind = ir::OptionConstant::Kind::Bool;
    c.i = b->value;
  } else if (v.isInt() && star::toInt64(v, i)) {
    c.kind = ir::OptionConstant::Kind::Int;
    c.i = i;
  } else if (auto *f = v.as<star::Float>()) {
    c.kind = ir::OptionConstant::Kind::Float;
    c.f = f->value;
  } else if (auto *str = v.as<star::String>()) {
    c.kind = ir::OptionConstant::Kind::String;
    c.s = std::string(str->view());
  }
  return c;
}

ir::OptionConstant constantOf(const Expr *e, star::Value global) {
  using K = ir::OptionConstant::Kind;
  while (auto *p = dyn_cast<ParenExpr>(e))
    e = p->x;
  ir::OptionConstant c;
  if (auto *s = dyn_cast<StringLit>(e)) {
    c.kind = K::String;
    c.s = s->value.str();
  } else if (auto *i = dyn_cast<IntLit>(e); i && i->bigText.empty()) {
    c.kind = K::Int;
    c.i = i->value;
  } else if (auto *f = dyn_cast<FloatLit>(e)) {
    c.kind = K::Float;
    c.f = f->value;
  } else if (auto *u = dyn_cast<UnaryExpr>(e); u && u->op == syntax::Op::Minus) {
    c = constantOf(u->x, star::Value());
    if (c.kind == K::Int)
      c.i = -c.i;
    else if (c.kind == K::Float)
      c.f = -c.f;
    else
      c = ir::OptionConstant();
  } else if (auto *id = dyn_cast<Ident>(e)) {
    if (id->name == "True" || id->name == "False") {
      c.kind = K::Bool;
      c.i = id->name == "True";
    } else if (id->name == "None") {
      c.kind = K::None;
    } else if (global) {
      c = constantOf(global);
    }
  }
  return c;
}

std::string renderValue(star::Value v) {
  if (auto *f = v.as<star::Float>())
    return ir::formatNumber(f->value);
  return star::str(v);
}

} // namespace fbc::passes::axes
