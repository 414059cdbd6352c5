#include "frontend/syntax/ast.h"

namespace fbc::syntax {

const char *opSpelling(Op op) {
  switch (op) {
  case Op::Plus:
    return "+";
  case Op::Minus:
    return "-";
  case Op::Star:
    return "*";
  case Op::Slash:
    return "/";
  case Op::SlashSlash:
    return "//";
  case Op::Percent:
    return "%";
  case Op::Amp:
    return "&";
  case Op::Pipe:
    return "|";
  case Op::Caret:
    return "^";
  case Op::LtLt:
    return "<<";
  case Op::GtGt:
    return ">>";
  case Op::EqEq:
    return "==";
  case Op::NotEq:
    return "!=";
  case Op::Lt:
    return "<";
  case Op::Gt:
    return ">";
  case Op::Le:
    return "<=";
  case Op::Ge:
    return ">=";
  case Op::In:
    return "in";
  case Op::NotIn:
    return "not in";
  case Op::And:
    return "and";
  case Op::Or:
    return "or";
  case Op::Not:
    return "not";
  case Op::Tilde:
    return "~";
  case Op::Eq:
    return "=";
  case Op::PlusEq:
    return "+=";
  case Op::MinusEq:
    return "-=";
  case Op::StarEq:
    return "*=";
  case Op::SlashEq:
    return "/=";
  case Op::SlashSlashEq:
    return "//=";
  case Op::PercentEq:
    return "%=";
  case Op::AmpEq:
    return "&=";
  case Op::PipeEq:
    return "|=";
  case Op::CaretEq:
    return "^=";
  case Op::LtLtEq:
    return "<<=";
  case Op::GtGtEq:
    return ">>=";
  }
  return "?";
}

} // namespace fbc::syntax
