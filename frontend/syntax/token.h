// Lexical tokens of Starlark, with the names Go's scanner prints in syntax
// errors ("got newline, want primary expression", "got ')', want ','").
#pragma once

#include "frontend/source/source_manager.h"

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>

namespace fbc::syntax {

enum class Tok : uint8_t {
  Illegal, // also every reserved word (class, import, ...)
  Eof,
  Newline,
  Indent,
  Outdent,

  // Tokens with values.
  Ident,
  Int,
  Float,
  String,
  Bytes,

  // Punctuation. Keep Plus..GtGt and PlusEq..GtGtEq in the same order.
  Plus,
  Minus,
  Star,
  Slash,
  SlashSlash,
  Percent,
  Amp,
  Pipe,
  Caret,
  LtLt,
  GtGt,
  Tilde,
  Dot,
  Comma,
  Eq,
  Semi,
  Colon,
  LParen,
  RParen,
  LBrack,
  RBrack,
  LBrace,
  RBrace,
  Lt,
  Gt,
  Ge,
  Le,
  EqEq,
  NotEq,
  PlusEq,
  MinusEq,
  StarEq,
  SlashEq,
  SlashSlashEq,
  PercentEq,
  AmpEq,
  PipeEq,
  CaretEq,
  LtLtEq,
  GtGtEq,
  StarStar,

  // Keywords.
  And,
  Break,
  Continue,
  Def,
  Elif,
  Else,
  For,
  If,
  In,
  Lambda,
  Load,
  Not,
  NotIn, // synthesized by the parser from `not in`
  Or,
  Pass,
  Return,
  While,

  NumTokens
};

// The token's name as Go's Token.String() prints it: "newline", "+", "for".
const char *tokenName(Tok t);

// Go's %#v of a token: punctuation is quoted ('+'), everything else is not.
std::string tokenGoString(Tok t);

// A scanned token's value. Strings point into the AST arena or the source.
struct TokenValue {
  frontend::Pos pos;   // first character of the token
  llvm::StringRef raw; // the token's source text (Int: used for big ints)
  int64_t intValue = 0;
  bool bigInt = false; // the Int literal does not fit int64; see `raw`
  double floatValue = 0;
  llvm::StringRef string; // decoded String / Bytes value, or Ident name
};

} // namespace fbc::syntax
