// Parser tests: trees (as S-expressions), errors (Go's messages and
// positions), and the Go test data (every chunk must parse; errors.star's
// `###` expectations must match).
#include "frontend/source/diagnostic.h"
#include "frontend/syntax/ast_dump.h"
#include "frontend/syntax/parser.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fbc::syntax {
namespace {

namespace fs = std::filesystem;

const char *const kGoStarlark = "/usr/share/gocode/src/go.starlark.net";

std::string parseToDump(const std::string &text) {
  frontend::SourceManager sm;
  AstContext ctx;
  frontend::DiagnosticList diags;
  File *f = parseFile(ctx, *sm.add("t.star", text), diags);
  if (!f) {
    const auto &d = diags.all().front();
    return "error " + std::to_string(d.pos.line) + ":" + std::to_string(d.pos.col) + ": " +
           d.message;
  }
  std::string s = dumpFile(*f);
  if (!s.empty() && s.back() == '\n')
    s.pop_back();
  return s;
}

std::string exprDump(const std::string &text) {
  frontend::SourceManager sm;
  AstContext ctx;
  frontend::DiagnosticList diags;
  Expr *e = parseExpr(ctx, *sm.add("t.star", text), diags);
  if (!e) {
    const auto &d = diags.all().front();
    return "error " + std::to_string(d.pos.line) + ":" + std::to_string(d.pos.col) + ": " +
           d.message;
  }
  return dumpExpr(e);
}

TEST(ParserExpr, Precedence) {
  EXPECT_EQ(exprDump("1 + 2 * 3"), "(+ 1 (* 2 3))");
  EXPECT_EQ(exprDump("1 * 2 + 3"), "(+ (* 1 2) 3)");
  EXPECT_EQ(exprDump("a or b and not c"), "(or a (and b (not c)))");
  EXPECT_EQ(exprDump("a | b ^ c & d << 1 + -e"), "(| a (^ b (& c (<< d (+ 1 (- e))))))");
  EXPECT_EQ(exprDump("a < b + 1"), "(< a (+ b 1))");
  EXPECT_EQ(exprDump("x not in y"), "(not in x y)");
  EXPECT_EQ(exprDump("not x in y"), "(not (in x y))");
  EXPECT_EQ(exprDump("-x.y(1)[2]"), "(- (index (call (dot x y) 1) 2))");
  EXPECT_EQ(exprDump("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(exprDump("a // b % c"), "(% (// a b) c)");
  EXPECT_EQ(exprDump("~a"), "(~ a)");
}

TEST(ParserExpr, Literals) {
  EXPECT_EQ(exprDump("[1, 0x10, 0o17, 0b101, 0, 00]"), "(list 1 16 15 5 0 0)");
  EXPECT_EQ(exprDump("123456789012345678901234567890"), "123456789012345678901234567890");
  EXPECT_EQ(exprDump("9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(exprDump("9223372036854775808"), "9223372036854775808");
  EXPECT_EQ(exprDump("0x10000000000000000"), "0x10000000000000000");
  EXPECT_EQ(exprDump("(1.5, 1e10, .5, 1., 0.0, 1e-3, 0e0)"),
            "(paren (tuple 1.5 1e+10 0.5 1.0 0.0 0.001 0.0))");
  EXPECT_EQ(exprDump("'a' + \"b\" + '''c''' + r'\\n' + b'x'"),
            "(+ (+ (+ (+ \"a\" \"b\") \"c\") \"\\\\n\") b\"x\")");
  EXPECT_EQ(exprDump("()"), "(tuple)");
  EXPECT_EQ(exprDump("(1,)"), "(paren (tuple 1))");
  EXPECT_EQ(exprDump("{}"), "(dict)");
  EXPECT_EQ(exprDump("{1: 2, 'a': [],}"), "(dict (1 2) (\"a\" (list)))");
}

TEST(ParserExpr, CallsSlicesLambdas) {
  EXPECT_EQ(exprDump("f(a, b=1, *c, **d)"), "(call f a (kw b 1) (* c) (** d))");
  EXPECT_EQ(exprDump("f(a, )"), "(call f a)");
  EXPECT_EQ(exprDump("x[1:2]"), "(slice x 1 2 _)");
  EXPECT_EQ(exprDump("x[::-1]"), "(slice x _ _ (- 1))");
  EXPECT_EQ(exprDump("x[a:]"), "(slice x a _ _)");
  EXPECT_EQ(exprDump("x[1, 2:]"), "(slice x (tuple 1 2) _ _)");
  EXPECT_EQ(exprDump("x[1, 2]"), "(index x (tuple 1 2))");
  EXPECT_EQ(exprDump("lambda x, y=1, *a, **k: x"), "(lambda (params x (= y 1) (* a) (** k)) x)");
  EXPECT_EQ(exprDump("lambda: 0"), "(lambda (params) 0)");
  EXPECT_EQ(exprDump("a if b else c"), "(cond b a c)");
  EXPECT_EQ(exprDump("a if b else c if d else e"), "(cond b a (cond d c e))");
  EXPECT_EQ(exprDump("1, 2"), "(tuple 1 2)");
}

TEST(ParserExpr, Comprehensions) {
  EXPECT_EQ(exprDump("[x for x in y if x for z in x]"), "(listcomp x (for x y) (if x) (for z x))");
  EXPECT_EQ(exprDump("{k: v for k, v in d}"), "(dictcomp (k v) (for (tuple k v) d))");
  EXPECT_EQ(exprDump("[a for b in c if lambda: d]"),
            "(listcomp a (for b c) (if (lambda (params) d)))");
}

TEST(ParserExpr, Errors) {
  EXPECT_EQ(exprDump("1 +"), "error 1:4: got end of file, want primary expression");
  EXPECT_EQ(exprDump("a b"), "error 1:4: got identifier after expression, want EOF");
  EXPECT_EQ(exprDump("a == b == c"), "error 1:10: == does not associate with == (use parens)");
  EXPECT_EQ(exprDump("a if b"), "error 1:3: conditional expression without else clause");
  EXPECT_EQ(exprDump("f(1+2=3)"), "error 1:7: keyword argument must have form name=expr");
  EXPECT_EQ(exprDump("[x for x in 1, 2]"), "error 1:15: got ',', want ']', for, or if");
  EXPECT_EQ(exprDump("a not b"), "error 1:8: got identifier, want in");
  EXPECT_EQ(exprDump("class"), "error 1:6: got illegal token, want primary expression");
}

TEST(ParserStmt, Statements) {
  EXPECT_EQ(parseToDump("x = 1\ny += 2\na, b = c\n[a, b] = 1, 2\n"),
            "(= x 1)\n(+= y 2)\n(= (tuple a b) c)\n(= (list a b) (tuple 1 2))");
  EXPECT_EQ(parseToDump("def f(a, b=1, *args, c, **kw):\n  return a\n"),
            "(def f (params a (= b 1) (* args) c (** kw)) (return a))");
  EXPECT_EQ(parseToDump("def f(*, a): pass"), "(def f (params (*) a) (pass))");
  EXPECT_EQ(parseToDump("if a:\n  pass\nelif b:\n  x = 1\nelse:\n  return\n"),
            "(if a (then (pass)) (else (if b (then (= x 1)) (else (return)))))");
  EXPECT_EQ(parseToDump("for x, y in z:\n  break\n  continue\n"),
            "(for (tuple x y) z (break) (continue))");
  EXPECT_EQ(parseToDump("for x in 1, 2: pass"), "(for x (tuple 1 2) (pass))");
  EXPECT_EQ(parseToDump("while x: x -= 1"), "(while x (-= x 1))");
  EXPECT_EQ(parseToDump("load('m', 'a', b='c')"), "(load \"m\" (a \"a\") (b \"c\"))");
  EXPECT_EQ(parseToDump("a; b; c;\n"), "a\nb\nc");
  EXPECT_EQ(parseToDump("x = (1 +\n  2)\ny = [\n1,\n\n2]\n"),
            "(= x (paren (+ 1 2)))\n(= y (list 1 2))");
  EXPECT_EQ(parseToDump("x = 1 + \\\n  2\n"), "(= x (+ 1 2))");
  EXPECT_EQ(parseToDump("def f():\n  if x:\n    pass\n\n  # c\n  return 1"),
            "(def f (params) (if x (then (pass))) (return 1))");
  EXPECT_EQ(parseToDump("def f():\r\n  return 1\r\n"), "(def f (params) (return 1))");
  EXPECT_EQ(parseToDump("def f():\n\tif x:\n\t\treturn 1\n"),
            "(def f (params) (if x (then (return 1))))");
  EXPECT_EQ(parseToDump(""), "");
  EXPECT_EQ(parseToDump("\n\n# only a comment\n"), "");
}

TEST(ParserStmt, Strings) {
  EXPECT_EQ(parseToDump(R"(x = "\a\b\f\n\r\t\v\\\'\"")"), R"((= x "\x07\x08\x0c\n\r\t\x0b\\'\""))");
  EXPECT_EQ(parseToDump(R"(x = "\101\x41\u00e9\U0001F600\0")"),
            "(= x \"AA\xc3\xa9\xf0\x9f\x98\x80\\x00\")");
  EXPECT_EQ(parseToDump("x = '''a\nb'''"), R"((= x "a\nb"))");
  EXPECT_EQ(parseToDump("x = 'a\\\nb'"), R"((= x "ab"))");
  EXPECT_EQ(parseToDump(R"(x = r'\d\'')"), R"((= x "\\d\\'"))");
  EXPECT_EQ(parseToDump(R"(x = b'\xff' + rb'\x')"), "(= x (+ b\"\xff\" b\"\\\\x\"))");
  EXPECT_EQ(parseToDump(R"(x = "\377")"), "(= x \"\xff\")");
}

TEST(ParserErrors, ScannerErrors) {
  EXPECT_EQ(parseToDump(R"(x = "\q")"), R"(error 1:5: invalid escape sequence \q)");
  EXPECT_EQ(parseToDump(R"(x = r"a" + "\x4")"), R"(error 1:12: truncated escape sequence \x4)");
  EXPECT_EQ(parseToDump(R"(x = "\x-0")"), R"(error 1:5: invalid escape sequence \x-0)");
  EXPECT_EQ(parseToDump(R"(x = "\400")"), R"(error 1:5: invalid escape sequence \400)");
  EXPECT_EQ(parseToDump(R"(x = "\ud800")"), "error 1:5: invalid Unicode code point U+D800");
  EXPECT_EQ(parseToDump(R"(x = "\U00110000")"),
            R"(error 1:5: code point out of range: \U00110000 (max \U00110000))");
  EXPECT_EQ(parseToDump(R"(x = "\u12")"), R"(error 1:5: truncated escape sequence \u12)");
  EXPECT_EQ(parseToDump("x = 'abc"), "error 1:5: unexpected EOF in string");
  EXPECT_EQ(parseToDump("x = 'abc\ny = 1"), "error 1:5: unexpected newline in string");
  EXPECT_EQ(parseToDump("x = r'abc\n"), "error 1:5: unexpected newline in string");
  EXPECT_EQ(parseToDump("x = '''abc"), "error 1:5: unexpected EOF in string");
  EXPECT_EQ(parseToDump("x = 0777"), "error 1:9: obsolete form of octal literal; use 0o777");
  EXPECT_EQ(parseToDump("x = 0x"), "error 1:5: invalid hex literal");
  EXPECT_EQ(parseToDump("x = 0o8"), "error 1:7: invalid octal literal");
  EXPECT_EQ(parseToDump("x = 0b2"), "error 1:7: invalid binary literal");
  EXPECT_EQ(parseToDump("x = 1e+"), "error 1:8: invalid float literal");
  EXPECT_EQ(parseToDump("x = 1e999"), "error 1:10: invalid float literal");
  EXPECT_EQ(parseToDump("x = 09"), "error 1:5: invalid int literal");
  EXPECT_EQ(parseToDump("x = 0o1000000000000000000000000"), "error 1:5: invalid int literal");
  EXPECT_EQ(parseToDump("x = $"), "error 1:5: unexpected input character '$'");
  EXPECT_EQ(parseToDump("x = !a"), "error 1:5: unexpected input character '!'");
  EXPECT_EQ(parseToDump("x = 1 \\ 2"), "error 1:8: stray backslash in program");
  EXPECT_EQ(parseToDump("x = 1)"), "error 1:6: unexpected ')'");
  EXPECT_EQ(parseToDump("if x:\n    a\n  b\n"),
            "error 3:3: unindent does not match any outer indentation level");
  EXPECT_EQ(parseToDump("x = 1\n  y = 2\n"), "error 2:3: got indent, want primary expression");
  EXPECT_EQ(parseToDump("é = 1\nπ2 = é"), "(= é 1)\n(= π2 é)");
  EXPECT_EQ(parseToDump("x = 1 € 2"), "error 1:7: unexpected input character '€'");
}

TEST(ParserErrors, ParserErrors) {
  EXPECT_EQ(parseToDump("x = 1 +\n2"), "error 2:1: got newline, want primary expression");
  EXPECT_EQ(parseToDump("def f : pass"), "error 1:8: got ':', want '('");
  EXPECT_EQ(parseToDump("def pass(): pass"), "error 1:9: not an identifier");
  EXPECT_EQ(parseToDump("print(1, 2, 3\n"), "error 2:1: got end of file, want ')'");
  EXPECT_EQ(parseToDump("a, b, = 1, 2"), "error 1:5: unparenthesized tuple with trailing comma");
  EXPECT_EQ(parseToDump("print 1 2"), "error 1:8: got int literal, want newline");
  EXPECT_EQ(parseToDump("load('')"), "error 1:5: load statement must import at least 1 symbol");
  EXPECT_EQ(parseToDump("load('a', x)"),
            "error 1:13: load operand must be \"x\" or x=\"originalname\" (want '=' after x)");
  EXPECT_EQ(parseToDump("load('a', x2=x)"),
            "error 1:15: original name of loaded symbol must be quoted: x2=\"originalname\"");
  EXPECT_EQ(parseToDump("load(1, 2)"),
            "error 1:7: first operand of load statement must be a string literal");
  EXPECT_EQ(parseToDump("load('', 1)"),
            "error 1:11: load operand must be \"name\" or localname=\"name\" (got int literal)");
  EXPECT_EQ(parseToDump("if x:\npass"), "error 2:5: got pass, want indent");
  EXPECT_EQ(parseToDump("def f(a, *-b): pass"), "error 1:12: got '-', want ','");
}

// ----------------------------------------------------- the Go test data

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Chunk {
  std::string text; // padded with newlines so lines match the whole file
  int firstLine;
};

// Go's chunkedfile: split on "\n---\n", pad each chunk to its line.
std::vector<Chunk> chunks(const std::string &data) {
  std::vector<Chunk> out;
  size_t start = 0;
  int line = 1;
  while (true) {
    size_t sep = data.find("\n---\n", start);
    std::string body =
        data.substr(start, sep == std::string::npos ? std::string::npos : sep - start);
    out.push_back({std::string(line - 1, '\n') + body, line});
    if (sep == std::string::npos)
      break;
    line += static_cast<int>(std::count(body.begin(), body.end(), '\n')) + 2;
    start = sep + 5;
  }
  return out;
}

// The regexp of a `### "re"` or ### `re` expectation on a line, if any.
std::optional<std::string> expectation(const std::string &line) {
  size_t at = line.find("###");
  if (at == std::string::npos)
    return std::nullopt;
  std::string rest = line.substr(at + 3);
  rest.erase(0, rest.find_first_not_of(" \t"));
  rest.erase(rest.find_last_not_of(" \t\r") + 1);
  if (rest.size() >= 2 && rest.front() == '`' && rest.back() == '`')
    return rest.substr(1, rest.size() - 2);
  if (rest.size() >= 2 && rest.front() == '"' && rest.back() == '"') {
    std::string re;
    for (size_t i = 1; i + 1 < rest.size(); ++i) {
      if (rest[i] == '\\' && i + 2 < rest.size())
        ++i;
      re += rest[i];
    }
    return re;
  }
  return std::nullopt;
}

TEST(ParserGoData, EveryExecTestChunkParses) {
  fs::path dir = fs::path(kGoStarlark) / "starlark/testdata";
  if (!fs::exists(dir))
    GTEST_SKIP() << "golang-starlark-dev not installed";
  int parsed = 0;
  for (const auto &e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".star")
      continue;
    for (const Chunk &c : chunks(readFile(e.path()))) {
      frontend::SourceManager sm;
      AstContext ctx;
      frontend::DiagnosticList diags;
      File *f = parseFile(ctx, *sm.add(e.path().filename().string(), c.text), diags);
      EXPECT_NE(f, nullptr) << e.path().filename() << " chunk at line " << c.firstLine << ": "
                            << (diags.all().empty() ? "" : diags.all()[0].message) << " at "
                            << (diags.all().empty() ? 0 : diags.all()[0].pos.line);
      ++parsed;
    }
  }
  EXPECT_GE(parsed, 80);
}

TEST(ParserGoData, ScanStarParses) {
  fs::path path = fs::path(kGoStarlark) / "syntax/testdata/scan.star";
  if (!fs::exists(path))
    GTEST_SKIP() << "golang-starlark-dev not installed";
  frontend::SourceManager sm;
  AstContext ctx;
  frontend::DiagnosticList diags;
  File *f = parseFile(ctx, *sm.add("scan.star", readFile(path)), diags);
  ASSERT_NE(f, nullptr) << diags.all()[0].message << " at " << diags.all()[0].pos.line;
  EXPECT_GT(f->stmts.size(), 50u);
}

TEST(ParserGoData, ErrorsStarExpectations) {
  fs::path path = fs::path(kGoStarlark) / "syntax/testdata/errors.star";
  if (!fs::exists(path))
    GTEST_SKIP() << "golang-starlark-dev not installed";
  int checked = 0;
  for (const Chunk &c : chunks(readFile(path))) {
    std::istringstream lines(c.text);
    std::string line;
    int lineNo = 0;
    std::optional<std::pair<int, std::string>> want;
    while (std::getline(lines, line)) {
      ++lineNo;
      if (auto re = expectation(line))
        want = {lineNo, *re};
    }
    frontend::SourceManager sm;
    AstContext ctx;
    frontend::DiagnosticList diags;
    File *f = parseFile(ctx, *sm.add("errors.star", c.text), diags);
    if (!want) {
      EXPECT_NE(f, nullptr) << "chunk at line " << c.firstLine << ": " << diags.all()[0].message;
      continue;
    }
    ASSERT_EQ(f, nullptr) << "chunk at line " << c.firstLine << " parsed, want " << want->second;
    const frontend::Diagnostic &d = diags.all()[0];
    EXPECT_TRUE(RE2::PartialMatch(d.message, want->second))
        << "line " << want->first << ": got " << d.message << ", want " << want->second;
    // Go reports the error on the expectation's line or, after a newline
    // token, at the start of the next one.
    EXPECT_TRUE(int(d.pos.line) == want->first || int(d.pos.line) == want->first + 1)
        << "line " << want->first << ": error at line " << d.pos.line << ": " << d.message;
    ++checked;
  }
  EXPECT_GE(checked, 35);
}

} // namespace
} // namespace fbc::syntax
