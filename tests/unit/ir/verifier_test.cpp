// The verifier on hand-built IR: each case breaks one rule.
#include "frontend/lib/objects.h"
#include "ir/verify/verifier.h"

#include <gtest/gtest.h>

namespace fbc::ir {
namespace {

class VerifierTest : public testing::Test {
protected:
  VerifierTest() : file_("spec.star", std::string(20, '\n')) {
    Service db;
    db.name = "db";
    db.binary = "/bin/db";
    db.interfaces.push_back({"main", "tcp", 5432, "", at(2), {}});
    db.loc = at(1);
    Service api;
    api.name = "api";
    api.binary = "/bin/api";
    api.dependsOn.push_back({"db", at(4)});
    api.loc = at(3);
    spec_.services = {db, api};

    FaultAssumption down;
    down.name = "db_down";
    down.target = {"db", ""};
    FaultRule r;
    r.keyword = "connect";
    r.syscalls = {"connect"};
    r.fault.errnoName = "ECONNREFUSED";
    r.fault.errnoNumber = 111;
    down.rules.push_back(r);
    down.loc = at(5);
    spec_.assumptions = {down};

    ir::Test t;
    t.name = "test_down";
    t.kind = TestKind::FaultScenario;
    t.body = FunctionRef{"scenario", star::none(), nullptr, at(6)};
    t.faults = {"db_down"};
    t.timeoutNs = 30000000000;
    t.loc = at(7);
    spec_.tests = {t};
  }

  Loc at(uint32_t line) { return Loc{&file_, {line, 1}}; }

  // The verifier's messages, one per error.
  std::vector<std::string> errors() {
    frontend::DiagnosticList diags;
    bool ok = verifySpec(spec_, diags);
    std::vector<std::string> out;
    for (const frontend::Diagnostic &d : diags.all())
      out.push_back(std::to_string(d.pos.line) + ": " + d.message);
    EXPECT_EQ(ok, out.empty());
    return out;
  }

  frontend::SourceFile file_;
  Spec spec_;
};

using Messages = std::vector<std::string>;

TEST_F(VerifierTest, AcceptsAWellFormedSpec) {
  EXPECT_EQ(errors(), Messages{});
}

TEST_F(VerifierTest, UndeclaredDependency) {
  spec_.services[1].dependsOn.push_back({"cahce", at(9)});
  spec_.services[1].dependsOn.push_back({"zzz", at(10)});
  EXPECT_EQ(errors(), (Messages{
                          "9: service \"api\" depends on \"cahce\", which is not a declared "
                          "service (declared: db)",
                          "10: service \"api\" depends on \"zzz\", which is not a declared "
                          "service (declared: db)",
                      }));
}

TEST_F(VerifierTest, DependencyCycle) {
  spec_.services[0].dependsOn.push_back({"api", at(9)});
  EXPECT_EQ(errors(), Messages{"4: dependency cycle: api -> db -> api"});
}

TEST_F(VerifierTest, ServicesOutOfOrder) {
  std::swap(spec_.services[0], spec_.services[1]);
  EXPECT_EQ(errors(), Messages{"3: services are out of dependency order: \"api\" comes before "
                               "its dependency \"db\""});
}

TEST_F(VerifierTest, DuplicateServiceAndInterface) {
  spec_.services[1].name = "db";
  spec_.services[1].dependsOn.clear();
  spec_.services[0].interfaces.push_back({"main", "tcp", 70000, "", at(8), {}});
  EXPECT_EQ(errors(), (Messages{
                          "8: service \"db\": duplicate interface \"main\"",
                          "8: service \"db\": interface \"main\" port 70000 is out of range "
                          "(1-65535)",
                          "3: duplicate service name \"db\" (first declared at spec.star:1:1)",
                      }));
}

TEST_F(VerifierTest, ErrnoNumberMatchesItsName) {
  // The runtime answers with the number the IR carries; the verifier holds
  // it to the name `fbc ir` prints.
  spec_.assumptions[0].rules[0].fault.errnoNumber = 5;
  EXPECT_EQ(errors(), (Messages{"0: fault assumption \"db_down\" rule \"connect\": errno "
                                "\"ECONNREFUSED\" carries number 5"}));
}

TEST_F(VerifierTest, FaultRuleInvariants) {
  Fault &f = spec_.assumptions[0].rules[0].fault;
  f.errnoName = "EPIPE";
  f.probability = 1.5;
  f.maxFires = 2;
  EXPECT_EQ(errors(), (Messages{
                          "0: fault assumption \"db_down\" rule \"connect\": unknown errno "
                          "\"EPIPE\"; supported: EACCES, EADDRINUSE, EADDRNOTAVAIL, EAGAIN, "
                          "EBUSY, ECONNABORTED, ECONNREFUSED, ECONNRESET, EDEADLK, EDQUOT, "
                          "EEXIST, EFBIG, EHOSTUNREACH, EINTR, EINVAL, EIO, ELOOP, EMFILE, "
                          "ENETUNREACH, ENFILE, ENOENT, ENOLCK, ENOMEM, ENOSPC, ENOSYS, "
                          "ENOTEMPTY, EPERM, EROFS, ETIMEDOUT",
                          "0: fault assumption \"db_down\" rule \"connect\": probability must "
                          "be in [0, 1]",
                          "0: fault assumption \"db_down\" rule \"connect\": max_fires= is "
                          "only meaningful with probability < 1",
                          "0: fault assumption \"db_down\" rule \"connect\": max_fires= "
                          "requires mode=\"exhaustive\"",
                      }));
}

TEST_F(VerifierTest, RuleKeywordsAreSyscallNames) {
  FaultRule raw = spec_.assumptions[0].rules[0];
  raw.keyword = "unlinkat"; // not a keyword, but a syscall: covers itself
  raw.syscalls = {"unlinkat"};
  FaultRule bogus = raw;
  bogus.keyword = "unlinkatt";
  bogus.syscalls = {"unlinkatt"};
  bogus.loc = at(9);
  spec_.assumptions[0].rules.push_back(raw);
  spec_.assumptions[0].rules.push_back(bogus);
  EXPECT_EQ(errors(), (Messages{
                          "9: fault assumption \"db_down\" rule \"unlinkatt\": \"unlinkatt\" is "
                          "not a syscall",
                      }));
}

TEST_F(VerifierTest, AssumptionReferences) {
  spec_.assumptions[0].target = {"db", "admin"};
  spec_.assumptions[0].faults = {"later"};
  EXPECT_EQ(errors(), (Messages{
                          "5: fault assumption \"db_down\" targets interface \"admin\", which "
                          "service \"db\" does not have",
                          "5: fault assumption \"db_down\" composes \"later\", which is not a "
                          "fault assumption declared before it",
                      }));
}

TEST_F(VerifierTest, TestInvariants) {
  ir::Test t = spec_.tests[0];
  t.kind = TestKind::Def;
  spec_.tests.push_back(t); // same name again, and a def with faults
  spec_.tests[0].faults = {"nope"};
  EXPECT_EQ(errors(), (Messages{
                          "7: test \"test_down\" applies \"nope\", which is not a fault "
                          "assumption",
                          "7: duplicate test \"test_down\"",
                          "7: test \"test_down\" of kind def cannot apply faults",
                      }));
}

TEST_F(VerifierTest, MatrixCellNeedsItsMatrix) {
  spec_.tests[0].kind = TestKind::FaultMatrix;
  EXPECT_EQ(errors(), Messages{"7: test \"test_down\" is a matrix cell without a matrix"});
}

TEST_F(VerifierTest, Determinism) {
  spec_.determinism.level = "L3";
  spec_.determinism.allow = {"time"};
  EXPECT_EQ(errors(), (Messages{
                          "0: determinism level \"L3\" is not L0 or L1",
                          "0: unknown determinism allow category \"time\"",
                      }));
}

} // namespace
} // namespace fbc::ir
