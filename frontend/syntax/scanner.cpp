#include "frontend/syntax/scanner.h"

#include "frontend/lib/utf8.h"

#include "frontend/syntax/quote.h"
#include "frontend/syntax/unicode_letters.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/Unicode.h>

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
  llvm::StringSwitch<Tok> sw(word);
#define TOKEN(Name, spelling)
#define KEYWORD(Name, spelling) sw.Case(spelling, Tok::Name);
#include "frontend/syntax/tokens.def"
  // Python keywords reserved by Starlark ("assert" is left free, as in Go).
  return sw.Cases("as", "class", "del", "except", "finally", "from", "global", Tok::Illegal)
      .Cases("import", "is", "nonlocal", "raise", "try", "with", "yield", Tok::Illegal)
      .Default(Tok::Ident);
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

// Leading blanks of a line: measures the indentation (tabs advance to the
// next multiple of 8, as in Go) and queues the INDENT/OUTDENTs it implies.
// True for a blank or comment-only line, which has no indentation.
bool Scanner::readIndentation() {
  int col = 0;
  char32_t c = 0;
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
  bool blank = c == '#' || c == '\n' || c == 0;
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
  return blank;
}

// An identifier or keyword, or a string with an r / b / rb prefix.
Tok Scanner::scanWord(TokenValue &val, char32_t c) {
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

// A comma, or an opening or closing bracket, tracking the nesting
// (newlines inside brackets are not tokens); Illegal for any other
// character.
Tok Scanner::scanDelimiter(char32_t c) {
  switch (c) {
  case ',':
    readRune();
    return Tok::Comma;
  case '(':
  case '[':
  case '{':
    ++depth_;
    readRune();
    return c == '(' ? Tok::LParen : c == '[' ? Tok::LBrack : Tok::LBrace;
  case ')':
  case ']':
  case '}':
    if (depth_ == 0)
      error(pos_, "unexpected " + quoteRune(c));
    --depth_;
    readRune();
    return c == ')' ? Tok::RParen : c == ']' ? Tok::RBrack : Tok::RBrace;
  default:
    return Tok::Illegal;
  }
}

// Blanks, then a comment up to (not including) the end of its line; the
// character after them.
char32_t Scanner::skipBlanksAndComment() {
  char32_t c = peekRune();
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
  return c;
}

void Scanner::startToken(TokenValue &val) {
  tokenStart_ = cur_;
  val.pos = pos_;
  val.raw = {};
}

Tok Scanner::next(TokenValue &val) {
  while (true) {
    bool blank = false;
    bool savedLineStart = lineStart_;

    if (lineStart_) {
      lineStart_ = false;
      blank = readIndentation();
    }

    if (dents_ != 0) {
      startToken(val);
      finishToken(val);
      Tok dent = dents_ < 0 ? Tok::Outdent : Tok::Indent;
      dents_ += dents_ < 0 ? 1 : -1;
      return dent;
    }

    char32_t c = skipBlanksAndComment();

    if (c == '\n') {
      lineStart_ = true;
      // Newlines inside brackets and blank lines are not tokens.
      if (depth_ > 0 || blank) {
        readRune();
        continue;
      }
      startToken(val);
      readRune();
      val.raw = "\n";
      return Tok::Newline;
    }

    if (c == 0) {
      // At EOF, close open blocks, with a NEWLINE first unless one was
      // just emitted.
      if (indentStack_.size() > 1 && savedLineStart) {
        dents_ = 1 - static_cast<int>(indentStack_.size());
        indentStack_.resize(1);
        continue;
      }
      startToken(val);
      if (indentStack_.size() > 1) {
        lineStart_ = true;
        val.raw = "\n";
        return Tok::Newline;
      }
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

    startToken(val);

    if (c == '"' || c == '\'')
      return scanString(val, c);

    if (isIdentStart(c))
      return scanWord(val, c);

    if (Tok t = scanDelimiter(c); t != Tok::Illegal) {
      finishToken(val);
      return t;
    }

    if (isDigit(c) || c == '.')
      return scanNumber(val, c);

    Tok t = scanPunctuation(c);
    finishToken(val);
    return t;
  }
}

namespace {

struct Punct {
  std::string_view spelling;
  Tok tok;
};
constexpr Punct kPunct[] = {
#define TOKEN(Name, spelling)
#define PUNCT(Name, spelling) {spelling, Tok::Name},
#include "frontend/syntax/tokens.def"
};

// The operator spelled `text`; Illegal when none is.
Tok punctToken(std::string_view text) {
  for (const Punct &p : kPunct)
    if (p.spelling == text)
      return p.tok;
  return Tok::Illegal;
}

// Whether an operator's spelling starts with `text` ("!" for "!=").
bool punctPrefix(std::string_view text) {
  for (const Punct &p : kPunct)
    if (p.spelling.starts_with(text))
      return true;
  return false;
}

} // namespace

// The longest operator spelling (tokens.def) that the input starts with.
Tok Scanner::scanPunctuation(char32_t c) {
  Pos start = pos_;
  char buf[4]; // the longest spelling has 3 characters
  size_t n = 0;
  for (char32_t next = c; n < sizeof buf && next < 0x80; next = peekRune()) {
    buf[n] = char(next);
    if (!punctPrefix({buf, n + 1}))
      break;
    ++n;
    readRune();
  }
  Tok t = punctToken({buf, n});
  if (t == Tok::Illegal)
    error(start, "unexpected input character " + quoteRune(c));
  return t;
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

} // namespace fbc::syntax
