// The leaf program is the contract between plan and run: the trap set of
// every service (per leaf where a choose() option changes it), the digit
// every choose() call and every probability rule takes and the launch
// orders of a parallel() site come from the lowered program the run is
// given, not from a scan of the spec at run time.
// Each test lowers a spec, edits the program so that a scan of the spec
// would disagree with it, runs it against the kv fixture, and checks that
// the run followed the program.
#include "backend/leaf_lower.h"
#include "e2e_util.h"
#include "frontend/eval/big_stack.h"
#include "ir/load/load_spec.h"
#include "ir/syscalls.h"
#include "passes/pass_manager.h"
#include "runtime/driver/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace fbc::rt {
namespace {

class LeafContract : public ::testing::Test {
protected:
  // Loads `body` after a kv service declaration, and plans and lowers it.
  void load(const std::string &body) {
    uint16_t port = e2e::freePort();
    std::string path = dir_.file("spec.star");
    std::ofstream(path) << "kv = service(\"kv\", \"" FBC_FIXTURE_KV "\",\n"
                        << "    interface(\"main\", \"tcp\", " << port << "),\n"
                        << "    args = [\"--port\", \"" << port << "\", \"--wal\", \"kv.wal\"],\n"
                        << "    healthcheck = tcp(\"localhost:" << port << "\"))\n"
                        << body;
    star::runWithLargeStack([&] {
      loaded_ = ir::loadSpec(path);
      return 0;
    });
    ASSERT_TRUE(loaded_->ok());
    plan_ = passes::buildPlan(loaded_->spec());
    program_ = backend::lowerToLeaves(plan_);
  }

  ir::LeafTest &programTest(const std::string &name) {
    for (ir::LeafTest &t : program_.tests)
      if (t.test->name == name)
        return t;
    ADD_FAILURE() << "no test " << name;
    return program_.tests.front();
  }

  RunReport run() {
    RunConfig cfg;
    cfg.leaves = &program_;
    cfg.timeoutNs = 20 * 1000000000LL;
    std::vector<const ir::Test *> tests;
    for (const ir::Test &t : loaded_->spec().tests)
      tests.push_back(&t);
    RunReport report;
    star::runWithLargeStack([&] {
      Executor ex(*loaded_, cfg);
      report = ex.run(tests);
      return 0;
    });
    return report;
  }

  static const TestOutcome &row(const RunReport &r, const std::string &name) {
    for (const TestOutcome &o : r.tests)
      if (o.name == name)
        return o;
    ADD_FAILURE() << "no row " << name;
    return r.tests.front();
  }

  e2e::TempDir dir_;
  std::unique_ptr<ir::LoadedSpec> loaded_;
  ir::Plan plan_;
  ir::LeafProgram program_;
  ir::PlanAxis extra_; // an axis a test adds to the program
};

constexpr const char *kTrapSpec = R"(
def set():
    return kv.main.send(data = "SET k v")

def test_fault():
    fault(kv, write = deny("EIO"), run = set)

def test_plain():
    set()
)";

// The numbers a rule on `keyword` traps (its family), sorted as a trap set.
std::vector<int> nrs(const char *keyword) {
  std::vector<int> out = ir::syscallNumbers(keyword);
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(LeafContract, TrapSetsAsLowered) {
  load(kTrapSpec);
  EXPECT_EQ(programTest("test_fault").traps, (std::vector<std::vector<int>>{nrs("write")}));
  EXPECT_EQ(programTest("test_plain").traps, (std::vector<std::vector<int>>{{}}));
  RunReport r = run();
  ASSERT_EQ(r.tests.size(), 2u);
  EXPECT_EQ(row(r, "test_fault").result, Result::Pass) << row(r, "test_fault").reason;
  ASSERT_EQ(row(r, "test_fault").faults.size(), 1u);
  EXPECT_GE(row(r, "test_fault").faults[0].hits, 1u); // the WAL write was denied
  EXPECT_EQ(row(r, "test_plain").result, Result::Pass) << row(r, "test_plain").reason;
  EXPECT_TRUE(row(r, "test_plain").syscallSummary.empty()); // nothing trapped
}

// A body fault()'s keyword is lowered by the plan at its call site
// (LeafTest::callRules); the run binds the fault's value to those rules and
// re-derives nothing: an edited call rule is what gets installed.
TEST_F(LeafContract, BodyFaultRulesFollowAnEditedProgram) {
  load(kTrapSpec);
  ir::LeafTest &t = programTest("test_fault");
  ASSERT_EQ(t.callRules.size(), 1u);
  EXPECT_EQ(t.callRules[0].keyword, "write");
  EXPECT_EQ(t.callRules[0].syscalls, nrs("write"));
  EXPECT_EQ(t.callRules[0].site.keyword, "write");
  EXPECT_EQ(t.callRules[0].site.at.str(), dir_.file("spec.star") + ":10:10");
  EXPECT_TRUE(programTest("test_plain").callRules.empty());
  // The program says this write= rule goes on kv's fsyncs (and traps them).
  t.callRules[0].keyword = "fsync";
  t.callRules[0].syscalls = nrs("fsync");
  t.traps = {nrs("fsync")};
  RunReport r = run();
  const TestOutcome &fault = row(r, "test_fault");
  EXPECT_EQ(fault.result, Result::Pass) << fault.reason;
  ASSERT_EQ(fault.faults.size(), 1u);
  EXPECT_EQ(fault.faults[0].syscall, "fsync");
  EXPECT_EQ(fault.faults[0].errnoName, "EIO");
  EXPECT_GE(fault.faults[0].hits, 1u); // the WAL's fsync was denied
}

TEST_F(LeafContract, TrapSetsFollowAnEditedProgram) {
  load(kTrapSpec);
  // The spec faults kv's writes in test_fault and nothing in test_plain;
  // the program says the opposite.
  programTest("test_fault").traps = {{}};
  programTest("test_plain").traps = {nrs("write")};
  RunReport r = run();
  ASSERT_EQ(r.tests.size(), 2u);
  const TestOutcome &fault = row(r, "test_fault");
  EXPECT_EQ(fault.result, Result::Fail);
  EXPECT_NE(fault.reason.find("fault(): service \"kv\" is not intercepting write"),
            std::string::npos)
      << fault.reason;
  const TestOutcome &plain = row(r, "test_plain");
  EXPECT_EQ(plain.result, Result::Pass) << plain.reason;
  ASSERT_EQ(plain.syscallSummary.count("kv"), 1u); // kv's writes went through the supervisor
  EXPECT_GE(plain.syscallSummary.at("kv").total, 1u);
}

constexpr const char *kAssumptionSpec = R"(
wal_eio = fault_assumption("wal_eio", target = kv, write = deny("EIO"))

def set():
    kv.main.send(data = "SET k v")

fault_scenario("wal", scenario = set, faults = wal_eio)
)";

TEST_F(LeafContract, AssumptionRulesAsLowered) {
  load(kAssumptionSpec);
  const ir::LoweredAssumption *a = program_.findAssumption("wal_eio");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->rules.size(), 1u);
  EXPECT_EQ(a->rules[0].syscalls, nrs("write"));
  EXPECT_EQ(a->rules[0].errnoNumber, 5);
  RunReport r = run();
  ASSERT_EQ(r.tests.size(), 1u);
  ASSERT_EQ(r.tests[0].faults.size(), 1u);
  EXPECT_EQ(r.tests[0].faults[0].errnoName, "EIO");
  EXPECT_GE(r.tests[0].faults[0].hits, 1u);
}

TEST_F(LeafContract, AssumptionRulesFollowAnEditedProgram) {
  load(kAssumptionSpec);
  // The spec says EIO; the lowered rule the run installs says ENOSPC.
  ASSERT_EQ(program_.assumptions.size(), 1u);
  ASSERT_EQ(program_.assumptions[0].rules.size(), 1u);
  program_.assumptions[0].rules[0].errnoNumber = 28;
  RunReport r = run();
  ASSERT_EQ(r.tests.size(), 1u);
  ASSERT_EQ(r.tests[0].faults.size(), 1u);
  EXPECT_EQ(r.tests[0].faults[0].errnoName, "ENOSPC");
  EXPECT_GE(r.tests[0].faults[0].hits, 1u);
}

constexpr const char *kChooseSpec = R"(
def test_pick():
    return choose("retries", [10, 20, 30])
)";

std::vector<std::string> returned(const RunReport &r) {
  std::vector<std::string> out;
  for (const TestOutcome &o : r.tests)
    out.push_back(o.returnValue);
  return out;
}

TEST_F(LeafContract, DigitsAsLowered) {
  load(kChooseSpec);
  RunReport r = run();
  EXPECT_EQ(returned(r), (std::vector<std::string>{"10", "20", "30"}));
  EXPECT_TRUE(r.warnings.empty());
}

TEST_F(LeafContract, DigitsFollowAnEditedProgram) {
  load(kChooseSpec);
  ir::LeafTest &t = programTest("test_pick");
  ASSERT_EQ(t.axes.size(), 1u);
  // Two leaves, not three: the run enumerates the program's axis sizes.
  t.axes[0].size = 2;
  t.recount();
  RunReport r = run();
  EXPECT_EQ(returned(r), (std::vector<std::string>{"10", "20"}));
}

TEST_F(LeafContract, AxesAreKeyedByCallSiteNotName) {
  load(kChooseSpec);
  // The axis is still named "retries", but no longer at this call: the
  // run does not match it by name, so every leaf takes the first option
  // and the call is reported as not planned.
  programTest("test_pick").axes[0].plan.sites.clear();
  RunReport r = run();
  EXPECT_EQ(returned(r), (std::vector<std::string>{"10", "10", "10"}));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].message.find("choose(\"retries\") is not a planned axis"),
            std::string::npos)
      << r.warnings[0].message;
}

// A choose() between a write rule and an fsync rule: each leaf traps its
// own option's syscalls, not the other's.
constexpr const char *kOptionSpec = R"(
def set():
    return kv.main.send(data = "SET k v")

def deny_write():
    fault(kv, write = deny("EIO"), run = set)

def deny_fsync():
    fault(kv, fsync = deny("EIO"), run = set)

def test_rule():
    choose("rule", [deny_write, deny_fsync])()
)";

// The rows of `r` in order.
std::vector<const TestOutcome *> rows(const RunReport &r) {
  std::vector<const TestOutcome *> out;
  for (const TestOutcome &o : r.tests)
    out.push_back(&o);
  return out;
}

bool counted(const TestOutcome &o, const char *syscall) {
  auto kv = o.syscallSummary.find("kv");
  return kv != o.syscallSummary.end() && kv->second.breakdown.count(syscall) > 0;
}

TEST_F(LeafContract, PerLeafTrapSetsAsLowered) {
  load(kOptionSpec);
  const ir::LeafTest &t = programTest("test_rule");
  ASSERT_EQ(t.axes.size(), 1u);
  EXPECT_EQ(t.traps, (std::vector<std::vector<int>>{{}})); // nothing every leaf traps
  ASSERT_EQ(t.optionTraps.size(), 2u);
  EXPECT_EQ(t.optionTraps[0].option, 0u);
  EXPECT_EQ(t.optionTraps[0].syscalls, nrs("write"));
  EXPECT_EQ(t.optionTraps[1].option, 1u);
  EXPECT_EQ(t.optionTraps[1].syscalls, nrs("fsync"));
  RunReport r = run();
  std::vector<const TestOutcome *> leaves = rows(r);
  ASSERT_EQ(leaves.size(), 2u);
  for (const TestOutcome *o : leaves) {
    EXPECT_EQ(o->result, Result::Pass) << o->reason;
    ASSERT_EQ(o->faults.size(), 1u);
    EXPECT_GE(o->faults[0].hits, 1u);
  }
  // Leaf 0 traps kv's writes and not its fsyncs; leaf 1 the other way round.
  EXPECT_TRUE(counted(*leaves[0], "write"));
  EXPECT_FALSE(counted(*leaves[0], "fsync"));
  EXPECT_TRUE(counted(*leaves[1], "fsync"));
  EXPECT_FALSE(counted(*leaves[1], "write"));
}

TEST_F(LeafContract, PerLeafTrapSetsFollowAnEditedProgram) {
  load(kOptionSpec);
  // The program swaps the options' trap sets: a scan of the spec would
  // trap writes for leaf 0 and fsyncs for leaf 1.
  ir::LeafTest &t = programTest("test_rule");
  ASSERT_EQ(t.optionTraps.size(), 2u);
  std::swap(t.optionTraps[0].option, t.optionTraps[1].option);
  std::swap(t.optionTraps[0], t.optionTraps[1]);
  RunReport r = run();
  std::vector<const TestOutcome *> leaves = rows(r);
  ASSERT_EQ(leaves.size(), 2u);
  EXPECT_EQ(leaves[0]->result, Result::Fail);
  EXPECT_NE(leaves[0]->reason.find("service \"kv\" is not intercepting write"), std::string::npos)
      << leaves[0]->reason;
  // ... and says what it does intercept: the other option's family.
  EXPECT_NE(leaves[0]->reason.find("fdatasync"), std::string::npos) << leaves[0]->reason;
  EXPECT_EQ(leaves[1]->result, Result::Fail);
  EXPECT_NE(leaves[1]->reason.find("service \"kv\" is not intercepting fsync"), std::string::npos)
      << leaves[1]->reason;
  EXPECT_NE(leaves[1]->reason.find("pwritev2"), std::string::npos) << leaves[1]->reason;
}

// interleavings="sut-internal" is reserved: the plan makes no axis of it
// and a scan of the call would reject it.
constexpr const char *kParallelSpec = R"(
def test_par():
    order = []
    parallel(lambda: order.append(1), lambda: order.append(2), interleavings = "sut-internal")
    return order
)";

TEST_F(LeafContract, ParallelPolicyComesFromTheProgram) {
  load(kParallelSpec);
  ASSERT_EQ(plan_.tests.size(), 1u);
  ASSERT_EQ(plan_.tests[0].argErrors().size(), 1u); // the plan's message at the call
  EXPECT_TRUE(programTest("test_par").axes.empty());
  RunReport bare = run();
  ASSERT_EQ(bare.tests.size(), 1u);
  EXPECT_EQ(bare.tests[0].result, Result::Error); // a mistake of the call: BAD_ARGUMENT
  EXPECT_NE(bare.tests[0].reason.find("interleavings=\"sut-internal\" requires L5"),
            std::string::npos)
      << bare.tests[0].reason;
  // The program plans the site as a two-order interleaving axis: the run
  // takes the policy from it, parses nothing, and runs both orders.
  extra_.kind = ir::AxisKind::Interleaving;
  extra_.name = "par";
  extra_.loc = plan_.tests[0].argErrors()[0].loc;
  extra_.sites = {extra_.loc};
  extra_.size = 2;
  extra_.branches = 2;
  ir::LeafTest &t = programTest("test_par");
  t.axes.push_back(ir::LeafAxis{extra_, 2, true});
  t.recount();
  RunReport r = run();
  ASSERT_EQ(r.tests.size(), 2u);
  EXPECT_EQ(returned(r), (std::vector<std::string>{"[1, 2]", "[2, 1]"}));
}

// Probability sites: a body fault() with a literal deny(), one with a
// module-level rule, and an assumption's rule under a fault_scenario, each
// max_fires=2 (4 leaves): the first two WAL writes are denied or not as
// the leaf's digit says (00 10 01 11).
constexpr const char *kProbabilitySpec = R"(
def sets():
    return [kv.main.send(data = "SET k%d v" % i) for i in range(2)]

def mark(replies):
    return "".join(["x" if r.startswith("ERR") else "." for r in replies])

def test_literal():
    return mark(fault(kv, write = deny("EIO", probability = 0.5, max_fires = 2, path = "**/kv.wal"), run = sets))

flaky = deny("EIO", probability = 0.5, max_fires = 2, path = "**/kv.wal")

def test_global():
    return mark(fault(kv, write = flaky, run = sets))

wal = fault_assumption("wal", target = kv, write = deny("EIO", probability = 0.5, max_fires = 2, path = "**/kv.wal"))

def scenario_sets():
    return mark(sets())

fault_scenario("scenario_wal", scenario = scenario_sets, faults = [wal])
)";

// What each leaf of such a test returns: its first two writes' fates.
const std::vector<std::string> kPinned = {"\"..\"", "\"x.\"", "\".x\"", "\"xx\""};

// The rows' return values of test `name`, in leaf order.
std::vector<std::string> returnedBy(const RunReport &r, const std::string &name) {
  std::vector<std::string> out;
  for (const TestOutcome &o : r.tests)
    if (o.name == name)
      out.push_back(o.returnValue);
  return out;
}

TEST_F(LeafContract, ProbabilitySitesAsLowered) {
  load(kProbabilitySpec);
  for (const char *name : {"test_literal", "test_global", "test_scenario_wal"}) {
    const ir::LeafTest &t = programTest(name);
    ASSERT_EQ(t.axes.size(), 1u) << name;
    ASSERT_EQ(t.axes[0].plan.ruleSites.size(), 1u) << name;
    EXPECT_EQ(t.axes[0].plan.ruleSites[0].service, 0) << name;
    EXPECT_EQ(t.axes[0].plan.ruleSites[0].keyword, "write") << name;
  }
  RunReport r = run();
  EXPECT_EQ(returnedBy(r, "test_literal"), kPinned);
  EXPECT_EQ(returnedBy(r, "test_global"), kPinned);
  EXPECT_EQ(returnedBy(r, "test_scenario_wal"), kPinned);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0].message;
}

TEST_F(LeafContract, ProbabilitySitesAreKeyedByCallSiteNotKey) {
  load(kProbabilitySpec);
  // Renamed: the key is a label; the run still finds each rule's axis by
  // where it comes into force and pins its occurrences.
  for (const char *name : {"test_literal", "test_global", "test_scenario_wal"})
    programTest(name).axes[0].plan.name = "renamed";
  RunReport renamed = run();
  EXPECT_EQ(returnedBy(renamed, "test_literal"), kPinned);
  EXPECT_EQ(returnedBy(renamed, "test_global"), kPinned);
  EXPECT_EQ(returnedBy(renamed, "test_scenario_wal"), kPinned);
  EXPECT_TRUE(renamed.warnings.empty()) << renamed.warnings[0].message;
  // The key is what the program says, in the leaf's label.
  std::vector<const TestOutcome *> all = rows(renamed);
  auto leaf1 = std::find_if(all.begin(), all.end(), [](const TestOutcome *o) {
    return o->name == "test_global" && o->leaf && o->leaf->id == "1";
  });
  ASSERT_NE(leaf1, all.end());
  EXPECT_EQ((*leaf1)->leaf->label, "renamed[10]");

  // Keyed "kv:write" as the spec would key it, but at no rule's site: no
  // rule is pinned, each says so once, and the occurrences come from the
  // seeded stream.
  for (const char *name : {"test_literal", "test_global", "test_scenario_wal"}) {
    ir::PlanAxis *plan = &programTest(name).axes[0].plan;
    plan->name = "kv:write";
    plan->ruleSites.clear();
  }
  RunReport moved = run();
  ASSERT_EQ(moved.tests.size(), 12u);
  ASSERT_EQ(moved.warnings.size(), 3u);
  for (const RunWarning &w : moved.warnings)
    EXPECT_NE(w.message.find("probability site \"kv:write\" is not a planned axis of this test"),
              std::string::npos)
        << w.message;
}

} // namespace
} // namespace fbc::rt
