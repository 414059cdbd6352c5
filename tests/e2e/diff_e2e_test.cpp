// `fbc diff` end to end (issue #33, docs/bundle.md "Comparing runs"): two
// runs of run_specs/diff_base.star and one of diff_fault.star (the same spec
// with a fault added to test_store), against the kv fixture.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt::e2e {
namespace {

// Runs `file` (in the spec's folder) with --seed 1 into `bundle` there.
void runInto(const Spec &spec, const std::string &file, const std::string &bundle, int exit) {
  FbcRun r = runFbc({"run", file, "--seed", "1", "--bundle", bundle}, spec.dir.path());
  ASSERT_EQ(r.exit, exit) << r.out << r.err;
}

// Two runs of diff_base.star (a1.fb, a2.fb) and diff_fault.star beside it
// as faulted.star, with the same kv binary and port: only the fault differs.
struct Runs {
  Spec base{"diff_base"};
  Runs() {
    runInto(base, base.path, "a1.fb", 0);
    runInto(base, base.path, "a2.fb", 0);
    std::ifstream in(std::string(FBC_RUN_SPECS) + "/diff_fault.star");
    std::string text(std::istreambuf_iterator<char>(in), {});
    for (auto [from, to] : {std::pair<std::string, std::string>{"@KV_BIN@", FBC_FIXTURE_KV},
                            {"@KV_PORT@", std::to_string(base.kvPort)}})
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
        text.replace(at, from.size(), to);
    std::ofstream(base.dir.path() + "/faulted.star") << text;
  }
};

std::string diffOut(const Spec &s, std::vector<std::string> args, int exit) {
  args.insert(args.begin(), "diff");
  FbcRun r = runFbc(args, s.dir.path());
  EXPECT_EQ(r.exit, exit) << r.out << r.err;
  return substituteRunValues(r.out, s);
}

TEST(FbcDiff, SameSpecTwiceIsEqualOnlyNormalised) {
  Runs runs;
  const Spec &s = runs.base;
  // Without --normalize the pids of the services differ.
  std::string raw = diffOut(s, {"a1.fb", "a2.fb"}, 1);
  EXPECT_NE(raw.find("2 rows differ"), std::string::npos) << raw;
  EXPECT_NE(raw.find(" pid="), std::string::npos) << raw;
  checkGolden("diff_same", diffOut(s, {"a1.fb", "a2.fb", "--normalize"}, 0));
}

TEST(FbcDiff, AFaultAddedChangesOneRowAtItsFirstEvent) {
  Runs runs;
  const Spec &s = runs.base;
  runInto(s, "faulted.star", "b.fb", 2); // 2: a test failed
  checkGolden("diff_fault", diffOut(s, {"a1.fb", "b.fb", "--normalize"}, 1));
  checkGolden("diff_fault", diffOut(s, {"a1.fb", "b.fb", "--normalize", "--format=json"}, 1),
              ".json");
}

TEST(FbcDiff, BadInputIsExit2) {
  Spec s("diff_base");
  FbcRun r = runFbc({"diff", "nope.fb", "nope.fb"}, s.dir.path());
  EXPECT_EQ(r.exit, 2);
  EXPECT_NE(r.err.find("fbc diff: error: "), std::string::npos) << r.err;
  r = runFbc({"diff", "a.fb", "b.fb", "--format=xml"}, s.dir.path());
  EXPECT_EQ(r.exit, 2);
  EXPECT_EQ(r.err, "fbc diff: error: unknown --format=xml (valid: text, json)\n");
}

} // namespace
} // namespace fbc::rt::e2e
