// What `fbc ir` prints for a fault rule (ir::FaultRule::syscalls, the
// "syscalls" list of `fbc ir --json` and the `-> [...]` of the text form) is
// exactly what the runtime's filter traps for that rule on its target.
#include "backend/rule_lower.h"
#include "ir/load/load_spec.h"
#include "ir/syscalls.h"
#include "runtime/os/syscalls.h"
#include "runtime/rules/rules.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <set>
#include <string>

namespace fbc::rt {
namespace {

// One assumption per syscall keyword, plus an op whose syscalls are a
// family, a keyword and a plain syscall name.
std::string specText() {
  std::string s = R"(kv = service("kv", "/bin/true", interface("main", "tcp", 7001),
             ops = {"persist": op(syscalls = ["write", "fsync", "unlinkat"])})
other = service("other", "/bin/true", interface("main", "tcp", 7002))
)";
  for (std::string_view k : ir::syscallKeywords())
    s += "fault_assumption(\"a_" + std::string(k) + "\", target = kv, " + std::string(k) +
         " = deny(\"EIO\"))\n";
  s += "fault_assumption(\"a_op\", target = kv, persist = deny(\"EIO\"))\n";
  return s;
}

TEST(SyscallFamilies, WhatFbcIrPrintsIsWhatTheFilterTraps) {
  char tmpl[] = "/tmp/fbc-families-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  std::string path = dir + "/spec.star";
  std::ofstream(path) << specText();
  std::unique_ptr<ir::LoadedSpec> loaded = ir::loadSpec(path);
  unlink(path.c_str());
  rmdir(dir.c_str());
  ASSERT_TRUE(loaded->ok());
  const ir::Spec &spec = loaded->spec();
  ASSERT_EQ(spec.assumptions.size(), ir::syscallKeywords().size() + 1);

  ServiceId kv = kNoService;
  for (size_t i = 0; i < spec.services.size(); ++i)
    if (spec.services[i].name == "kv")
      kv = static_cast<ServiceId>(i);
  ASSERT_NE(kv, kNoService);

  for (const ir::FaultAssumption &a : spec.assumptions) {
    ASSERT_EQ(a.rules.size(), 1u) << a.name;
    const ir::FaultRule &rule = a.rules[0];
    // The runtime puts one rule per op syscall in force, else one per keyword.
    std::vector<RuleSpec> rules;
    std::vector<std::string> keywords{rule.keyword};
    if (!rule.op.empty())
      keywords = {"write", "fsync", "unlinkat"};
    for (const std::string &k : keywords) {
      RuleSpec r;
      r.target = kv;
      r.syscall = k;
      r.nrs = backend::keywordSyscalls(k);
      rules.push_back(r);
    }
    std::vector<std::vector<int>> sets;
    std::string error;
    ASSERT_TRUE(trapSets(spec.services.size(), rules, sets, error)) << error;
    std::set<std::string> trapped;
    for (int nr : sets[kv])
      trapped.insert(std::string(syscallName(nr)));

    std::set<std::string> printed;
    for (const std::string &s : rule.syscalls)
      if (syscallNumber(s) >= 0) // a member this architecture lacks is printed, not trapped
        printed.insert(s);
    EXPECT_EQ(printed, trapped) << a.name;
#if defined(__x86_64__) // every member exists on amd64 (open and creat do not on arm64)
    EXPECT_EQ(printed.size(), rule.syscalls.size()) << a.name;
#endif
  }
}

TEST(SyscallFamilies, WriteCoversTheVectoredAndPositionalVariants) {
  std::vector<int> nrs = backend::keywordSyscalls("write");
  std::set<std::string> names;
  for (int nr : nrs)
    names.insert(std::string(syscallName(nr)));
  EXPECT_EQ(names, (std::set<std::string>{"write", "writev", "pwrite64", "pwritev", "pwritev2"}));
}

} // namespace
} // namespace fbc::rt
