// File tests of `fbc run` (tests/e2e/run_cases/): a run behaviour is a spec
// and its expected reports side by side, no C++ per case.
//
// <name>.star starts with one or more `# RUN:` lines, the fbc command lines
// to run on it (`%s` is the spec), e.g.
//
//   # RUN: run %s --seed 1
//   # RUN: run %s --seed 1 --format=json
//
// and uses the fixtures' placeholders of run_specs/ (@KV_BIN@, @KV_PORT@,
// ...: fbc_run.h's Spec). <name>.golden holds, per RUN line, the exit code,
// stdout and stderr after fbc_run.h's normalisation (the text report's
// durations, the JSON report's masked paths, the scratch folder, ports and
// fixture paths; on stderr the bundle's timestamped name):
//
//   === RUN: run %s --seed 1
//   === exit 2
//   === stdout
//   ...
//   === stderr
//   ...
//
// Each `run` line is run a second time with `-j 4 --no-bundle`: four leaves
// at once must print the same exit code and stdout as one at a time (a case
// whose rows depend on timing across leaves says `# NO-JOBS`). No service
// process may outlive fbc.
//
// The cases are read from disk when the binary lists or runs its tests
// (CTest discovers them before each run), so a new .star and its .golden
// are a new test without a rebuild; FBC_UPDATE_GOLDEN=1 writes the .golden
// files (read them before committing).
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kRun = "# RUN: ";

struct RunCase {
  std::string name;              // <name>.star
  std::vector<std::string> runs; // the RUN lines' command lines
  bool jobs = true;              // also run with -j 4
};

void PrintTo(const RunCase &c, std::ostream *os) {
  *os << c.name;
}

std::vector<RunCase> discoverCases() {
  std::vector<RunCase> out;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(FBC_RUN_CASES, ec)) {
    if (e.path().extension() != ".star")
      continue;
    RunCase c;
    c.name = e.path().stem().string();
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line) && line.starts_with("#");) {
      if (line.starts_with(kRun))
        c.runs.push_back(line.substr(kRun.size()));
      else if (line == "# NO-JOBS")
        c.jobs = false;
    }
    if (!c.runs.empty())
      out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(),
            [](const RunCase &a, const RunCase &b) { return a.name < b.name; });
  return out;
}

// A RUN line's words, `%s` the spec.
std::vector<std::string> commandLine(const std::string &run, const Spec &spec) {
  std::vector<std::string> args;
  std::istringstream words(run);
  for (std::string w; words >> w;)
    args.push_back(w == "%s" ? spec.path : w);
  return args;
}

std::string normalizeStderr(std::string s, const Spec &spec) {
  s = substituteRunValues(std::move(s), spec);
  RE2::GlobalReplace(&s, R"(run-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-)", "run-$TIME-");
  return s;
}

class RunCases : public testing::TestWithParam<RunCase> {};

TEST_P(RunCases, ReportsMatchTheGolden) {
  const RunCase &c = GetParam();
  Spec spec(c.name, std::string(FBC_RUN_CASES) + "/" + c.name + ".star");
  std::string actual;
  for (const std::string &run : c.runs) {
    std::vector<std::string> args = commandLine(run, spec);
    bool json = std::find(args.begin(), args.end(), "--format=json") != args.end();
    auto stdoutOf = [&](const FbcRun &r) {
      return json ? normalizeJson(r.out, spec) : normalize(r.out, spec);
    };
    FbcRun r = runFbc(args, spec.dir.path());
    std::string out = stdoutOf(r);
    actual += "=== RUN: " + run + "\n=== exit " + std::to_string(r.exit) + "\n=== stdout\n" + out +
              "=== stderr\n" + normalizeStderr(r.err, spec);
    EXPECT_TRUE(processesIn(spec.dir.path()).empty()) << run;
    if (!c.jobs || args.empty() || args[0] != "run")
      continue;
    // A line that names its bundle (for a later `inspect` or `plan --from`
    // line) writes it again under -j 4: the rows are the same.
    args.insert(args.end(), {"-j", "4"});
    if (std::find(args.begin(), args.end(), "--bundle") == args.end())
      args.push_back("--no-bundle");
    FbcRun four = runFbc(args, spec.dir.path());
    EXPECT_EQ(four.exit, r.exit) << run << " -j 4\n" << four.err;
    EXPECT_EQ(stdoutOf(four), out) << run << " -j 4";
    EXPECT_TRUE(processesIn(spec.dir.path()).empty()) << run << " -j 4";
  }
  checkGoldenFile(std::string(FBC_RUN_CASES) + "/" + c.name + ".golden", actual);
}

INSTANTIATE_TEST_SUITE_P(File, RunCases, testing::ValuesIn(discoverCases()),
                         [](const testing::TestParamInfo<RunCase> &i) { return i.param.name; });

} // namespace
} // namespace fbc::rt::e2e
