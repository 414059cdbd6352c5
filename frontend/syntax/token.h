// Lexical tokens of Starlark, with the names Go's scanner prints in syntax
// errors ("got newline, want primary expression", "got ')', want ','").
#pragma once

#include "frontend/source/source_manager.h"

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>

namespace fbc::syntax {

// The kinds, declared once in tokens.def (with the names tokenName prints).
enum class Tok : uint8_t {
#define TOKEN(Name, spelling) Name,
#include "frontend/syntax/tokens.def"
  NumTokens
};

// The token's name as Go's Token.String() prints it: "newline", "+", "for".
const char *tokenName(Tok t);

// Go's %#v of a token: punctuation is quoted ('+'), everything else is not.
std::string tokenGoString(Tok t);
// An operator or delimiter (tokens.def's PUNCT entries).
bool isPunctuation(Tok t);

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
