// What this machine cannot run (docs/run.md "What this machine cannot
// run"): each test that needs a container runtime or the gVisor runtime
// gets exactly one error row naming the need and the machine's answer, in
// the text and JSON reports and JUnit like any other error, while the
// other tests of the spec run. PATH is set per run, so what the machine
// "has" is the test's choice: a folder with only tar and zstd (for the
// bundle check), or that and a stand-in `docker` client with no daemon.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace fbc::rt::e2e {
namespace {

// The first `name` on the test's own PATH.
std::string which(const std::string &name) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  for (size_t at = 0;;) {
    size_t colon = path.find(':', at);
    std::string file = path.substr(at, colon - at) + "/" + name;
    if (access(file.c_str(), X_OK) == 0)
      return file;
    if (colon == std::string::npos)
      return "";
    at = colon + 1;
  }
}

// A PATH folder with only what the bundle check needs (tar and the zstd it
// runs) and, when `docker` is set, a stand-in docker client: the machine
// has no container runtime and no gVisor, whatever this one has.
struct BareBin {
  TempDir dir;
  explicit BareBin(bool docker = false) {
    for (const char *tool : {"tar", "zstd"}) {
      if (std::string at = which(tool); !at.empty()) {
        EXPECT_EQ(symlink(at.c_str(), dir.file(tool).c_str()), 0) << tool;
      }
    }
    if (docker) {
      std::ofstream(dir.file("docker")) << "#!/bin/sh\nexit 1\n";
      chmod(dir.file("docker").c_str(), 0755);
    }
  }
};

// Runs fbc with PATH=`path` and a docker daemon address nothing answers
// at (both restored after).
FbcRun runWithPath(const std::string &path, const std::vector<std::string> &args,
                   const std::string &cwd) {
  const char *old = std::getenv("PATH");
  std::string saved = old ? old : "";
  setenv("PATH", path.c_str(), 1);
  setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock", 1);
  FbcRun r = runFbc(args, cwd);
  setenv("PATH", saved.c_str(), 1);
  unsetenv("DOCKER_HOST");
  return r;
}

std::string slurp(const std::string &file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CannotRun, ContainerServiceIsOneErrorRowPerTest) {
  Spec spec("cannot_run_container");
  BareBin bin;
  FbcRun r = runWithPath(bin.dir.path(), {"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  std::string reason = "  reason: service \"pg\": container services need a container runtime "
                       "(docker or podman not found)\n";
  size_t first = r.out.find(reason);
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_NE(r.out.find(reason, first + 1), std::string::npos) << r.out;
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_fans_out (")) << r.out;
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_one (")) << r.out;
  // One row for the test that fans out (3 leaves), not one per leaf.
  EXPECT_FALSE(contains(r.out, "[leaf")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n0 passed, 2 failed\n")) << r.out;
  checkGolden(spec.name, normalize(r.out, spec));
  // Nothing was started: no kv process.
  EXPECT_TRUE(processesIn(spec.dir.path()).empty());
}

TEST(CannotRun, DockerClientWithoutDaemonIsNamed) {
  Spec spec("cannot_run_container");
  BareBin bin(/*docker=*/true);
  std::string docker = bin.dir.file("docker");
  FbcRun r = runWithPath(bin.dir.path(), {"run", spec.path, "--seed", "1", "--test", "test_one"},
                         spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "  reason: service \"pg\": container services need a container "
                              "runtime (docker found at " +
                                  docker +
                                  ", but no daemon answers at /nonexistent/docker.sock; podman "
                                  "not found)\n"))
      << r.out;
}

TEST(CannotRun, PacketAndPartitionTestsErrorTheOthersRun) {
  Spec spec("cannot_run_packet");
  BareBin bin;
  std::string junit = spec.dir.file("junit.xml");
  FbcRun r = runWithPath(bin.dir.path(), {"run", spec.path, "--seed", "1", "--junit", junit},
                         spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_a_runs (")) << r.out;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_zz_runs_too (")) << r.out;
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_packet_drop (")) << r.out;
  // Found through the helper the test calls.
  EXPECT_TRUE(contains(r.out, "--- ERROR: test_partition_through_helper (")) << r.out;
  // A scenario's assumption with a packet rule, shapers, a file watch.
  for (const char *name : {"test_lossy_get", "test_shaped", "test_watched"})
    EXPECT_TRUE(contains(r.out, std::string("--- ERROR: ") + name + " (")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n2 passed, 5 failed\n")) << r.out;
  checkGolden(spec.name, normalize(r.out, spec));
  std::string xml = slurp(junit);
  EXPECT_TRUE(contains(xml, "<error message=\"packet_drop() needs the packet gateway, but this "
                            "spec runs on runtime=&quot;default&quot;"))
      << xml;

  FbcRun j =
      runWithPath(bin.dir.path(), {"run", spec.path, "--seed", "1", "--format=json", "--no-bundle"},
                  spec.dir.path());
  EXPECT_EQ(j.exit, 2) << j.out << j.err;
  checkGolden(spec.name, normalizeJson(j.out, spec), ".json");
}

TEST(CannotRun, GvisorRuntimeWithoutRunsc) {
  Spec spec("cannot_run_gvisor");
  BareBin bin;
  FbcRun r = runWithPath(bin.dir.path(), {"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_plain (")) << r.out;
  // Both needs of the one test, in the order its body has them.
  EXPECT_TRUE(contains(r.out, "  reason: packet_delay(): packet faults need the gVisor runtime "
                              "(runsc not found); watch(): file watches need container services "
                              "under the gVisor runtime (runsc not found)\n"))
      << r.out;
  checkGolden(spec.name, normalize(r.out, spec));
}

TEST(CannotRun, ProtocolFaultOnTlsInterface) {
  Spec spec("cannot_run_tls");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_plain (")) << r.out;
  checkGolden(spec.name, normalize(r.out, spec));
}

TEST(CannotRun, WhatOnlyTheBodyReachesIsAnErrorRowToo) {
  Spec spec("cannot_run_recipes");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS (fault_bypassed): test_stream_delay_runs (")) << r.out;
  for (const char *name :
       {"test_recipe_in_body", "test_partition_by_name", "test_recipe_in_assumption"})
    EXPECT_TRUE(contains(r.out, std::string("--- ERROR: ") + name + " (")) << r.out;
  checkGolden(spec.name, normalize(r.out, spec));
}

TEST(CannotRun, PlanNeverRefuses) {
  for (const char *name :
       {"cannot_run_container", "cannot_run_packet", "cannot_run_gvisor", "cannot_run_tls"}) {
    Spec spec(name);
    FbcRun r = runFbc({"plan", spec.path}, spec.dir.path());
    EXPECT_EQ(r.exit, 0) << name << r.out << r.err;
  }
}

} // namespace
} // namespace fbc::rt::e2e
