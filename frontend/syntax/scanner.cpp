#include "frontend/syntax/scanner.h"

#include "frontend/lib/utf8.h"

#include "frontend/syntax/quote.h"
#include "frontend/syntax/unicode_letters.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/Unicode.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace fbc::syntax {

using frontend::Pos;

// ------------------------------------------------------------ utilities

char32_t decodeUtf8(const char *p, const char *end, int &size) {
  star::utf8::Decoded d = star::utf8::decode(std::string_view(p, static_cast<size_t>(end - p)));
  size = static_cast<int>(d.size);
  return d.rune;
}

std::string quoteRune(char32_t c) {
  static const char hex[] = "0123456789abcdef";
  std::string s = "'";
  switch (c) {
  case '\a':
    s += "\\a";
    break;
  case '\b':
    s += "\\b";
    break;
  case '\f':
    s += "\\f";
    break;
  case '\n':
    s += "\\n";
    break;
  case '\r':
    s += "\\r";
    break;
  case '\t':
    s += "\\t";
    break;
  case '\v':
    s += "\\v";
    break;
  case '\'':
    s += "\\'";
    break;
  case '\\':
    s += "\\\\";
    break;
  default:
    if (c < 0x20 || c == 0x7F) {
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 0xF];
    } else if (c < 0x80 || llvm::sys::unicode::isPrintable(static_cast<int>(c))) {
      llvm::SmallString<4> utf8;
      appendUtf8(utf8, c);
      s += utf8.str();
    } else if (c < 0x10000) {
      s += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4)
        s += hex[(c >> shift) & 0xF];
    } else {
      s += "\\U";
      for (int shift = 28; shift >= 0; shift -= 4)
        s += hex[(c >> shift) & 0xF];
    }
  }
  s += "'";
  return s;
}

namespace {

bool isDigit(char32_t c) {
  return c >= '0' && c <= '9';
}
bool isOctDigit(char32_t c) {
  return c >= '0' && c <= '7';
}
bool isBinDigit(char32_t c) {
  return c == '0' || c == '1';
}
bool isHexDigit(char32_t c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool isIdentStart(char32_t c) {
  return c == '_' || isUnicodeLetter(c);
}
bool isIdentChar(char32_t c) {
  return isDigit(c) || isIdentStart(c);
}
bool isAsciiIdentByte(char b) {
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_';
}
// A byte of a single-quoted string that needs no attention: ASCII, not
// the quote, a backslash or a line break.
bool isPlainStringByte(char b, char quote) {
  return b != quote && b != '\\' && b != '\n' && b != '\r' && static_cast<unsigned char>(b) < 0x80;
}

Tok keyword(llvm::StringRef word) {
  return llvm::StringSwitch<Tok>(word)
      .Case("and", Tok::And)
      .Case("break", Tok::Break)
      .Case("continue", Tok::Continue)
      .Case("def", Tok::Def)
      .Case("elif", Tok::Elif)
      .Case("else", Tok::Else)
      .Case("for", Tok::For)
      .Case("if", Tok::If)
      .Case("in", Tok::In)
      .Case("lambda", Tok::Lambda)
      .Case("load", Tok::Load)
      .Case("not", Tok::Not)
      .Case("or", Tok::Or)
      .Case("pass", Tok::Pass)
      .Case("return", Tok::Return)
      .Case("while", Tok::While)
      // Python keywords reserved by Starlark ("assert" is left free, as in Go).
      .Cases("as", "class", "del", "except", "finally", "from", "global", Tok::Illegal)
      .Cases("import", "is", "nonlocal", "raise", "try", "with", "yield", Tok::Illegal)
      .Default(Tok::Ident);
}

// Parses digits in `base` into an int64; false on overflow or a bad digit.
bool parseInt64(llvm::StringRef digits, unsigned base, int64_t &out) {
  if (digits.empty())
    return false;
  uint64_t v = 0;
  for (char ch : digits) {
    unsigned d;
    if (ch >= '0' && ch <= '9')
      d = static_cast<unsigned>(ch - '0');
    else if (ch >= 'a' && ch <= 'f')
      d = static_cast<unsigned>(ch - 'a' + 10);
    else if (ch >= 'A' && ch <= 'F')
      d = static_cast<unsigned>(ch - 'A' + 10);
    else
      return false;
    if (d >= base)
      return false;
    if (v > (uint64_t(INT64_MAX) - d) / base)
      return false;
    v = v * base + d;
  }
  out = static_cast<int64_t>(v);
  return true;
}

} // namespace

// ------------------------------------------------------------- scanner

Scanner::Scanner(AstContext &ctx, llvm::StringRef text)
    : ctx_(ctx), cur_(text.begin()), end_(text.end()) {}

void Scanner::error(Pos pos, std::string message) const {
  throw SyntaxError{pos, std::move(message)};
}

// Newlines in Unix, DOS or old Mac form all read as one '\n'.
char32_t Scanner::peekRune() const {
  if (cur_ == end_)
    return 0;
  unsigned char b = static_cast<unsigned char>(*cur_);
  if (b < 0x80)
    return b == '\r' ? '\n' : b;
  int size;
  return decodeUtf8(cur_, end_, size);
}

char32_t Scanner::readRune() {
  if (cur_ == end_)
    error(pos_, "internal scanner error: readRune at EOF");
  unsigned char b = static_cast<unsigned char>(*cur_);
  if (b < 0x80) {
    ++cur_;
    char32_t c = b;
    if (c == '\r') {
      if (cur_ != end_ && *cur_ == '\n')
        ++cur_;
      c = '\n';
    }
    if (c == '\n') {
      ++pos_.line;
      pos_.col = 1;
    } else {
      ++pos_.col;
    }
    return c;
  }
  int size;
  char32_t c = decodeUtf8(cur_, end_, size);
  cur_ += size;
  ++pos_.col;
  return c;
}

void Scanner::finishToken(TokenValue &val) const {
  val.raw = llvm::StringRef(tokenStart_, static_cast<size_t>(cur_ - tokenStart_));
}

Tok Scanner::next(TokenValue &val) {
  auto startToken = [&] {
    tokenStart_ = cur_;
    val.pos = pos_;
    val.raw = {};
  };

  while (true) {
    char32_t c = 0;
    bool blank = false;
    bool savedLineStart = lineStart_;

    // Leading blanks of a line: measure the indentation (tabs advance to
    // the next multiple of 8, as in Go).
    if (lineStart_) {
      lineStart_ = false;
      int col = 0;
      for (;;) {
        c = peekRune();
        if (c == ' ') {
          ++col;
          readRune();
        } else if (c == '\t') {
          col += 8 - static_cast<int>((pos_.col - 1) % 8);
          readRune();
        } else {
          break;
        }
      }
      blank = c == '#' || c == '\n' || c == 0;
      if (!blank && depth_ == 0) {
        int cur = indentStack_.back();
        if (col > cur) {
          ++dents_;
          indentStack_.push_back(col);
        } else if (col < cur) {
          while (indentStack_.size() > 1 && col < indentStack_.back()) {
            --dents_;
            indentStack_.pop_back();
          }
          if (col != indentStack_.back())
            error(pos_, "unindent does not match any outer indentation level");
        }
      }
    }

    if (dents_ != 0) {
      startToken();
      finishToken(val);
      if (dents_ < 0) {
        ++dents_;
        return Tok::Outdent;
      }
      --dents_;
      return Tok::Indent;
    }

    c = peekRune();
    while (c == ' ' || c == '\t') {
      readRune();
      c = peekRune();
    }

    if (c == '#') {
      while (c != 0 && c != '\n') {
        readRune();
        c = peekRune();
      }
    }

    if (c == '\n') {
      lineStart_ = true;
      // Newlines inside brackets and blank lines are not tokens.
      if (depth_ > 0 || blank) {
        readRune();
        continue;
      }
      startToken();
      readRune();
      val.raw = "\n";
      return Tok::Newline;
    }

    if (c == 0) {
      // At EOF, close open blocks, with a NEWLINE first unless one was
      // just emitted.
      if (indentStack_.size() > 1) {
        if (savedLineStart) {
          dents_ = 1 - static_cast<int>(indentStack_.size());
          indentStack_.resize(1);
          continue;
        }
        lineStart_ = true;
        startToken();
        val.raw = "\n";
        return Tok::Newline;
      }
      startToken();
      finishToken(val);
      return Tok::Eof;
    }

    if (c == '\\') {
      readRune();
      if (peekRune() != '\n')
        error(pos_, "stray backslash in program");
      readRune();
      continue;
    }

    startToken();

    if (c == ',') {
      readRune();
      finishToken(val);
      return Tok::Comma;
    }

    if (c == '"' || c == '\'')
      return scanString(val, c);

    if (isIdentStart(c)) {
      // r"...", b"..." and rb"..." string prefixes.
      auto quoteAt = [&](ptrdiff_t i) {
        return end_ - cur_ > i && (cur_[i] == '"' || cur_[i] == '\'');
      };
      if ((c == 'r' || c == 'b') && quoteAt(1)) {
        readRune();
        return scanString(val, peekRune());
      }
      if (c == 'r' && end_ - cur_ > 1 && cur_[1] == 'b' && quoteAt(2)) {
        readRune();
        readRune();
        return scanString(val, peekRune());
      }
      for (;;) {
        // Fast path: a run of ASCII identifier bytes, one column each.
        const char *p = cur_;
        while (p != end_ && isAsciiIdentByte(*p))
          ++p;
        pos_.col += static_cast<uint32_t>(p - cur_);
        cur_ = p;
        c = peekRune();
        if (c < 0x80 || !isIdentChar(c))
          break;
        readRune();
      }
      finishToken(val);
      Tok t = keyword(val.raw);
      if (t == Tok::Ident)
        val.string = ctx_.copy(val.raw);
      return t;
    }

    switch (c) {
    case '(':
    case '[':
    case '{':
      ++depth_;
      readRune();
      finishToken(val);
      return c == '(' ? Tok::LParen : c == '[' ? Tok::LBrack : Tok::LBrace;
    case ')':
    case ']':
    case '}':
      if (depth_ == 0)
        error(pos_, "unexpected " + quoteRune(c));
      --depth_;
      readRune();
      finishToken(val);
      return c == ')' ? Tok::RParen : c == ']' ? Tok::RBrack : Tok::RBrace;
    default:
      break;
    }

    if (isDigit(c) || c == '.')
      return scanNumber(val, c);

    Tok t = scanPunctuation(c);
    finishToken(val);
    return t;
  }
}

Tok Scanner::scanPunctuation(char32_t c) {
  Pos start = pos_;
  auto follows = [&](char32_t want) {
    if (peekRune() != want)
      return false;
    readRune();
    return true;
  };
  switch (c) {
  case '=':
  case '<':
  case '>':
  case '!':
  case '+':
  case '-':
  case '%':
  case '/':
  case '&':
  case '|':
  case '^':
    readRune();
    if (follows('=')) {
      switch (c) {
      case '<':
        return Tok::Le;
      case '>':
        return Tok::Ge;
      case '=':
        return Tok::EqEq;
      case '!':
        return Tok::NotEq;
      case '+':
        return Tok::PlusEq;
      case '-':
        return Tok::MinusEq;
      case '/':
        return Tok::SlashEq;
      case '%':
        return Tok::PercentEq;
      case '&':
        return Tok::AmpEq;
      case '|':
        return Tok::PipeEq;
      case '^':
        return Tok::CaretEq;
      }
    }
    switch (c) {
    case '=':
      return Tok::Eq;
    case '<':
      if (follows('<'))
        return follows('=') ? Tok::LtLtEq : Tok::LtLt;
      return Tok::Lt;
    case '>':
      if (follows('>'))
        return follows('=') ? Tok::GtGtEq : Tok::GtGt;
      return Tok::Gt;
    case '!':
      error(start, "unexpected input character '!'");
    case '+':
      return Tok::Plus;
    case '-':
      return Tok::Minus;
    case '/':
      if (follows('/'))
        return follows('=') ? Tok::SlashSlashEq : Tok::SlashSlash;
      return Tok::Slash;
    case '%':
      return Tok::Percent;
    case '&':
      return Tok::Amp;
    case '|':
      return Tok::Pipe;
    default:
      return Tok::Caret;
    }
  case ':':
    readRune();
    return Tok::Colon;
  case ';':
    readRune();
    return Tok::Semi;
  case '~':
    readRune();
    return Tok::Tilde;
  case '*':
    readRune();
    if (follows('*'))
      return Tok::StarStar;
    if (follows('='))
      return Tok::StarEq;
    return Tok::Star;
  default:
    error(pos_, "unexpected input character " + quoteRune(c));
  }
}

Tok Scanner::scanString(TokenValue &val, char32_t quote) {
  Pos start = pos_; // the opening quote, after any r/b prefix
  auto q = static_cast<char>(quote);
  bool triple = end_ - cur_ >= 3 && cur_[0] == q && cur_[1] == q && cur_[2] == q;
  readRune();
  if (!triple) {
    for (;;) {
      // Fast path: plain ASCII text, one column per byte.
      const char *p = cur_;
      while (p != end_ && isPlainStringByte(*p, q))
        ++p;
      pos_.col += static_cast<uint32_t>(p - cur_);
      cur_ = p;
      if (atEof())
        error(val.pos, "unexpected EOF in string");
      char32_t c = readRune();
      if (c == quote)
        break;
      if (c == '\n')
        error(val.pos, "unexpected newline in string");
      if (c == '\\') {
        if (atEof())
          error(val.pos, "unexpected EOF in string");
        readRune();
      }
    }
  } else {
    readRune();
    readRune();
    int quotes = 0;
    for (;;) {
      if (atEof())
        error(val.pos, "unexpected EOF in string");
      char32_t c = readRune();
      if (c == quote) {
        if (++quotes == 3)
          break;
      } else {
        quotes = 0;
      }
      if (c == '\\') {
        if (atEof())
          error(val.pos, "unexpected EOF in string");
        readRune();
      }
    }
  }
  finishToken(val);
  UnquoteResult r = unquote(val.raw, scratch_);
  if (!r.ok)
    error(start, r.error);
  val.string = ctx_.copy(r.value);
  return r.isBytes ? Tok::Bytes : Tok::String;
}

Tok Scanner::scanNumber(TokenValue &val, char32_t c) {
  Pos start = pos_;
  bool fraction = false, exponent = false;
  auto skipWhile = [&](bool (*pred)(char32_t)) {
    while (pred(c)) {
      readRune();
      c = peekRune();
    }
  };

  if (c == '.') {
    readRune();
    c = peekRune();
    if (!isDigit(c)) {
      finishToken(val);
      return Tok::Dot;
    }
    fraction = true;
  } else if (c == '0') {
    readRune();
    c = peekRune();
    if (c == '.') {
      fraction = true;
    } else if (c == 'x' || c == 'X') {
      readRune();
      c = peekRune();
      if (!isHexDigit(c))
        error(start, "invalid hex literal");
      skipWhile(isHexDigit);
    } else if (c == 'o' || c == 'O') {
      readRune();
      c = peekRune();
      if (!isOctDigit(c))
        error(pos_, "invalid octal literal");
      skipWhile(isOctDigit);
    } else if (c == 'b' || c == 'B') {
      readRune();
      c = peekRune();
      if (!isBinDigit(c))
        error(pos_, "invalid binary literal");
      skipWhile(isBinDigit);
    } else {
      // A float, zero, or the obsolete octal form 0755.
      bool allZeros = true, octal = true;
      while (isDigit(c)) {
        allZeros &= c == '0';
        octal &= c <= '7';
        readRune();
        c = peekRune();
      }
      if (c == '.') {
        fraction = true;
      } else if (c == 'e' || c == 'E') {
        exponent = true;
      } else if (octal && !allZeros) {
        finishToken(val);
        error(pos_, "obsolete form of octal literal; use 0o" + val.raw.drop_front(1).str());
      }
    }
  } else {
    skipWhile(isDigit);
    if (c == '.')
      fraction = true;
    else if (c == 'e' || c == 'E')
      exponent = true;
  }

  if (fraction) {
    readRune(); // '.'
    c = peekRune();
    skipWhile(isDigit);
    if (c == 'e' || c == 'E')
      exponent = true;
  }
  if (exponent) {
    readRune(); // [eE]
    c = peekRune();
    if (c == '+' || c == '-') {
      readRune();
      c = peekRune();
      if (!isDigit(c))
        error(pos_, "invalid float literal");
    }
    skipWhile(isDigit);
  }

  finishToken(val);
  if (fraction || exponent) {
    // The token is at most digits, '.', 'e' and a sign: strtod in the "C"
    // locale reads it exactly as Go's ParseFloat, except that Go rejects
    // overflow to infinity.
    llvm::SmallString<64> text(val.raw);
    char *endp = nullptr;
    errno = 0;
    val.floatValue = std::strtod(text.c_str(), &endp);
    if (endp != text.end() || std::isinf(val.floatValue))
      error(pos_, "invalid float literal");
    return Tok::Float;
  }

  llvm::StringRef s = val.raw;
  val.bigInt = false;
  bool ok;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    ok = parseInt64(s.drop_front(2), 8, val.intValue); // Go: no big octal literals
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    ok = parseInt64(s.drop_front(2), 2, val.intValue);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    ok = parseInt64(s.drop_front(2), 16, val.intValue) || (val.bigInt = true);
  } else if (s.size() > 1 && s[0] == '0') {
    // Only all-zero digits (or an invalid 08/09) get here: Go reads a
    // leading 0 as octal.
    ok = parseInt64(s.drop_front(1), 8, val.intValue) ||
         (s.find_first_not_of("01234567") == llvm::StringRef::npos && (val.bigInt = true));
  } else {
    ok = parseInt64(s, 10, val.intValue) || (val.bigInt = true);
  }
  if (!ok)
    error(start, "invalid int literal");
  if (val.bigInt)
    val.raw = ctx_.copy(val.raw);
  return Tok::Int;
}

} // namespace fbc::syntax
