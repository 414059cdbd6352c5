// Scanner tests: token kinds, positions, literal values and indentation,
// checked against what Go's scanner produces.
#include "frontend/syntax/scanner.h"

#include <gtest/gtest.h>

#include <string>

namespace fbc::syntax {
namespace {

// Scans `text` into "kind kind ..." with values for literals, or the error.
std::string scan(const std::string &text) {
  AstContext ctx;
  Scanner sc(ctx, text);
  std::string out;
  try {
    for (;;) {
      TokenValue val;
      Tok t = sc.next(val);
      if (!out.empty())
        out += ' ';
      switch (t) {
      case Tok::Ident:
        out += val.string.str();
        break;
      case Tok::Int:
        out += val.bigInt ? "big:" + val.raw.str() : std::to_string(val.intValue);
        break;
      case Tok::Float: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", val.floatValue);
        out += buf;
        break;
      }
      case Tok::String:
      case Tok::Bytes: {
        out += t == Tok::Bytes ? "b<" : "<";
        for (unsigned char c : val.string) {
          if (c < 0x20 || c >= 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%02x", c);
            out += buf;
          } else {
            out += static_cast<char>(c);
          }
        }
        out += '>';
        break;
      }
      default:
        out += tokenName(t);
      }
      if (t == Tok::Eof)
        return out;
    }
  } catch (const SyntaxError &e) {
    return out + " error " + std::to_string(e.pos.line) + ":" + std::to_string(e.pos.col) + ": " +
           e.message;
  }
}

// Positions of every token as line:col.
std::string positions(const std::string &text) {
  AstContext ctx;
  Scanner sc(ctx, text);
  std::string out;
  for (;;) {
    TokenValue val;
    Tok t = sc.next(val);
    out += std::to_string(val.pos.line) + ":" + std::to_string(val.pos.col) + " ";
    if (t == Tok::Eof)
      return out;
  }
}

TEST(ScannerTokens, Punctuation) {
  EXPECT_EQ(scan("+ - * / // % & | ^ << >> ~ . , = ; : ( ) [ ] { } < > >= <= == !="),
            "+ - * / // % & | ^ << >> ~ . , = ; : ( ) [ ] { } < > >= <= == != end of file");
  EXPECT_EQ(scan("+= -= *= /= //= %= &= |= ^= <<= >>= **"),
            "+= -= *= /= //= %= &= |= ^= <<= >>= ** end of file");
}

TEST(ScannerTokens, KeywordsAndReserved) {
  EXPECT_EQ(scan("and break continue def elif else for if in lambda load not or pass return "
                 "while"),
            "and break continue def elif else for if in lambda load not or pass return while end "
            "of file");
  EXPECT_EQ(scan("class import assert"), "illegal token illegal token assert end of file");
  EXPECT_EQ(scan("_x x1 é π"), "_x x1 é π end of file");
}

TEST(ScannerTokens, Numbers) {
  EXPECT_EQ(scan("0 1 123 0x1F 0XaB 0o17 0O7 0b101 0B1 00 000"),
            "0 1 123 31 171 15 7 5 1 0 0 end of file");
  EXPECT_EQ(scan("9223372036854775807 9223372036854775808 0xffffffffffffffff"),
            "9223372036854775807 big:9223372036854775808 big:0xffffffffffffffff end of file");
  EXPECT_EQ(scan("1.5 1e3 1E-3 .5 1. 0.0 0e0 07.5 08e1"),
            "1.5 1000 0.001 0.5 1 0 0 7.5 80 end of file");
  EXPECT_EQ(scan("x.y 1.e2"), "x . y 100 end of file");
  EXPECT_EQ(scan("0777"), " error 1:5: obsolete form of octal literal; use 0o777");
  EXPECT_EQ(scan("0x"), " error 1:1: invalid hex literal");
  EXPECT_EQ(scan("0o"), " error 1:3: invalid octal literal");
  EXPECT_EQ(scan("0b"), " error 1:3: invalid binary literal");
  EXPECT_EQ(scan("1e"), " error 1:3: invalid float literal");
  EXPECT_EQ(scan("1e-x"), " error 1:4: invalid float literal");
  EXPECT_EQ(scan("09"), " error 1:1: invalid int literal");
}

TEST(ScannerTokens, Strings) {
  EXPECT_EQ(scan(R"('a' "b" '''c''' """d""" r'\n' b'e' rb'\x' b"\xff")"),
            R"(<a> <b> <c> <d> <\n> b<e> b<\x> b<\ff> end of file)");
  EXPECT_EQ(scan(R"("\a\b\f\n\r\t\v\\\'\"")"), R"(<\07\08\0c\0a\0d\09\0b\'"> end of file)");
  EXPECT_EQ(scan(R"("\0\101\7a\x41\u00e9\U0001F600")"),
            R"(<\00A\07aA\c3\a9\f0\9f\98\80> end of file)");
  EXPECT_EQ(scan("'''a\nb\\\nc'''"), R"(<a\0abc> end of file)");
  EXPECT_EQ(scan("'a\r\nb'"), " error 1:1: unexpected newline in string");
  EXPECT_EQ(scan("'''a\r\nb'''"), R"(<a\0ab> end of file)");
  EXPECT_EQ(scan("'it''s'"), "<it> <s> end of file");
  EXPECT_EQ(scan(R"('\q')"), R"( error 1:1: invalid escape sequence \q)");
  EXPECT_EQ(scan(R"(r'\q' '\é')"), "<\\q> error 1:7: invalid escape sequence \\\xc3\x83");
  EXPECT_EQ(scan(R"(x = r"\")"), "x = error 1:5: unexpected EOF in string");
}

TEST(ScannerLayout, IndentationAndNewlines) {
  EXPECT_EQ(scan("if x:\n  y\n  z\nw\n"),
            "if x : newline indent y newline z newline outdent w newline end of file");
  // EOF closes blocks, with a NEWLINE first if the last line had none.
  EXPECT_EQ(scan("if x:\n  if y:\n    z"),
            "if x : newline indent if y : newline indent z newline outdent outdent end of file");
  // Blank and comment lines do not count; newlines inside brackets vanish.
  EXPECT_EQ(scan("x = [\n1,\n   2]\n\n   # c\ny"), "x = [ 1 , 2 ] newline y end of file");
  // A tab advances to the next multiple of 8.
  EXPECT_EQ(scan("if x:\n\ty\n        z\n"),
            "if x : newline indent y newline z newline outdent end of file");
  EXPECT_EQ(scan("x = 1 + \\\n   2"), "x = 1 + 2 end of file");
  EXPECT_EQ(scan("x \\ y"), "x error 1:4: stray backslash in program");
  EXPECT_EQ(scan(")"), " error 1:1: unexpected ')'");
}

TEST(ScannerLayout, Positions) {
  EXPECT_EQ(positions("x = 1\n  \"é\" + y"), "1:1 1:3 1:5 1:6 2:3 2:3 2:7 2:9 2:10 2:10 2:10 ");
  EXPECT_EQ(positions("é, ü"), "1:1 1:2 1:4 1:5 ");
}

} // namespace
} // namespace fbc::syntax
