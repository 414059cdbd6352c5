// Golden file tests ("file tests"): each input under FBC_GOLDEN_DIR/<suite>/
// names the fbc command to run on a `# RUN:` line, e.g.
//
//   # RUN: exec %s
//
// `%s` is the input's file name; the command runs in the input's folder, so
// paths in diagnostics stay short and stable. The expected exit code, stdout
// and stderr live next to the input in <name>.golden:
//
//   === exit 1
//   === stdout
//   ...
//   === stderr
//   ...
//
// Inputs are the files under a suite folder whose first line is `# RUN:`
// (a Starlark comment); files at the top level (this source, its CMake
// script) and files that only mention the marker elsewhere are not inputs.
// The case list is read from disk each time the binary runs, so a new input
// is a new case without a rebuild (CTest runs one test per suite folder,
// golden.<suite>, each selecting its cases by a gtest filter). A missing .golden is a failure that
// names the file.
//
// Run with FBC_UPDATE_GOLDEN=1 (exactly "1") to rewrite the .golden files
// from the output; any other value compares.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct GoldenCase {
  fs::path input;
  std::string name; // suite/file, for the test name
};

// Test listings show the input's name, not the bytes of the struct.
void PrintTo(const GoldenCase &c, std::ostream *os) {
  *os << c.name;
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr std::string_view kRunMarker = "# RUN:";

// The command of an input: the words after `# RUN:` on its first line.
std::optional<std::vector<std::string>> runArgs(const fs::path &input) {
  std::ifstream in(input);
  std::string line;
  if (!std::getline(in, line) || !line.starts_with(kRunMarker))
    return std::nullopt;
  std::istringstream words(line.substr(kRunMarker.size()));
  std::vector<std::string> args;
  std::string w;
  while (words >> w) {
    if (w == "%s")
      w = input.filename().string();
    args.push_back(w);
  }
  return args;
}

bool updating() {
  const char *v = std::getenv("FBC_UPDATE_GOLDEN");
  return v && std::string_view(v) == "1";
}

std::vector<GoldenCase> discover() {
  std::vector<GoldenCase> cases;
  fs::path root(FBC_GOLDEN_DIR);
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() == ".golden")
      continue;
    if (e.path().parent_path() == root || !runArgs(e.path()))
      continue; // not in a suite folder, or not an input
    cases.push_back({e.path(), fs::relative(e.path(), root).replace_extension().string()});
  }
  std::sort(cases.begin(), cases.end(),
            [](const GoldenCase &a, const GoldenCase &b) { return a.name < b.name; });
  return cases;
}

struct Outcome {
  int exit = -1;
  std::string out, err;
  std::string render() const {
    std::string s = "=== exit " + std::to_string(exit) + "\n=== stdout\n" + out;
    if (!out.empty() && out.back() != '\n')
      s += "\n";
    s += "=== stderr\n" + err;
    if (!err.empty() && err.back() != '\n')
      s += "\n";
    return s;
  }
};

Outcome run(const fs::path &input, const std::vector<std::string> &args) {
  char outTmpl[] = "/tmp/fbc-golden-out-XXXXXX";
  char errTmpl[] = "/tmp/fbc-golden-err-XXXXXX";
  int outFd = mkstemp(outTmpl), errFd = mkstemp(errTmpl);
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(input.parent_path().c_str()) != 0)
      _exit(127);
    dup2(outFd, 1);
    dup2(errFd, 2);
    std::vector<char *> argv;
    std::string bin = FBC_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto &a : copy)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  Outcome o;
  o.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  o.out = readFile(outTmpl);
  o.err = readFile(errTmpl);
  close(outFd);
  close(errFd);
  unlink(outTmpl);
  unlink(errTmpl);
  return o;
}

class Golden : public testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, Matches) {
  const GoldenCase &c = GetParam();
  Outcome got = run(c.input, *runArgs(c.input));
  fs::path goldenPath = fs::path(c.input).replace_extension(".golden");
  if (updating()) {
    std::ofstream(goldenPath, std::ios::binary) << got.render();
    return;
  }
  ASSERT_TRUE(fs::exists(goldenPath))
      << "missing golden " << goldenPath.string() << " for " << c.input.string()
      << " (run with FBC_UPDATE_GOLDEN=1 to create it)";
  EXPECT_EQ(got.render(), readFile(goldenPath)) << "for " << c.input;
}

// "<suite>__<file>": the double underscore lets a filter select one suite
// (`Files/Golden.Matches/ir__*` does not match ir_errors/).
std::string caseName(const testing::TestParamInfo<GoldenCase> &info) {
  std::string n = info.param.name;
  size_t slash = n.find('/');
  for (char &ch : n)
    if (!isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return slash == std::string::npos ? n : n.substr(0, slash) + "__" + n.substr(slash + 1);
}

INSTANTIATE_TEST_SUITE_P(Files, Golden, testing::ValuesIn(discover()), caseName);

// Discovery finds the inputs and nothing else: every .golden belongs to a
// discovered input (a golden whose input is not one checks nothing), and
// there is at least one case per suite folder.
TEST(GoldenDiscovery, EveryGoldenHasADiscoveredInput) {
  std::vector<GoldenCase> cases = discover();
  fs::path root(FBC_GOLDEN_DIR);
  auto discovered = [&](const fs::path &stem) {
    return std::any_of(cases.begin(), cases.end(), [&](const GoldenCase &c) {
      return fs::path(c.input).replace_extension() == stem;
    });
  };
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".golden") {
      EXPECT_TRUE(discovered(fs::path(e.path()).replace_extension()))
          << e.path().string() << " has no input with a first-line `# RUN:`";
    }
  }
  for (const auto &e : fs::directory_iterator(root)) {
    if (!e.is_directory())
      continue;
    std::string prefix = e.path().string() + "/";
    EXPECT_TRUE(
        std::any_of(cases.begin(), cases.end(),
                    [&](const GoldenCase &c) { return c.input.string().starts_with(prefix); }))
        << "no input discovered under " << prefix;
  }
}

} // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
