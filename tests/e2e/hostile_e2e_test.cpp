// Hostile input end to end (issue #31): what a spec or a bundle names
// cannot run a command when a printed line is pasted, cannot drive the
// terminal, and cannot hang or crash fbc.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace fbc::rt::e2e {
namespace {

// Runs `command` with /bin/sh in `dir`, with `fbc` a function that prints
// each of its arguments in brackets; returns what it printed.
std::string pasteIntoShell(const std::string &dir, const std::string &command) {
  std::string script = "cd '" + dir + "' && fbc() { printf '[%s]' \"$@\"; }; " + command;
  setenv("FBC_E2E_SCRIPT", script.c_str(), 1);
  FILE *p = popen("/bin/sh -c \"$FBC_E2E_SCRIPT\"", "r");
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
    out.append(buf, n);
  pclose(p);
  return out;
}

const std::string kName = "test_x$(touch pwned)'q\x1b[31m";

TEST(FbcHostile, PrintedReplayCommandsAreShellWords) {
  Spec spec("hostile_names");
  std::string junit = spec.dir.file("junit.xml");
  FbcRun text = runFbc({"run", spec.path, "--seed", "1", "--bundle", "b.fb", "--junit", junit},
                       spec.dir.path());
  EXPECT_EQ(text.exit, 2) << text.out << text.err;
  // The text report: one quoted word, and no raw control character.
  EXPECT_TRUE(contains(text.out, "\n  replay: fbc run spec.star --test "
                                 "'test_x$(touch pwned)'\\''q\\x1b[31m' --seed 1\n"))
      << text.out;
  EXPECT_TRUE(contains(text.out, "--- FAIL: test_x$(touch pwned)'q\\x1b[31m (")) << text.out;
  EXPECT_TRUE(contains(text.out, "reason with \\x1b[2J an ESC")) << text.out;
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos);
  // fbc inspect's summary shows the bundle's names as text too.
  FbcRun inspect = runFbc({"inspect", "b.fb"}, spec.dir.path());
  EXPECT_EQ(inspect.exit, 0) << inspect.err;
  EXPECT_TRUE(contains(inspect.out, "test_x$(touch pwned)'q\\x1b[31m")) << inspect.out;
  EXPECT_EQ(inspect.out.find('\x1b'), std::string::npos);
  // JUnit carries the same quoted line (XML-escaped, the ESC as U+FFFD).
  std::string xml = readFile(junit);
  EXPECT_TRUE(contains(xml, "replay: fbc run spec.star --test &apos;test_x$(touch "
                            "pwned)&apos;\\&apos;&apos;q\xEF\xBF\xBD[31m&apos; --seed 1"))
      << xml;

  // The JSON report's replay_command, pasted: fbc gets the test's exact
  // name as one argument, and no command ran.
  FbcRun json =
      runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--format", "json"}, spec.dir.path());
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_FALSE(parser.parse(json.out).get(root)) << json.out;
  std::string_view replay;
  ASSERT_FALSE(root["tests"].at(0)["replay_command"].get(replay)) << json.out;
  EXPECT_EQ(pasteIntoShell(spec.dir.path(), std::string(replay)),
            "[run][spec.star][--test][" + kName + "][--seed][1]");
  struct stat st {};
  EXPECT_NE(stat(spec.dir.file("pwned").c_str(), &st), 0) << "a pasted replay line ran a command";
}

TEST(FbcHostile, EmptySeedIsAnError) {
  Spec spec("hostile_names");
  FbcRun r = runFbc({"run", spec.path, "--seed", "", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.err, "fbc run: error: bad --seed \"\": want a non-negative integer\n");
  EXPECT_EQ(r.out, "");
}

// load_file() of a FIFO nobody writes to waited forever in its open().
TEST(FbcHostile, LoadFileOfAFifoIsRefusedNotAHang) {
  TempDir dir;
  ASSERT_EQ(mkfifo(dir.file("pipe").c_str(), 0644), 0);
  FILE *f = fopen(dir.file("spec.star").c_str(), "w");
  fputs("x = load_file(\"pipe\")\n", f);
  fclose(f);
  FbcRun r = runFbc({"plan", "spec.star"}, dir.path(), {}, 20000);
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.err, "spec.star:1:15: error: load_file(\"pipe\"): not a regular file (a FIFO): a "
                   "data file is read once, whole, and kept in the bundle\n"
                   "x = load_file(\"pipe\")\n"
                   "              ^\n");
}

} // namespace
} // namespace fbc::rt::e2e
