// The Starlark scanner: turns source text into tokens on demand (one token
// of lookahead, as Go's), synthesizing NEWLINE, INDENT and OUTDENT.
// Errors throw SyntaxError with Go's message and position.
#pragma once

#include "frontend/syntax/ast.h"
#include "frontend/syntax/token.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>

#include <optional>
#include <string>

namespace fbc::syntax {

struct SyntaxError {
  frontend::Pos pos;
  std::string message;
};

class Scanner {
public:
  // Decoded strings and identifier names are copied into `ctx`.
  Scanner(AstContext &ctx, llvm::StringRef text);

  // Scans the next token into `val`. Throws SyntaxError.
  Tok next(TokenValue &val);

  // The position just after the last token scanned (Go's `p.in.pos`, where
  // most parser errors are reported).
  frontend::Pos pos() const { return pos_; }

  [[noreturn]] void error(frontend::Pos pos, std::string message) const;

private:
  char32_t peekRune() const;
  char32_t readRune();
  bool atEof() const { return cur_ == end_; }
  Tok scanString(TokenValue &val, char32_t quote);
  Tok scanNumber(TokenValue &val, char32_t c);
  char32_t scanRadixDigits(bool (*isRadixDigit)(char32_t), std::optional<frontend::Pos> at,
                           const char *invalid);
  Tok numberValue(TokenValue &val, frontend::Pos start, bool isFloat);
  Tok scanPunctuation(char32_t c);
  bool readIndentation();
  char32_t skipBlanksAndComment();
  Tok scanWord(TokenValue &val, char32_t c);
  Tok scanDelimiter(char32_t c);
  void startToken(TokenValue &val);
  void finishToken(TokenValue &val) const;

  AstContext &ctx_;
  const char *cur_;
  const char *end_;
  const char *tokenStart_ = nullptr;
  frontend::Pos pos_{1, 1};
  int depth_ = 0; // nesting of () [] {}
  llvm::SmallVector<int, 16> indentStack_{0};
  int dents_ = 0; // pending INDENTs (> 0) or OUTDENTs (< 0)
  bool lineStart_ = true;
  llvm::SmallString<128> scratch_;
};

// Decodes one UTF-8 sequence as Go does: invalid input yields U+FFFD and a
// size of 1. Requires p < end.
char32_t decodeUtf8(const char *p, const char *end, int &size);

// Go's %q of a rune: 'x', '\n', '\x01', '\u200b'.
std::string quoteRune(char32_t c);

} // namespace fbc::syntax
