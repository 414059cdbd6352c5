// The verifier between pipeline stages (ir/verify/pipeline_verifier.h): silent on
// what the pipeline builds, and a located error naming the stage when a
// pass (here a deliberately broken one) or the lowering breaks an
// invariant.
#include "backend/leaf_lower.h"
#include "frontend/eval/big_stack.h"
#include "ir/load/load_spec.h"
#include "ir/verify/pipeline_verifier.h"
#include "ir/syscalls.h"
#include "passes/pass_manager.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace fbc {
namespace {

constexpr const char *kSpec = R"(db = service("db", "/bin/db", interface("main", "tcp", 5432))

def a():
    return 1

def test_x():
    n = choose("n", [1, 2, 3])
    fault(db, write = deny("EIO", probability = 0.5, max_fires = 2, label = "wal"), run = a)
    parallel(a, a, interleavings = "all")
)";

class PipelineVerifier : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = "/tmp/fbc_verifier_test_" + std::to_string(getpid());
    mkdir(dir_.c_str(), 0700);
    std::ofstream(dir_ + "/spec.star") << kSpec;
    star::runWithLargeStack([&] {
      loaded_ = ir::loadSpec(dir_ + "/spec.star");
      return 0;
    });
    ASSERT_TRUE(loaded_->ok());
  }
  void TearDown() override {
    std::remove((dir_ + "/spec.star").c_str());
    rmdir(dir_.c_str());
  }

  // Runs `pm` with verification after every stage; the diagnostics printed.
  std::string run(passes::PassManager &pm, bool &ok) {
    pm.verifyEach = true;
    frontend::DiagnosticList diags;
    ok = pm.run(loaded_->spec(), plan_, &leaves_, diags);
    std::string out;
    llvm::raw_string_ostream os(out);
    diags.print(os);
    return os.str();
  }

  std::string dir_;
  std::unique_ptr<ir::LoadedSpec> loaded_;
  ir::Plan plan_;
  ir::LeafProgram leaves_;
};

TEST_F(PipelineVerifier, SilentOnTheRealPipeline) {
  passes::PassManager pm = backend::leafPipeline();
  bool ok = false;
  EXPECT_EQ(run(pm, ok), "");
  EXPECT_TRUE(ok);
  ASSERT_EQ(leaves_.tests.size(), 1u);
  EXPECT_EQ(leaves_.tests[0].count.str(), "24"); // 3 x 4 x 2
}

// A pass that puts the interleaving axis first.
void reorderAxes(const ir::Spec &, ir::Plan &plan) {
  for (ir::PlanTest &t : plan.tests) {
    std::vector<ir::PlanAxis> &axes = t.editShape().axes;
    std::rotate(axes.begin(), axes.end() - 1, axes.end());
  }
}

TEST_F(PipelineVerifier, BrokenPassIsReportedAtTheAxisItBroke) {
  passes::PassManager pm = backend::leafPipeline();
  passes::PassManager broken;
  broken.add(pm.passes()[0]); // axes
  broken.add({"reorder", reorderAxes});
  for (size_t i = 1; i < pm.passes().size(); ++i)
    broken.add(pm.passes()[i]);
  broken.setLowering(*pm.lowering());
  bool printedLeaves = false;
  broken.afterLowering = [&](const passes::Lowering &, const ir::LeafProgram &) {
    printedLeaves = true;
  };
  bool ok = true;
  std::string out = run(broken, ok);
  EXPECT_FALSE(ok);
  EXPECT_FALSE(printedLeaves); // the stages after the broken one did not run
  std::string spec = dir_ + "/spec.star";
  EXPECT_EQ(out, spec +
                     ":7:15: error: verifier: after reorder: test \"test_x\" choose axis "
                     "\"n\": out of leaf-enumeration order (choose, probability, interleaving)\n"
                     "    n = choose(\"n\", [1, 2, 3])\n"
                     "              ^\n" +
                     spec +
                     ":8:27: error: verifier: after reorder: test \"test_x\" probability axis "
                     "\"wal\": out of leaf-enumeration order (choose, probability, interleaving)\n"
                     "    fault(db, write = deny(\"EIO\", probability = 0.5, max_fires = 2, label "
                     "= \"wal\"), run = a)\n"
                     "                          ^\n");
}

// A pass that forgets where the probability rules come into force.
void dropRuleSites(const ir::Spec &, ir::Plan &plan) {
  for (ir::PlanTest &t : plan.tests)
    for (ir::PlanAxis &a : t.editShape().axes)
      a.ruleSites.clear();
}

TEST_F(PipelineVerifier, ProbabilityAxisWithoutRuleSite) {
  passes::PassManager pm = backend::leafPipeline();
  passes::PassManager broken;
  broken.add(pm.passes()[0]); // axes
  broken.add({"forget", dropRuleSites});
  broken.setLowering(*pm.lowering());
  bool ok = true;
  std::string out = run(broken, ok);
  EXPECT_FALSE(ok);
  EXPECT_EQ(out, dir_ + "/spec.star" +
                     ":8:27: error: verifier: after forget: test \"test_x\" probability axis "
                     "\"wal\": no rule site\n"
                     "    fault(db, write = deny(\"EIO\", probability = 0.5, max_fires = 2, label "
                     "= \"wal\"), run = a)\n"
                     "                          ^\n");
}

TEST_F(PipelineVerifier, LeafProgramThatDisagreesWithItsPlan) {
  passes::PassManager pm = backend::leafPipeline();
  bool ok = false;
  run(pm, ok);
  ASSERT_TRUE(ok);
  leaves_.tests[0].axes[1].size = 3; // the plan's "wal" site has 2^2 outcomes
  // fsync before write: not sorted by number.
  leaves_.tests[0].traps[0] = {ir::syscallNumber("fsync"), ir::syscallNumber("write")};
  frontend::DiagnosticList diags;
  EXPECT_FALSE(ir::verifyLeafProgram(plan_, leaves_, "leaves", diags));
  std::string out;
  llvm::raw_string_ostream os(out);
  diags.print(os);
  EXPECT_NE(os.str().find("spec.star:8:27: error: verifier: after leaves: test \"test_x\" "
                          "probability axis \"wal\": leaf size 3 is not the plan's 4"),
            std::string::npos)
      << os.str();
  EXPECT_NE(os.str().find("spec.star:6:1: error: verifier: after leaves: test \"test_x\": 24 "
                          "leaves is not the product of its axes (18)"),
            std::string::npos)
      << os.str();
  EXPECT_NE(os.str().find("error: verifier: after leaves: test \"test_x\": the trap set of "
                          "service \"db\" is not sorted and unique"),
            std::string::npos)
      << os.str();
}

} // namespace
} // namespace fbc
