#include "ir/builtins/discovery.h"

#include <gtest/gtest.h>

namespace fbc::ir {
namespace {

ir::Test make(std::string name, TestKind kind, uint32_t line) {
  static frontend::SourceFile file("spec.star", std::string(40, '\n'));
  ir::Test t;
  t.name = std::move(name);
  t.kind = kind;
  t.body = FunctionRef{std::string(1, 'f'), {}, nullptr, {}};
  t.loc = Loc{&file, {line, 1}};
  return t;
}

TEST(Discovery, SortsByNameAndKeepsTheFirstClaim) {
  std::vector<ir::Test> candidates = {
      make("test_zeta", TestKind::Def, 1),
      make("test_alpha", TestKind::Def, 2),
      make("test_alpha", TestKind::FaultScenario, 3), // hidden by the def
      make("test_Beta", TestKind::TestBuiltin, 4),
  };
  frontend::DiagnosticList diags;
  std::vector<ir::Test> tests = discoverTests(candidates, diags);
  ASSERT_EQ(tests.size(), 3u);
  EXPECT_EQ(tests[0].name, "test_Beta"); // bytewise: upper case first
  EXPECT_EQ(tests[1].name, "test_alpha");
  EXPECT_EQ(tests[1].kind, TestKind::Def);
  EXPECT_EQ(tests[2].name, "test_zeta");

  ASSERT_EQ(diags.all().size(), 2u);
  EXPECT_FALSE(diags.hasErrors());
  EXPECT_EQ(diags.all()[0].severity, frontend::Severity::Warning);
  EXPECT_EQ(diags.all()[0].pos.line, 3u);
  EXPECT_EQ(diags.all()[0].message,
            "test \"test_alpha\" from fault_scenario(\"alpha\") is skipped: the name is "
            "already taken by def test_alpha");
  EXPECT_EQ(diags.all()[1].severity, frontend::Severity::Note);
  EXPECT_EQ(diags.all()[1].pos.line, 2u);
  EXPECT_EQ(diags.all()[1].message, "def test_alpha is defined here");
}

// Stored in another order than claimed (SpecBuilder appends the def tests
// after the registries): the precedence list decides, and the winners are
// sorted in place.
TEST(Discovery, PrecedenceNotStorageOrderDecidesTheClaim) {
  std::vector<ir::Test> stored = {
      make("test_b", TestKind::FaultScenario, 1),
      make("test_a", TestKind::FaultScenario, 2), // hidden by the def
      make("test_c", TestKind::TestBuiltin, 3),
      make("test_a", TestKind::Def, 4),
  };
  const uint32_t precedence[] = {3, 0, 1, 2};
  frontend::DiagnosticList diags;
  std::vector<ir::Test> tests = discoverTests(stored, precedence, diags);
  ASSERT_EQ(tests.size(), 3u);
  EXPECT_EQ(tests[0].name, "test_a");
  EXPECT_EQ(tests[0].kind, TestKind::Def);
  EXPECT_EQ(tests[0].loc.pos.line, 4u);
  EXPECT_EQ(tests[1].name, "test_b");
  EXPECT_EQ(tests[2].name, "test_c");
  ASSERT_EQ(diags.all().size(), 2u);
  EXPECT_EQ(diags.all()[0].pos.line, 2u);
  EXPECT_EQ(diags.all()[0].message,
            "test \"test_a\" from fault_scenario(\"a\") is skipped: the name is already taken "
            "by def test_a");
  EXPECT_EQ(diags.all()[1].pos.line, 4u);
}

TEST(Discovery, DescribesEachSource) {
  ir::Test cell = make("test_matrix_s_f", TestKind::FaultMatrix, 1);
  cell.body = FunctionRef{std::string("s"), {}, nullptr, {}};
  cell.faults.emplace_back("f");
  EXPECT_EQ(describeTest(cell), "fault_matrix cell (s, f)");
  EXPECT_EQ(describeTest(make("test_x", TestKind::TestBuiltin, 1)), "test(\"x\")");
  ir::Test sc = make("test_f", TestKind::Scenario, 1);
  EXPECT_EQ(describeTest(sc), "scenario(f)");
}

} // namespace
} // namespace fbc::ir
