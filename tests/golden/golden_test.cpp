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
// Run with FBC_UPDATE_GOLDEN=1 to rewrite the .golden files from the output.
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
#include <vector>

namespace fs = std::filesystem;

namespace {

struct GoldenCase {
  fs::path input;
  std::string name; // suite/file, for the test name
};

// Test listings show the input's name, not the bytes of the struct.
void PrintTo(const GoldenCase &c, std::ostream *os) { *os << c.name; }

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Inputs are any file with a `# RUN:` line in its first 20 lines.
std::optional<std::vector<std::string>> runArgs(const fs::path &input) {
  std::ifstream in(input);
  std::string line;
  for (int i = 0; i < 20 && std::getline(in, line); ++i) {
    auto at = line.find("# RUN:");
    if (at == std::string::npos)
      continue;
    std::istringstream words(line.substr(at + 6));
    std::vector<std::string> args;
    std::string w;
    while (words >> w) {
      if (w == "%s")
        w = input.filename().string();
      args.push_back(w);
    }
    return args;
  }
  return std::nullopt;
}

std::vector<GoldenCase> discover() {
  std::vector<GoldenCase> cases;
  fs::path root(FBC_GOLDEN_DIR);
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() == ".golden")
      continue;
    if (!runArgs(e.path()))
      continue;
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
  if (std::getenv("FBC_UPDATE_GOLDEN")) {
    std::ofstream(goldenPath, std::ios::binary) << got.render();
    return;
  }
  ASSERT_TRUE(fs::exists(goldenPath)) << "missing " << goldenPath
                                      << " (run with FBC_UPDATE_GOLDEN=1 to create it)";
  EXPECT_EQ(got.render(), readFile(goldenPath)) << "for " << c.input;
}

std::string caseName(const testing::TestParamInfo<GoldenCase> &info) {
  std::string n = info.param.name;
  for (char &ch : n)
    if (!isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, Golden, testing::ValuesIn(discover()), caseName);

} // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
