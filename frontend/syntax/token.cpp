#include "frontend/syntax/token.h"

namespace fbc::syntax {

const char *tokenName(Tok t) {
  switch (t) {
  case Tok::Illegal:
    return "illegal token";
  case Tok::Eof:
    return "end of file";
  case Tok::Newline:
    return "newline";
  case Tok::Indent:
    return "indent";
  case Tok::Outdent:
    return "outdent";
  case Tok::Ident:
    return "identifier";
  case Tok::Int:
    return "int literal";
  case Tok::Float:
    return "float literal";
  case Tok::String:
    return "string literal";
  case Tok::Bytes:
    return "bytes literal";
  case Tok::Plus:
    return "+";
  case Tok::Minus:
    return "-";
  case Tok::Star:
    return "*";
  case Tok::Slash:
    return "/";
  case Tok::SlashSlash:
    return "//";
  case Tok::Percent:
    return "%";
  case Tok::Amp:
    return "&";
  case Tok::Pipe:
    return "|";
  case Tok::Caret:
    return "^";
  case Tok::LtLt:
    return "<<";
  case Tok::GtGt:
    return ">>";
  case Tok::Tilde:
    return "~";
  case Tok::Dot:
    return ".";
  case Tok::Comma:
    return ",";
  case Tok::Eq:
    return "=";
  case Tok::Semi:
    return ";";
  case Tok::Colon:
    return ":";
  case Tok::LParen:
    return "(";
  case Tok::RParen:
    return ")";
  case Tok::LBrack:
    return "[";
  case Tok::RBrack:
    return "]";
  case Tok::LBrace:
    return "{";
  case Tok::RBrace:
    return "}";
  case Tok::Lt:
    return "<";
  case Tok::Gt:
    return ">";
  case Tok::Ge:
    return ">=";
  case Tok::Le:
    return "<=";
  case Tok::EqEq:
    return "==";
  case Tok::NotEq:
    return "!=";
  case Tok::PlusEq:
    return "+=";
  case Tok::MinusEq:
    return "-=";
  case Tok::StarEq:
    return "*=";
  case Tok::SlashEq:
    return "/=";
  case Tok::SlashSlashEq:
    return "//=";
  case Tok::PercentEq:
    return "%=";
  case Tok::AmpEq:
    return "&=";
  case Tok::PipeEq:
    return "|=";
  case Tok::CaretEq:
    return "^=";
  case Tok::LtLtEq:
    return "<<=";
  case Tok::GtGtEq:
    return ">>=";
  case Tok::StarStar:
    return "**";
  case Tok::And:
    return "and";
  case Tok::Break:
    return "break";
  case Tok::Continue:
    return "continue";
  case Tok::Def:
    return "def";
  case Tok::Elif:
    return "elif";
  case Tok::Else:
    return "else";
  case Tok::For:
    return "for";
  case Tok::If:
    return "if";
  case Tok::In:
    return "in";
  case Tok::Lambda:
    return "lambda";
  case Tok::Load:
    return "load";
  case Tok::Not:
    return "not";
  case Tok::NotIn:
    return "not in";
  case Tok::Or:
    return "or";
  case Tok::Pass:
    return "pass";
  case Tok::Return:
    return "return";
  case Tok::While:
    return "while";
  case Tok::NumTokens:
    break;
  }
  return "?";
}

std::string tokenGoString(Tok t) {
  if (t >= Tok::Plus && t <= Tok::StarStar)
    return std::string("'") + tokenName(t) + "'";
  return tokenName(t);
}

} // namespace fbc::syntax
