// A lint over the tests themselves (CTest `lint.tests`, label `lint`): the
// three ways issue #18 found tests passing whatever the code did.
//
//   goldens      no golden records the harness's own failure instead of
//                fbc's output: the exec/chdir failure codes of the golden
//                runner (=== exit 126/127), its messages, fbc's "unknown
//                command" for a RUN line that is not a command; and no e2e
//                golden is empty.
//   normalisers  each text rule in tests/e2e/fbc_run.cpp replaces digits
//                (\d+ -> N) or collapses spaces in an otherwise literal
//                context, and its replacement is that context: a class like
//                [^\]]* or [a-z]+ would match more than the rule names. Each
//                JSON mask ends in a named key (not "*" or "[]").
//   bodies       every TEST/TEST_F/TEST_P body asserts: an EXPECT_/ASSERT_/
//                ADD_FAILURE/FAIL/GTEST_SKIP in it, or a call to a function
//                of the same source (or of a test header it includes, or
//                of the shared e2e helpers) that asserts, up to three
//                calls deep.
//
//   test_lint <repo>   prints each finding; exits 1 if there is one.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> findings;

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool contains(const std::string &s, const std::string &what) {
  return s.find(what) != std::string::npos;
}

// ---- goldens

void checkGoldens(const fs::path &root) {
  const char *harness[] = {"=== exit 126\n",    "=== exit 127\n",    "missing golden",
                           "FBC_UPDATE_GOLDEN", "did not finish in", "the report is not JSON"};
  for (const char *dir : {"tests/golden", "tests/e2e/golden", "tests/e2e/run_cases"}) {
    for (const auto &e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file())
        continue;
      std::string ext = e.path().extension().string();
      bool golden = ext == ".golden" || (std::string(dir) == "tests/e2e/golden");
      if (!golden)
        continue;
      std::string text = readFile(e.path());
      std::string name = fs::relative(e.path(), root).string();
      if (text.empty())
        findings.push_back(name + ": empty golden");
      for (const char *h : harness)
        if (contains(text, h))
          findings.push_back(name + ": records the harness's own failure (\"" + h + "\")");
      // fbc's "unknown command 'X'" is a harness mistake unless X is a word
      // (cli/unknown_subcommand tests it on purpose).
      static const std::regex unknown("unknown command '([^']*)'");
      std::smatch m;
      if (std::regex_search(text, m, unknown) &&
          !std::regex_match(m[1].str(), std::regex("[a-z]+")))
        findings.push_back(name + ": records fbc rejecting the RUN line ('" + m[1].str() + "')");
    }
  }
}

// ---- normalisers

// The literal text a regex matches, with \d+ as N and " +" as one space
// (none before $); "" with `bad` set when it has any other variable part.
std::string literalOf(const std::string &re, bool &bad) {
  std::string out;
  for (size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    if (re.compare(i, 4, "(?m)") == 0) {
      i += 3;
    } else if (re.compare(i, 3, "\\d+") == 0) {
      out += 'N';
      i += 2;
    } else if (re.compare(i, 2, " +") == 0) {
      bool atEnd = re.compare(i + 2, 1, "$") == 0;
      if (!atEnd)
        out += ' ';
      i += 1;
    } else if (c == '$' && i + 1 == re.size()) {
    } else if (c == '\\' && i + 1 < re.size() &&
               std::ispunct(static_cast<unsigned char>(re[i + 1]))) {
      out += re[++i];
    } else if (std::string("[]()*+?{}|^$.\\").find(c) != std::string::npos) {
      bad = true;
    } else {
      out += c;
    }
  }
  return out;
}

void checkNormalisers(const fs::path &root) {
  fs::path file = root / "tests/e2e/fbc_run.cpp";
  std::string text = readFile(file);
  static const std::regex rule(
      R"RE(RE2::GlobalReplace\(&\w+, R"\((.*)\)", (?:"(.*)"|R"\((.*)\)")\);)RE");
  size_t rules = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), rule), end; it != end; ++it) {
    ++rules;
    std::string re = (*it)[1], replacement = (*it)[2].matched ? (*it)[2] : (*it)[3];
    bool bad = false;
    std::string literal = literalOf(re, bad);
    if (bad)
      findings.push_back("fbc_run.cpp: text rule /" + re +
                         "/ has a variable part other than \\d+ or spaces");
    else if (literal != replacement)
      findings.push_back("fbc_run.cpp: text rule /" + re + "/ names \"" + literal +
                         "\" but writes \"" + replacement + "\"");
  }
  static const std::regex mask(R"RE(\{"([^"]+)", "[^"]+"\},)RE");
  size_t masks = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), mask), end; it != end; ++it) {
    ++masks;
    std::string path = (*it)[1];
    std::string last = path.substr(path.rfind('/') + 1);
    if (last == "*" || last == "[]")
      findings.push_back("fbc_run.cpp: JSON mask \"" + path + "\" does not end in a named key");
  }
  if (rules == 0 || masks == 0)
    findings.push_back("fbc_run.cpp: found no normaliser rules to check (the lint is stale)");
}

// ---- test bodies

// The text between the brace at `open` and its match; braces in string,
// raw string and character literals and in comments do not count.
std::string braced(const std::string &text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == 'R' && text.compare(i + 1, 1, "\"") == 0 && (i == 0 || !std::isalnum(text[i - 1]))) {
      size_t paren = text.find('(', i);
      std::string close(1, ')'); // appended: GCC 12 warns on ")" + string
      close += text.substr(i + 2, paren - i - 2);
      close += '"';
      i = text.find(close, paren);
      if (i == std::string::npos)
        break;
      i += close.size() - 1;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string::npos)
        break;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return text.substr(open, i - open + 1);
    }
  }
  return text.substr(open);
}

bool assertsDirectly(const std::string &body) {
  static const std::regex a(R"(\b(EXPECT_\w+|ASSERT_\w+|ADD_FAILURE|FAIL|GTEST_SKIP)\s*\()");
  return std::regex_search(body, a);
}

using Functions = std::map<std::string, std::string>; // name -> body

// Function definitions at namespace or class level: `name(...) ... {`.
void collectFunctions(const std::string &text, Functions &out) {
  static const std::regex def(R"(\n[\w:<>,&\* ]*?\b(\w+)\s*\([^;{}]*\)\s*(const\s*)?\{)");
  for (std::sregex_iterator it(text.begin(), text.end(), def), end; it != end; ++it) {
    std::string name = (*it)[1];
    if (name == "if" || name == "for" || name == "while" || name == "switch" || name == "TEST" ||
        name == "TEST_F" || name == "TEST_P")
      continue;
    size_t open = static_cast<size_t>(it->position() + it->length() - 1);
    out[name] += braced(text, open);
  }
}

bool asserts(const std::string &body, const Functions &fns, int depth) {
  if (assertsDirectly(body))
    return true;
  if (depth == 0)
    return false;
  // A call, template arguments and all (helper<Codec>(...)).
  static const std::regex call(R"(\b(\w+)\s*(?:<[\w:, ]*>\s*)?\()");
  for (std::sregex_iterator it(body.begin(), body.end(), call), end; it != end; ++it) {
    auto f = fns.find((*it)[1]);
    if (f != fns.end() && f->second != body && asserts(f->second, fns, depth - 1))
      return true;
  }
  return false;
}

void checkBodies(const fs::path &root) {
  Functions shared;
  for (const char *helper : {"tests/e2e/fbc_run.cpp", "tests/e2e/e2e_util.cpp"})
    if (fs::exists(root / helper))
      collectFunctions(readFile(root / helper), shared);
  static const std::regex test(R"(\n(TEST|TEST_F|TEST_P)\((\w+),\s*(\w+)\)\s*\{)");
  size_t tests = 0;
  for (const auto &e : fs::recursive_directory_iterator(root / "tests")) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp")
      continue;
    std::string text = readFile(e.path());
    Functions fns = shared;
    collectFunctions(text, fns);
    // The test headers it includes (tests/unit/runtime/codec_split.h):
    // helpers shared by the tests of one room.
    static const std::regex include(R"re(#include "(tests/[\w/.]+\.h)")re");
    for (std::sregex_iterator h(text.begin(), text.end(), include), end; h != end; ++h)
      if (fs::exists(root / (*h)[1].str()))
        collectFunctions(readFile(root / (*h)[1].str()), fns);
    for (std::sregex_iterator it(text.begin(), text.end(), test), end; it != end; ++it) {
      ++tests;
      size_t open = static_cast<size_t>(it->position() + it->length() - 1);
      if (!asserts(braced(text, open), fns, 3))
        findings.push_back(fs::relative(e.path(), root).string() + ": " + (*it)[2].str() + "." +
                           (*it)[3].str() + " asserts nothing");
    }
  }
  if (tests < 100)
    findings.push_back("found only " + std::to_string(tests) + " tests (the lint is stale)");
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: test_lint <repository root>\n");
    return 2;
  }
  fs::path root(argv[1]);
  checkGoldens(root);
  checkNormalisers(root);
  checkBodies(root);
  for (const std::string &f : findings)
    std::printf("lint: %s\n", f.c_str());
  if (!findings.empty())
    return 1;
  std::printf("lint: goldens, normalisers and test bodies clean\n");
  return 0;
}
