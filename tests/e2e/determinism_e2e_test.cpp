// End-to-end tests of unmediated I/O and determinism L1 (issue #17): the
// nondet_* fixtures (tests/fixtures/nondet_*.c, one per determinism
// category) under the specs run_specs/determinism_*.star, through the real
// fbc binary. Each category's spec trips it and the whole text and JSON
// reports are compared with golden/<spec>.txt / .json (fbc_run.h says what
// is normalised). Event counts are exact: each fixture command makes its
// calls once.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

// Runs `name` with --seed 1 in text and JSON, expecting `exit` from both,
// and compares both reports with their goldens. Returns the text report.
std::string runBoth(const std::string &name, int exit, std::vector<std::string> extra = {}) {
  Spec spec(name);
  std::vector<std::string> args = {"run", spec.path, "--seed", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  FbcRun text = runFbc(args, spec.dir.path());
  EXPECT_EQ(text.exit, exit) << text.out << text.err;
  checkGolden(name, normalize(text.out, spec));
  args.push_back("--format=json");
  FbcRun json = runFbc(args, spec.dir.path());
  EXPECT_EQ(json.exit, exit) << json.out << json.err;
  checkGolden(name, normalizeJson(json.out, spec), ".json");
  return normalize(text.out, spec);
}

TEST(Determinism, RandGetrandomAndDevUrandom) {
  std::string out = runBoth("determinism_rand", 2);
  EXPECT_TRUE(contains(out, "--- FAIL: test_getrandom (")) << out;
  EXPECT_TRUE(contains(out, "  reason: strict determinism: unmediated_io[rand] from service "
                            "\"rng\" (syscall=getrandom) — add \"rand\" to "
                            "determinism(allow=...) or service(\"rng\", nondeterministic_ok=[...]) "
                            "to tolerate, or fix the underlying I/O leak\n"))
      << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[rand] from rng: openat /dev/urandom\n")) << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[rand] from rng: openat /dev/random\n")) << out;
  EXPECT_TRUE(contains(out, "2 passed, 2 failed")) << out;
}

TEST(Determinism, ClockSyscallSeenVdsoNot) {
  std::string out = runBoth("determinism_clock", 2);
  // One raw clock_gettime; the two vDSO reads never reach seccomp.
  EXPECT_TRUE(contains(out, "  unmediated_io[clock] from clock: clock_gettime\n")) << out;
  EXPECT_TRUE(contains(out, "unmediated_io[clock] from service \"clock\" (syscall=clock_gettime)"))
      << out;
  EXPECT_FALSE(contains(out, "gettimeofday\n")) << out;
}

TEST(Determinism, DnsToPort53) {
  std::string out = runBoth("determinism_dns", 2);
  EXPECT_TRUE(contains(out, "  unmediated_io[dns] from resolver: sendto 127.0.0.1:53\n")) << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[dns] from resolver: connect 127.0.0.1:53\n")) << out;
}

TEST(Determinism, NetworkUndeclaredPortAndRawSocket) {
  std::string out = runBoth("determinism_network", 2);
  EXPECT_TRUE(contains(out, "--- FAIL: test_undeclared_port (")) << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[network-unmediated] from net: connect 127.0.0.1:1\n"))
      << out;
  EXPECT_TRUE(contains(out, "--- FAIL: test_raw_socket (")) << out;
  EXPECT_TRUE(
      contains(out, "  unmediated_io[network-unmediated] from net: socket SOCK_RAW socket\n"))
      << out;
  EXPECT_TRUE(contains(out, "--- PASS: test_declared_port (")) << out;
}

TEST(Determinism, FsUnmediatedIoUring) {
  std::string out = runBoth("determinism_fs", 2);
  EXPECT_TRUE(contains(out, "  unmediated_io[fs-unmediated] from files: io_uring_setup\n")) << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[fs-unmediated] from files: io_uring_enter\n")) << out;
}

TEST(Determinism, AllowToleratesCategories) {
  std::string out = runBoth("determinism_allow", 0);
  EXPECT_TRUE(contains(out, "--- PASS: test_allowed_categories (")) << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[clock] from clock: clock_gettime\n")) << out;
}

TEST(Determinism, NotStrictRecordsOnly) {
  std::string out = runBoth("determinism_lenient", 0);
  EXPECT_TRUE(contains(out, "--- PASS: test_recorded_not_failed (")) << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[rand] from rng: getrandom\n")) << out;
}

// Issue #17's acceptance line: an io_uring write under a write rule gives
// unmediated_io (and the rule never fires); the other bypasses likewise;
// nothing is recorded once the rule is gone.
TEST(Unmediated, BypassesUnderRules) {
  std::string out = runBoth("unmediated_bypass", 0);
  EXPECT_TRUE(contains(out, "  unmediated_io[fs-unmediated] from files: io_uring_enter (bypasses "
                            "the write rule)\n"))
      << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[fs-unmediated] from files: mmap $DIR/map.txt "
                            "(bypasses the write rule)\n"))
      << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[fs-unmediated] from files: msync (bypasses the fsync "
                            "rule)\n"))
      << out;
  for (const char *sc : {"copy_file_range $DIR/a.txt", "sendfile $DIR/b.txt", "splice $DIR/c.txt"})
    EXPECT_TRUE(contains(out, std::string("from files: ") + sc + " (bypasses the write rule)\n"))
        << sc << "\n"
        << out;
  EXPECT_TRUE(contains(out, "from files: sync_file_range $DIR/s.txt (bypasses the fsync rule)\n"))
      << out;
  EXPECT_TRUE(contains(out, "from files: syncfs $DIR/s.txt (bypasses the fsync rule)\n")) << out;
  // After its window the rule is not in force: the same write is not recorded.
  size_t after = out.find("--- PASS: test_uring_after_the_rule (");
  ASSERT_NE(after, std::string::npos) << out;
  size_t next = out.find("\n---", after + 1);
  EXPECT_FALSE(contains(out.substr(after, next - after), "unmediated_io")) << out;
}

} // namespace
} // namespace fbc::rt::e2e
