// End-to-end tests of unmediated I/O and determinism L1 (issue #17): the
// nondet_* fixtures (tests/fixtures/nondet_*.c, one per determinism
// category) under the specs run_specs/determinism_*.star, through the real
// fbc binary. Each category's spec trips it and the whole text and JSON
// reports are compared with golden/<spec>.txt / .json (fbc_run.h says what
// is normalised). Event counts are exact: each fixture command makes its
// calls once.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <cstdio>
#include <string>
#include <vector>

namespace fbc::rt::e2e {
namespace {

// The manifest.json of the bundle a run named on stderr ("Bundle: <path>").
std::string bundleManifest(const FbcRun &r, const Spec &spec) {
  std::string path;
  EXPECT_TRUE(RE2::PartialMatch(r.err, R"((?m)^Bundle: (.*)$)", &path)) << r.err;
  std::string cmd = "tar --zstd -xOf '" + spec.dir.path() + "/" + path + "' manifest.json";
  std::string out;
  if (FILE *p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
      out.append(buf, n);
    pclose(p);
  }
  return out;
}

// Runs `name` with --seed 1 in text and JSON, expecting `exit` from both,
// and compares both reports with their goldens. Returns the text report;
// `manifest` gets the text run's bundle manifest, `json` the JSON report.
std::string runBoth(const std::string &name, int exit, std::string *manifest = nullptr,
                    std::string *json = nullptr) {
  Spec spec(name);
  std::vector<std::string> args = {"run", spec.path, "--seed", "1"};
  FbcRun text = runFbc(args, spec.dir.path());
  EXPECT_EQ(text.exit, exit) << text.out << text.err;
  if (manifest)
    *manifest = bundleManifest(text, spec);
  checkGolden(name, normalize(text.out, spec));
  args.push_back("--format=json");
  FbcRun jsonRun = runFbc(args, spec.dir.path());
  EXPECT_EQ(jsonRun.exit, exit) << jsonRun.out << jsonRun.err;
  checkGolden(name, normalizeJson(jsonRun.out, spec), ".json");
  if (json)
    *json = jsonRun.out;
  return normalize(text.out, spec);
}

TEST(Determinism, RandGetrandomAndDevUrandom) {
  std::string manifest;
  std::string out = runBoth("determinism_rand", 2, &manifest);
  // The bundle's rows carry the outcome word too.
  EXPECT_TRUE(contains(manifest, "\"outcome\": \"strict_determinism_violation\"")) << manifest;
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
  std::string json;
  std::string out = runBoth("determinism_network", 2, nullptr, &json);
  EXPECT_TRUE(contains(out, "--- FAIL: test_undeclared_port (")) << out;
  EXPECT_TRUE(contains(out, "  unmediated_io[network-unmediated] from net: connect 127.0.0.1:1\n"))
      << out;
  EXPECT_TRUE(contains(out, "--- FAIL: test_raw_socket (")) << out;
  EXPECT_TRUE(
      contains(out, "  unmediated_io[network-unmediated] from net: socket SOCK_RAW socket\n"))
      << out;
  EXPECT_TRUE(contains(out, "--- PASS: test_declared_port (")) << out;
  // The matrix cell that dials an undeclared port: FAIL in the table, the
  // outcome word in JSON.
  EXPECT_TRUE(contains(out, "dial_undeclared  │ FAIL")) << out;
  EXPECT_TRUE(contains(json, "\"outcome\": \"strict_determinism_violation\"")) << json;
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
  // The rule never fired: the verdict says so.
  EXPECT_TRUE(contains(out, "--- PASS (fault_bypassed): test_uring_under_write_rule (")) << out;
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
  size_t after = out.find(": test_uring_after_the_rule (");
  ASSERT_NE(after, std::string::npos) << out;
  size_t next = out.find("\n---", after + 1);
  EXPECT_FALSE(contains(out.substr(after, next - after), "unmediated_io")) << out;
}

} // namespace
} // namespace fbc::rt::e2e
