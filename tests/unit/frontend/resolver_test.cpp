// Resolver tests: scopes and slots (via the AST dump with bindings), the
// dialect switches, and Go's resolve/testdata/resolve.star expectations.
#include "frontend/resolve/resolver.h"
#include "frontend/source/diagnostic.h"
#include "frontend/syntax/ast_dump.h"
#include "frontend/syntax/parser.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fbc::resolve {
namespace {

namespace fs = std::filesystem;
using namespace syntax;

bool isPredeclaredM(llvm::StringRef n) {
  return n == "M";
}
bool isUniversalU(llvm::StringRef n) {
  return n == "U" || n == "float" || n == "len";
}

struct Resolved {
  frontend::SourceManager sm;
  AstContext ctx;
  frontend::DiagnosticList diags;
  File *file = nullptr;
  bool ok = false;

  Resolved(const std::string &text, Dialect dialect = {}, std::string name = "r.star") {
    file = parseFile(ctx, *sm.add(std::move(name), text), diags);
    if (!file)
      return;
    Environment env{isPredeclaredM, isUniversalU};
    ok = resolveFile(ctx, *file, dialect, env, diags);
  }

  std::string dump() const { return dumpFile(*file, {.showBindings = true}); }

  std::string errors() const {
    std::string s;
    for (const auto &d : diags.all())
      s += std::to_string(d.pos.line) + ":" + std::to_string(d.pos.col) + ": " + d.message + "\n";
    return s;
  }
};

TEST(ResolverScopes, GlobalsLocalsUniversals) {
  Resolved r("x = 1\ndef f(a, b=x):\n  c = a + len(b)\n  return c + M\ny = f(x)\n");
  ASSERT_TRUE(r.ok) << r.errors();
  EXPECT_EQ(r.dump(), "(= x@global0 1)\n"
                      "(def f@global1 (params a@local0 (= b@local1 x@global0)) "
                      "(= c@local2 (+ a@local0 (call len@universal b@local1))) "
                      "(return (+ c@local2 M@predeclared)))\n"
                      "(= y@global2 (call f@global1 x@global0))\n");
  EXPECT_EQ(r.file->globals.size(), 3u);
  EXPECT_TRUE(r.file->locals.empty());
  auto *def = llvm::cast<DefStmt>(r.file->stmts[1]);
  EXPECT_EQ(def->fn->locals.size(), 3u);
  EXPECT_EQ(def->fn->numParams, 2u);
}

TEST(ResolverScopes, CellsAndFreeVariables) {
  Resolved r("def outer(a):\n"
             "  b = 1\n"
             "  def mid():\n"
             "    def inner():\n"
             "      return a + b\n"
             "    return inner\n"
             "  return mid, lambda: b\n");
  ASSERT_TRUE(r.ok) << r.errors();
  EXPECT_EQ(r.dump(), "(def outer@global0 (params a@cell0) (= b@cell1 1) "
                      "(def mid@local2 (params) "
                      "(def inner@local0 (params) (return (+ a@free0 b@free1))) "
                      "(return inner@local0)) "
                      "(return (tuple mid@local2 (lambda (params) b@free0))))\n");
  auto *outer = llvm::cast<DefStmt>(r.file->stmts[0])->fn;
  auto *mid = llvm::cast<DefStmt>(outer->body[1])->fn;
  auto *inner = llvm::cast<DefStmt>(mid->body[0])->fn;
  ASSERT_EQ(mid->freevars.size(), 2u);
  EXPECT_EQ(mid->freevars[0], outer->locals[0]); // a: outer's cell
  ASSERT_EQ(inner->freevars.size(), 2u);
  EXPECT_EQ(inner->freevars[0]->scope, Scope::Free); // mid's free var
  EXPECT_EQ(inner->freevars[0]->index, 0u);
}

TEST(ResolverScopes, ComprehensionsAndLoads) {
  Resolved r("load('m', 'a', b='c')\n"
             "x = [y for y in a for z in y if z]\n"
             "def f(n):\n"
             "  return {k: n for k in [n]}\n");
  ASSERT_TRUE(r.ok) << r.errors();
  EXPECT_EQ(r.dump(), "(load \"m\" (a@local0 \"a\") (b@local1 \"c\"))\n"
                      "(= x@global0 (listcomp y@local2 (for y@local2 a@local0) "
                      "(for z@local3 y@local2) (if z@local3)))\n"
                      "(def f@global1 (params n@local0) "
                      "(return (dictcomp (k@local1 n@local0) (for k@local1 (list n@local0)))))\n");
  EXPECT_EQ(r.file->locals.size(), 4u);
}

TEST(ResolverScopes, FirstOperandOfComprehensionIsOuter) {
  Resolved r("def f(x):\n  return [x for x in x]\n");
  ASSERT_TRUE(r.ok) << r.errors();
  EXPECT_EQ(
      r.dump(),
      "(def f@global0 (params x@local0) (return (listcomp x@local1 (for x@local1 x@local0))))\n");
}

TEST(ResolverScopes, SharedBindings) {
  Resolved r("x = 1\ndef f():\n  return x + x\n");
  ASSERT_TRUE(r.ok);
  auto *ret = llvm::cast<ReturnStmt>(llvm::cast<DefStmt>(r.file->stmts[1])->fn->body[0]);
  auto *sum = llvm::cast<BinaryExpr>(ret->result);
  auto *assign = llvm::cast<AssignStmt>(r.file->stmts[0]);
  EXPECT_EQ(llvm::cast<Ident>(sum->x)->binding, llvm::cast<Ident>(sum->y)->binding);
  EXPECT_EQ(llvm::cast<Ident>(sum->x)->binding, llvm::cast<Ident>(assign->lhs)->binding);
}

TEST(ResolverScopes, ParameterCounts) {
  Resolved r("def f(a, b=1, *args, c, d=2, **kw): pass\n"
             "def g(a, *, b): pass\n");
  ASSERT_TRUE(r.ok) << r.errors();
  auto *f = llvm::cast<DefStmt>(r.file->stmts[0])->fn;
  EXPECT_TRUE(f->hasVarargs);
  EXPECT_TRUE(f->hasKwargs);
  EXPECT_EQ(f->numParams, 6u);
  EXPECT_EQ(f->numKwonlyParams, 2u);
  // Regular parameters first, then *args, then **kwargs.
  EXPECT_EQ(f->locals[3]->first->name, "d");
  EXPECT_EQ(f->locals[4]->first->name, "args");
  EXPECT_EQ(f->locals[5]->first->name, "kw");
  auto *g = llvm::cast<DefStmt>(r.file->stmts[1])->fn;
  EXPECT_FALSE(g->hasVarargs);
  EXPECT_EQ(g->numParams, 2u);
  EXPECT_EQ(g->numKwonlyParams, 1u);
}

TEST(ResolverDialect, Switches) {
  EXPECT_EQ(Resolved("def f():\n  while 1:\n    pass\n").errors(),
            "2:3: this Starlark dialect does not support while loops\n");
  EXPECT_EQ(Resolved("def f():\n  while 1:\n    pass\n", {.allowWhile = true}).errors(), "");
  EXPECT_EQ(Resolved("for x in []:\n  pass\n").errors(), "1:1: for loop not within a function\n");
  EXPECT_EQ(Resolved("for x in []:\n  pass\n", {.allowTopLevelControl = true}).errors(), "");
  EXPECT_EQ(Resolved("x = 1\nx = 2\n").errors(),
            "2:1: cannot reassign global x declared at r.star:1:1\n");
  EXPECT_EQ(Resolved("x = 1\nx = 2\nif x:\n  pass\n", {.allowGlobalReassign = true}).errors(), "");
  EXPECT_EQ(Resolved("while 1:\n  pass\n", {.allowWhile = true}).errors(),
            "1:1: while loop not within a function\n");
}

TEST(ResolverErrors, CollectsAll) {
  EXPECT_EQ(Resolved("def f(a, a):\n  break\nreturn\nprint(y)\n").errors(),
            "1:10: duplicate parameter: a\n"
            "2:3: break not in a loop\n"
            "3:1: return statement not within a function\n"
            "4:1: undefined: print\n"
            "4:7: undefined: y\n");
  EXPECT_EQ(Resolved("hello = 1\nx = helo\n").errors(),
            "2:5: undefined: helo (did you mean hello?)\n");
  EXPECT_EQ(
      Resolved("for x in []:\n  def f():\n    break\n", {.allowTopLevelControl = true}).errors(),
      "3:5: break not in a loop\n");
}

// ------------------------------------------------- Go's resolve.star

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

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

TEST(ResolverGoData, ResolveStarExpectations) {
  fs::path path = "/usr/share/gocode/src/go.starlark.net/resolve/testdata/resolve.star";
  if (!fs::exists(path))
    GTEST_SKIP() << "golang-starlark-dev not installed";
  std::string data = readFile(path);
  size_t start = 0;
  int firstLine = 1, checked = 0;
  while (start <= data.size()) {
    size_t sep = data.find("\n---\n", start);
    std::string body = data.substr(start, sep == std::string::npos ? sep : sep - start);
    std::string text = std::string(firstLine - 1, '\n') + body;

    std::map<int, std::string> want;
    std::istringstream lines(text);
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n)
      if (auto re = expectation(line))
        want[n] = *re;

    Dialect dialect;
    dialect.allowGlobalReassign = text.find("option:globalreassign") != std::string::npos;
    dialect.allowWhile = dialect.allowRecursion =
        text.find("option:recursion") != std::string::npos;
    dialect.loadBindsGlobally = text.find("option:loadbindsglobally") != std::string::npos;
    Resolved r(text, dialect, path.string());
    ASSERT_NE(r.file, nullptr) << "chunk at " << firstLine << ": " << r.errors();
    for (const auto &d : r.diags.all()) {
      auto it = want.find(static_cast<int>(d.pos.line));
      if (it == want.end()) {
        ADD_FAILURE() << "unexpected error " << d.pos.line << ":" << d.pos.col << ": " << d.message;
        continue;
      }
      EXPECT_TRUE(RE2::PartialMatch(d.message, it->second))
          << "line " << d.pos.line << ": got " << d.message << ", want " << it->second;
      want.erase(it);
      ++checked;
    }
    for (const auto &[n, re] : want)
      ADD_FAILURE() << "line " << n << ": missing error " << re;

    if (sep == std::string::npos)
      break;
    firstLine += static_cast<int>(std::count(body.begin(), body.end(), '\n')) + 2;
    start = sep + 5;
  }
  EXPECT_GE(checked, 60);
}

} // namespace
} // namespace fbc::resolve
