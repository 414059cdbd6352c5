// The plan passes on small specs: axes, cost, coverage, suggest,
// diagnostics, the pass manager, and byte-stable output.
#include "backend/leaf_lower.h"
#include "backend/plan_emit.h"
#include "frontend/eval/big_stack.h"
#include "ir/load/load_spec.h"
#include "passes/pass_manager.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace fbc {
namespace {

struct Loaded {
  std::unique_ptr<ir::LoadedSpec> spec;
  ir::Plan plan;
};

// Loads `text` as a spec (written to <dir>/spec.star under /tmp) and runs
// the plan pipeline.
Loaded plan(const std::string &text, const std::string &name = "spec") {
  std::string dir = "/tmp/fbc_plan_test_" + std::to_string(getpid()) + "_" + name;
  mkdir(dir.c_str(), 0700);
  std::string path = dir + "/spec.star";
  std::ofstream(path) << text;
  Loaded out;
  star::runWithLargeStack([&] {
    out.spec = ir::loadSpec(path);
    if (!out.spec->ok()) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      out.spec->printDiagnostics(os);
      ADD_FAILURE() << os.str();
      return 0;
    }
    out.plan = passes::buildPlan(out.spec->spec());
    return 0;
  });
  std::remove(path.c_str());
  rmdir(dir.c_str());
  return out;
}

const ir::PlanTest &testNamed(const ir::Plan &p, const std::string &name) {
  for (const ir::PlanTest &t : p.tests)
    if (t.test->name == name)
      return t;
  ADD_FAILURE() << "no test " << name;
  return p.tests.front();
}

TEST(Count, SaturatesIntoALowerBound) {
  ir::Count c{uint64_t(1) << 40, true};
  c *= ir::Count{uint64_t(1) << 40, true};
  EXPECT_FALSE(c.exact);
  EXPECT_EQ(c.value, UINT64_MAX);
  EXPECT_TRUE(c.saturated());
  EXPECT_EQ(c.str(), "at least 2^64 (saturated)");
  ir::Count s{UINT64_MAX - 1, true};
  s += ir::Count{5, true};
  EXPECT_FALSE(s.exact);
  ir::Count e{3, true};
  e *= ir::Count{4, true};
  EXPECT_TRUE(e.exact);
  EXPECT_EQ(e.str(), "12");
}

TEST(Axes, ChooseLiteralConstantComputedAnonymousAndRepeated) {
  Loaded l = plan(R"(
OPTS = ["a", "b", "c"]
def test_x():
    a = choose("lit", [1, -2, 2.5, True, "s"])
    b = choose("const", OPTS)
    c = choose("dyn", [x for x in OPTS])
    d = choose([1, 2, 3])
    e = choose("lit", [7, 8])
    name = "n" + "m"
    f = choose(name, [1, 2])
)");
  const ir::PlanTest &t = testNamed(l.plan, "test_x");
  ASSERT_EQ(t.axes().size(), 4u);
  EXPECT_EQ(t.axes()[0].name, "lit");
  EXPECT_EQ(t.axes()[0].values, (std::vector<std::string>{"1", "-2", "2.5", "True", "s"}));
  EXPECT_EQ(*t.axes()[0].size, 5u);
  EXPECT_EQ(t.axes()[1].name, "const");
  EXPECT_EQ(*t.axes()[1].size, 3u);
  EXPECT_EQ(t.axes()[1].values, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(t.axes()[2].name, "dyn");
  EXPECT_FALSE(t.axes()[2].size.has_value());
  EXPECT_EQ(t.axes()[3].name, "choose#1");
  EXPECT_EQ(*t.axes()[3].size, 2u);
  // The options as constants, for test(assume=) (ir::OptionConstant).
  using K = ir::OptionConstant::Kind;
  std::vector<ir::OptionConstant> lit = {{K::Int, 1, 0, ""},
                                         {K::Int, -2, 0, ""},
                                         {K::Float, 0, 2.5, ""},
                                         {K::Bool, 1, 0, ""},
                                         {K::String, 0, 0, "s"}};
  EXPECT_EQ(t.axes()[0].constants, lit);
  std::vector<ir::OptionConstant> consts = {
      {K::String, 0, 0, "a"}, {K::String, 0, 0, "b"}, {K::String, 0, 0, "c"}};
  EXPECT_EQ(t.axes()[1].constants, consts);
  EXPECT_TRUE(t.axes()[2].constants.empty());
  EXPECT_TRUE(t.axes()[0].named && t.axes()[1].named && t.axes()[2].named);
  EXPECT_FALSE(t.axes()[3].named);
  EXPECT_FALSE(t.count.exact);
  EXPECT_EQ(t.count.value, 5u * 3u * 2u);
  EXPECT_TRUE(l.plan.unknownChoose);
  EXPECT_EQ(l.plan.total.str(), "at least 30");
}

TEST(Axes, HelperChooseIsRecordedNotCounted) {
  Loaded l = plan(R"(
def inner():
    return choose("deep", [1, 2])
def helper():
    return inner()
def test_y():
    helper()
)");
  const ir::PlanTest &t = testNamed(l.plan, "test_y");
  EXPECT_TRUE(t.axes().empty());
  ASSERT_EQ(t.helperChooses().size(), 1u);
  EXPECT_EQ(t.helperChooses()[0].helper, "helper");
  EXPECT_EQ(t.helperChooses()[0].axis, "deep");
  ASSERT_EQ(l.plan.diagnostics.size(), 1u);
  EXPECT_EQ(l.plan.diagnostics[0].code, ir::DiagCode::HelperChoose);
  EXPECT_EQ(l.plan.total.str(), "1");
}

TEST(Axes, InterleavingCardinalities) {
  Loaded l = plan(R"(
def f():
    pass
def test_all3():
    parallel(f, f, f, interleavings = "all")
def test_crit5():
    parallel(f, f, f, f, f, interleavings = "critical")
def test_n():
    parallel(f, f, f, interleavings = 4)
def test_single():
    parallel(f, f, f, interleavings = 1)
def test_huge():
    parallel(f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, interleavings = "all")
def test_huge_capped():
    parallel(f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, interleavings = 1000)
)");
  EXPECT_EQ(testNamed(l.plan, "test_all3").count.str(), "6");
  EXPECT_EQ(testNamed(l.plan, "test_crit5").count.str(), "9");
  EXPECT_EQ(testNamed(l.plan, "test_n").count.str(), "4");
  EXPECT_EQ(testNamed(l.plan, "test_single").count.str(), "1");
  EXPECT_TRUE(testNamed(l.plan, "test_single").axes().empty());
  // 21! does not fit 64 bits: a lower bound, never a wrapped number.
  const ir::PlanTest &huge = testNamed(l.plan, "test_huge");
  ASSERT_EQ(huge.axes().size(), 1u);
  EXPECT_EQ(huge.axes()[0].unknown, ir::UnknownReason::TooLarge);
  EXPECT_FALSE(huge.count.exact);
  EXPECT_EQ(testNamed(l.plan, "test_huge_capped").count.str(), "1000");
}

TEST(Axes, ProbabilitySitesFromAssumptionsAndBodies) {
  Loaded l = plan(R"(
db = service("db", "/bin/db")
a = fault_assumption("a", target = db, write = deny("EIO", probability = 0.5, max_fires = 3),
                     read = deny("EIO", probability = 0.5, max_fires = 1, label = "r"))
b = fault_assumption("b", target = db, faults = [a], fsync = delay("1s", probability = "10%"))
def s():
    pass
fault_scenario("fs", scenario = s, faults = [b])
def test_body():
    fault(db, write = deny("EIO", probability = 0.5, max_fires = 2), run = s)
    fault(db, write = deny("EIO", probability = 0.5, max_fires = 2), run = s)
    fault(a, run = s)
)");
  const ir::PlanTest &fs = testNamed(l.plan, "test_fs");
  ASSERT_EQ(fs.axes().size(), 2u);
  EXPECT_EQ(fs.axes()[0].name, "db:write");
  EXPECT_EQ(fs.axes()[1].name, "r");
  EXPECT_EQ(fs.count.str(), "16");
  ASSERT_EQ(fs.unmodeled().size(), 1u); // fsync: probability without max_fires
  const ir::PlanTest &body = testNamed(l.plan, "test_body");
  // db:write once (same key), then a's sites: db:write (dup) and r.
  ASSERT_EQ(body.axes().size(), 2u);
  EXPECT_EQ(body.axes()[0].name, "db:write");
  EXPECT_EQ(*body.axes()[0].size, 4u);
  EXPECT_EQ(body.axes()[1].name, "r");
  EXPECT_EQ(body.count.str(), "8");
}

TEST(Cost, MatrixCellsGroupPerScenarioWithMixedExpect) {
  Loaded l = plan(R"(
svc = service("svc", "/bin/svc")
x = fault_assumption("x", target = svc, connect = deny("ECONNREFUSED"))
y = fault_assumption("y", target = svc, write = deny("EIO", probability = 0.5, max_fires = 1))
def s1():
    pass
def s2():
    pass
def ok(r):
    pass
def other(r):
    pass
fault_matrix(scenarios = [s1, s2], faults = [x, y], default_expect = ok,
             overrides = {(s1, y): other}, exclude = [(s2, x)])
)");
  ASSERT_EQ(l.plan.entries.size(), 2u);
  const ir::PlanEntry &e1 = l.plan.entries[0];
  EXPECT_EQ(e1.name, "test_matrix_s1");
  EXPECT_EQ(e1.count.str(), "3"); // x: 1, y: 2
  EXPECT_EQ(e1.expect, "(mixed)");
  EXPECT_EQ(e1.matrixFaults, (std::vector<std::string>{"x", "y"}));
  const ir::PlanEntry &e2 = l.plan.entries[1];
  EXPECT_EQ(e2.count.str(), "2");
  EXPECT_EQ(e2.expect, "ok");
  EXPECT_EQ(l.plan.total.str(), "5");
}

TEST(Coverage, EnvEdgesAndComposedTargets) {
  Loaded l = plan(R"(
db = service("db", "/bin/db", interface("main", "postgres", 5432))
q = service("q", "/bin/q", interface("main", "udp", 9000))
mongodb = service("mongodb", "/bin/m", interface("main", "mongodb", 27017))
api = service("api", "/bin/api", interface("http", "http", 8080), env = {
    "DB": db.main.addr,
    "Q": "q:9000",
    "URL": "mongodb://elsewhere:1/x",
    "SELF": "localhost:8080",
})
inner = fault_assumption("inner", target = q, sendto = deny("ECONNREFUSED"))
outer = fault_assumption("outer", faults = [inner])
def s():
    pass
fault_scenario("q_down", scenario = s, faults = outer)
)");
  const ir::PlanCoverage &c = l.plan.coverage;
  ASSERT_EQ(c.edges.size(), 2u);
  EXPECT_EQ(c.edges[0].to, "db");
  EXPECT_EQ(c.edges[0].via, "env");
  EXPECT_EQ(c.edges[0].protocol, "postgres");
  EXPECT_FALSE(c.edges[0].covered());
  EXPECT_EQ(c.edges[1].to, "q");
  EXPECT_EQ(c.edges[1].faultTests, (std::vector<std::string>{"test_q_down"}));
  EXPECT_EQ(c.uncovered, 1u);
  EXPECT_EQ(c.coveredProtocols, (std::vector<std::string>{"udp"}));
  EXPECT_EQ(c.uncoveredProtocols, (std::vector<std::string>{"postgres"}));
}

TEST(Suggest, SanitisedIdentifiersAndUdp) {
  Loaded l = plan(R"(
stats = service("stats-d", "/bin/s", interface("main", "udp", 8125))
api = service("api", "/bin/api", depends_on = [stats])
)");
  ASSERT_EQ(l.plan.suggestions.size(), 1u);
  const std::string &s = l.plan.suggestions[0].text;
  EXPECT_NE(s.find("stats_d_unavailable = fault_assumption(\"stats_d_unavailable\","),
            std::string::npos);
  EXPECT_NE(s.find("    target = stats,\n"), std::string::npos);
  EXPECT_NE(s.find("    sendto = deny(\"ECONNREFUSED\"),\n"), std::string::npos);
  EXPECT_NE(s.find("# Uncovered edge: api → stats-d (udp)"), std::string::npos);
}

TEST(Leaves, MixedRadixFirstAxisFastestCoversTheCount) {
  Loaded l = plan(R"(
def f():
    pass
def test_x():
    a = choose("a", [1, 2])
    b = choose("b", [1, 2, 3])
    fault(f, write = deny("EIO", probability = 0.5, max_fires = 1), run = f)
    parallel(f, f, f, interleavings = "critical")
)");
  const ir::PlanTest &t = testNamed(l.plan, "test_x");
  ASSERT_EQ(t.axes().size(), 4u);
  EXPECT_EQ(t.axes()[0].kind, ir::AxisKind::Choose);
  EXPECT_EQ(t.axes()[2].kind, ir::AxisKind::Probability);
  EXPECT_EQ(t.axes()[3].kind, ir::AxisKind::Interleaving);
  ASSERT_EQ(t.count.str(), "60"); // 2 * 3 * 2 * 5
  // The run decodes leaves with the lowered program: same axes, same order.
  ir::LeafProgram program = backend::lowerToLeaves(l.plan);
  const ir::LeafTest *lt = program.find("test_x");
  ASSERT_NE(lt, nullptr);
  ASSERT_EQ(lt->count.str(), "60");
  EXPECT_EQ(lt->decode(4).digits, (std::vector<uint64_t>{0, 2, 0, 0}));
  EXPECT_EQ(lt->decode(5).digits, (std::vector<uint64_t>{1, 2, 0, 0}));
  EXPECT_EQ(lt->decode(59).digits, (std::vector<uint64_t>{1, 2, 1, 4}));
  std::set<std::vector<uint64_t>> seen;
  for (uint64_t i = 0; i < lt->count.value; ++i)
    seen.insert(lt->decode(i).digits);
  EXPECT_EQ(seen.size(), lt->count.value);
}

TEST(PassManager, RunsNamedPassesInOrder) {
  passes::PassManager pm = passes::PassManager::planPipeline();
  std::vector<std::string> names;
  for (const passes::Pass &p : pm.passes())
    names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"axes", "cost", "coverage", "suggest", "body_check",
                                             "diagnostics"}));
  std::vector<std::string> lean;
  passes::PassManager leanPm = passes::PassManager::planPipeline(false);
  for (const passes::Pass &p : leanPm.passes())
    lean.push_back(p.name);
  EXPECT_EQ(lean, (std::vector<std::string>{"axes", "cost", "body_check", "diagnostics"}));
  EXPECT_TRUE(pm.has("cost"));
  EXPECT_FALSE(pm.has("lower"));
}

TEST(Emit, SameSpecSameBytes) {
  const char *spec = R"(
db = service("db", "/bin/db", interface("main", "postgres", 5432))
redis = service("redis", "/bin/r", interface("main", "redis", 6379))
api = service("api", "/bin/api", depends_on = [redis, db])
d = fault_assumption("d", target = db, connect = deny("ECONNREFUSED"))
def s():
    pass
fault_matrix(scenarios = [s], faults = [d])
def test_z():
    choose("k", [1, 2])
)";
  std::string out[2];
  for (std::string &o : out) {
    Loaded l = plan(spec, "stable");
    llvm::raw_string_ostream os(o);
    backend::PlanEmitOptions opts;
    opts.coverage = opts.suggest = true;
    backend::emitPlanText(l.plan, opts, os);
    backend::emitPlanJson(l.plan, opts, os);
    backend::emitPlanDot(l.plan, os);
  }
  EXPECT_FALSE(out[0].empty());
  EXPECT_EQ(out[0], out[1]);
}

} // namespace
} // namespace fbc
