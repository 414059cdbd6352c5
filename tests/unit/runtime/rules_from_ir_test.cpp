// The filter of each test traps exactly the syscalls its rules could touch,
// computed from the IR by the lowering (passes/trap_scan.h into
// LeafTest::traps, as syscall numbers) and trapped by the run as they are
// (LeafTest::trapsFor).
#include "backend/leaf_lower.h"
#include "ir/load/load_spec.h"
#include "passes/pass_manager.h"
#include "runtime/os/syscalls.h"
#include "runtime/rules/rules.h"
#include "runtime/rules/rules_from_ir.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace fbc::rt {
namespace {

class TrapSets : public ::testing::Test {
protected:
  void load(const std::string &body) {
    char tmpl[] = "/tmp/fbc-traps-XXXXXX";
    dir_ = mkdtemp(tmpl);
    std::string path = dir_ + "/spec.star";
    std::ofstream(path) << R"(
kv = service("kv", "/bin/true", interface("main", "tcp", 7001),
             ops = {"persist": op(syscalls = ["fsync"], path = "/data/**")})
api = service("api", "/bin/true", interface("public", "http", 7002), depends_on = [kv])
db = service("db", "/bin/true", interface("main", "tcp", 7003))
disk_full = fault_assumption("disk_full", target = kv, write = deny("ENOSPC"))
kv_down = fault_assumption("kv_down", target = kv, connect = deny("ECONNREFUSED"))
both = fault_assumption("both", faults = [disk_full, kv_down])
def scen():
    return api.get(path = "/")
fault_scenario("full", scenario = scen, faults = disk_full)
fault_scenario("composed", scenario = scen, faults = [both])
)" << body;
    loaded_ = ir::loadSpec(path);
    ASSERT_TRUE(loaded_->ok());
  }
  void TearDown() override {
    if (!dir_.empty()) {
      unlink((dir_ + "/spec.star").c_str());
      rmdir(dir_.c_str());
    }
  }

  // "svc: a b c" per service in spec order (topological, name tie-break:
  // db, kv, api), syscalls by number.
  std::string traps(const std::string &test) {
    // The path of a run: plan, lower, trap what the leaf program says.
    ir::Plan plan = passes::buildPlan(loaded_->spec());
    ir::LeafProgram program = backend::lowerToLeaves(plan);
    const ir::LeafTest *lt = program.find(test);
    EXPECT_NE(lt, nullptr) << test;
    if (!lt)
      return "";
    std::vector<std::vector<int>> sets = lt->trapsFor(lt->decode(0));
    std::string out;
    for (size_t i = 0; i < sets.size(); ++i) {
      out += loaded_->spec().services[i].name + ":";
      for (int nr : sets[i]) {
        out += ' ';
        out += syscallName(nr);
      }
      out += "\n";
    }
    return out;
  }

  std::string dir_;
  std::unique_ptr<ir::LoadedSpec> loaded_;
};

TEST_F(TrapSets, NoFaultNoFilter) {
  load("def test_plain():\n    api.get(path = '/')\n");
  EXPECT_EQ(traps("test_plain"), "db:\nkv:\napi:\n");
}

TEST_F(TrapSets, BodyFaultTrapsTheFamilyOnTheTargetOnly) {
  load("def test_w():\n    fault(kv, write = deny('EIO'), run = lambda: None)\n");
  EXPECT_EQ(traps("test_w"), "db:\nkv: write pwrite64 writev pwritev pwritev2\napi:\n");
}

TEST_F(TrapSets, ConnectOnATargetTrapsConnectEverywhere) {
  // Other services' connects to kv's port must reach the supervisor.
  load("def test_c():\n    fault(kv, connect = deny('ECONNREFUSED'), run = lambda: None)\n");
  EXPECT_EQ(traps("test_c"), "db: connect\nkv: connect\napi: connect\n");
}

TEST_F(TrapSets, HelpersNestedDefsAndOpsAreFollowed) {
  load(R"(
def helper():
    def inner():
        return fault(kv, persist = deny("EIO"), run = lambda: None)
    return inner()
def test_h():
    helper()
def unrelated():
    fault(db, read = deny("EIO"), run = lambda: None)
)");
  EXPECT_EQ(traps("test_h"), "db:\nkv: fsync fdatasync\napi:\n");
}

TEST_F(TrapSets, AssumptionsOfScenariosAndCompositions) {
  load("");
  EXPECT_EQ(traps("test_full"), "db:\nkv: write pwrite64 writev pwritev pwritev2\napi:\n");
  EXPECT_EQ(traps("test_composed"),
            "db: connect\nkv: write pwrite64 writev connect pwritev pwritev2\napi: connect\n");
}

TEST_F(TrapSets, FaultWithAnAssumptionValue) {
  load("def test_a():\n    fault(disk_full, run = lambda: None)\n");
  EXPECT_EQ(traps("test_a"), "db:\nkv: write pwrite64 writev pwritev pwritev2\napi:\n");
}

TEST_F(TrapSets, UnresolvableTargetIsWidenedToEveryService) {
  load(R"(
def test_u():
    for s in [kv, db]:
        fault(s, fsync = deny("EIO"), run = lambda: None)
)");
  EXPECT_EQ(traps("test_u"), "db: fsync fdatasync\nkv: fsync fdatasync\napi: fsync fdatasync\n");
}

} // namespace
} // namespace fbc::rt
