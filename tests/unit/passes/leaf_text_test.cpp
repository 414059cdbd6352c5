// The leaf program's text form round-trips (issue #26): for every golden
// spec and example, the program `fbc ir --stage=leaves` prints parses back
// to an equal program (ir::leafProgramDifference: every field the program
// carries), which prints the same text again. And text that disagrees with
// itself or with the spec is refused with the line it is on.
#include "backend/leaf_lower.h"
#include "frontend/eval/big_stack.h"
#include "ir/leaf_program.h"
#include "ir/load/load_spec.h"
#include "passes/pass_manager.h"
#include "tests/unit/passes/golden_specs.h"

#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace fbc {
namespace {

std::string print(const ir::LeafProgram &p) {
  std::string out, err;
  llvm::raw_string_ostream os(out);
  EXPECT_TRUE(ir::printLeafProgramText(p, {}, os, err)) << err;
  return out;
}

// Prints, parses back, compares and prints again.
void roundTrips(const ir::LeafProgram &leaves, ir::LoadedSpec &spec, const std::string &path) {
  std::string text = print(leaves);
  ir::LeafProgram back;
  std::string err;
  EXPECT_TRUE(ir::parseLeafProgramText(text, spec.spec(), spec.sources(), back, err))
      << path << ": " << err << "\n"
      << text;
  EXPECT_EQ(ir::leafProgramDifference(leaves, back), "") << path;
  EXPECT_EQ(print(back), text) << path;
}

TEST(LeafText, EveryGoldenSpecRoundTrips) {
  size_t specs = 0, axes = 0, ruleSites = 0, traps = 0, rules = 0, explored = 0;
  for (const std::string &path : testing::goldenSpecs()) {
    star::runWithLargeStack([&] {
      std::unique_ptr<ir::LoadedSpec> spec = ir::loadSpec(path);
      if (!spec->ok())
        return 0; // error goldens
      ++specs;
      ir::Plan plan = passes::buildPlan(spec->spec());
      ir::LeafProgram leaves = backend::lowerToLeaves(plan);
      roundTrips(leaves, *spec, path);
      // And as fbc run --explore lowers it (explore and holds lines).
      ir::ExploreOptions ex{ir::ExploreOptions::Policy::Sample, 7, 3000000, 500000000};
      ir::LeafProgram exploring = backend::lowerExploring(plan, ex);
      roundTrips(exploring, *spec, path);
      for (const ir::LeafTest &t : exploring.tests)
        explored += t.explored();
      for (const ir::LoweredAssumption &a : leaves.assumptions)
        rules += a.rules.size();
      for (const ir::LeafTest &t : leaves.tests) {
        axes += t.axes.size();
        for (const ir::LeafAxis &a : t.axes)
          ruleSites += a.plan.ruleSites.size();
        for (const std::vector<int> &s : t.traps)
          traps += s.size();
      }
      return 0;
    });
  }
  // The corpus exercises what the form carries (not an empty round trip).
  EXPECT_GT(specs, 80u);
  EXPECT_GT(axes, 40u);
  EXPECT_GT(ruleSites, 10u);
  EXPECT_GT(traps, 100u);
  EXPECT_GT(rules, 50u);
  EXPECT_GT(explored, 2u);
}

class LeafTextErrors : public ::testing::Test {
protected:
  void SetUp() override {
    // Loaded as "spec.star" from its own folder, as `fbc ir` names it.
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("fbc-leaf-text-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "spec.star") << R"(
db = service("db", "/bin/true", interface("main", "tcp", 5432))
def test_x():
    choose("n", [1, 2, 3])
)";
    std::filesystem::path cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir);
    spec_ = ir::loadSpec("spec.star");
    std::filesystem::current_path(cwd);
    std::filesystem::remove_all(dir);
    ASSERT_TRUE(spec_->ok());
    plan_ = passes::buildPlan(spec_->spec());
    text_ = print(backend::lowerToLeaves(plan_));
  }
  std::string parseError(const std::string &text) {
    ir::LeafProgram p;
    std::string err;
    EXPECT_FALSE(ir::parseLeafProgramText(text, spec_->spec(), spec_->sources(), p, err));
    return err;
  }
  std::string replaced(const std::string &from, const std::string &to) {
    std::string t = text_;
    size_t k = t.find(from);
    EXPECT_NE(k, std::string::npos) << from << " in\n" << t;
    return k == std::string::npos ? t : t.replace(k, from.size(), to);
  }
  std::unique_ptr<ir::LoadedSpec> spec_;
  ir::Plan plan_;
  std::string text_;
};

TEST_F(LeafTextErrors, TheTextItParses) {
  EXPECT_EQ(text_, "leaves \"spec.star\"\n"
                   "\n"
                   "test \"test_x\" kind=def leaves=3\n"
                   "  axis 0 choose \"n\" size=3 values=[\"1\", \"2\", \"3\"]  # spec.star:4:11\n"
                   "    plan size=3 named constants=[int 1, int 2, int 3] sites=[spec.star:4:11]\n"
                   "  leaf \"2\" digits=[2]\n"
                   "    choose \"n\" option=2 value=\"3\"\n"
                   "    display \"test_x [leaf 2 \xE2\x80\x94 n=3]\"\n"
                   "\n"
                   "total 3\n");
}

TEST_F(LeafTextErrors, ACountThatIsNotTheProductOfItsAxes) {
  EXPECT_EQ(parseError(replaced("leaves=3", "leaves=4")),
            "test \"test_x\": leaves=4 is not the product of its axes (3)");
}

TEST_F(LeafTextErrors, ATotalThatIsNotTheSum) {
  EXPECT_EQ(parseError(replaced("total 3", "total 5")),
            "line 10: total 5 is not the sum of the tests' (3)");
}

TEST_F(LeafTextErrors, ATestTheSpecDoesNotHave) {
  EXPECT_EQ(parseError(replaced("test \"test_x\"", "test \"test_y\"")),
            "line 3: no test \"test_y\" in the spec");
}

TEST_F(LeafTextErrors, AnUnknownLineOrField) {
  EXPECT_EQ(parseError(replaced("    plan size=3", "    plan size=3 colour=red")),
            "line 5: unknown plan field \"colour\"");
  EXPECT_EQ(parseError(replaced("  axis 0", "  axes 0")), "line 4: unknown line");
}

TEST_F(LeafTextErrors, ANumberThatIsNotOne) {
  EXPECT_EQ(parseError(replaced("constants=[int 1,", "constants=[float x1,")),
            "line 5: bad constant \"float\"");
}

TEST_F(LeafTextErrors, EverySpecTestInTheSpecsOrder) {
  std::string none = "leaves \"spec.star\"\n\ntotal 0\n";
  EXPECT_EQ(parseError(none), "test \"test_x\" is missing or out of the spec's order");
}

TEST_F(LeafTextErrors, ExploreLines) {
  EXPECT_EQ(
      parseError(replaced("\ntest ", "explore dfs budget=1 settle_ns=0 quiet_bound_ns=1\n\ntest ")),
      "line 2: explore policy is none, all or sample, not \"dfs\"");
  EXPECT_EQ(
      parseError(replaced("\ntest ", "explore all budget=0 settle_ns=0 quiet_bound_ns=1\n\ntest ")),
      "line 2: explore POLICY budget=N settle_ns=N quiet_bound_ns=N");
  EXPECT_EQ(parseError(replaced("  axis 0", "  holds \"db\": read\n  axis 0")),
            "line 4: holds without an explore line");
}

TEST_F(LeafTextErrors, ALocationInNoSourceFile) {
  EXPECT_EQ(parseError(replaced("sites=[spec.star:4:11]", "sites=[other.star:4:11]")),
            "line 5: no source file \"other.star\"");
}

} // namespace
} // namespace fbc
