// What this machine cannot run (docs/run.md "What this machine cannot
// run"): each test that needs a container runtime or the gVisor runtime
// gets exactly one error row naming the need and the machine's answer, in
// the text and JSON reports and JUnit like any other error, while the
// other tests of the spec run. PATH is set per run, so what the machine
// "has" is the test's choice: a folder with only tar and zstd (for the
// bundle check), or that and a stand-in `docker` client with no daemon.
// Likewise LD_LIBRARY_PATH for the optional libraries fbc loads on first
// use: whatever needed a missing one says which and why.
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// One environment variable set for the runs in its scope; its old value,
// or its absence, comes back after.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  const char *name_;
  std::optional<std::string> old_;
};

// Runs fbc with PATH=`path` and a docker daemon address nothing answers
// at.
FbcRun runWithPath(const std::string &path, const std::vector<std::string> &args,
                   const std::string &cwd) {
  ScopedEnv bin("PATH", path), docker("DOCKER_HOST", "unix:///nonexistent/docker.sock");
  return runFbc(args, cwd);
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
  EXPECT_TRUE(contains(r.out, "\n0 passed, 0 failed, 2 errored\n")) << r.out;
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
  EXPECT_TRUE(contains(r.out, "\n2 passed, 0 failed, 5 errored\n")) << r.out;
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

// A machine without the optional libraries fbc loads on first use
// (frontend/support/lazy_library.h): an empty file under each one's soname
// in libs/, which LD_LIBRARY_PATH=libs (relative: the messages name it so)
// makes dlopen() find first and refuse. Each spec is written to `dir`, with
// $WEB and $DB replaced by free ports.
struct WithoutLibraries {
  TempDir dir;
  std::string web = std::to_string(freePort()), db = std::to_string(freePort());
  WithoutLibraries() {
    EXPECT_EQ(mkdir(dir.file("libs").c_str(), 0755), 0);
    for (const char *soname : {"libcurl.so.4", "libmicrohttpd.so.12", "libpq.so.5",
                               "libarchive.so.13", "libhogweed.so.6"})
      std::ofstream(dir.file(std::string("libs/") + soname));
  }
  std::string ports(std::string s) const {
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"$WEB", web}, {"$DB", db}})
      for (size_t at; (at = s.find(from)) != std::string::npos;)
        s.replace(at, from.size(), to);
    return s;
  }
  FbcRun run(const std::string &spec, std::vector<std::string> args) {
    std::ofstream(dir.file("spec.star")) << ports(spec);
    args.insert(args.begin() + 1, "spec.star");
    ScopedEnv libs("LD_LIBRARY_PATH", "libs");
    return runFbc(args, dir.path());
  }
};

std::string cannotLoad(const std::string &soname, const std::string &package) {
  return soname + " could not be loaded (Debian package " + package + "): libs/" + soname +
         ": file too short";
}

TEST(CannotRun, MissingLibraryIsNamedByWhatNeedsIt) {
  WithoutLibraries m;
  const std::string svc = R"(svc = service("svc", "/bin/sleep", interface("web", "http", $WEB),
              interface("db", "postgres", $DB), args = ["30"])";
  // The HTTP and Postgres steps: an error value the test sees.
  FbcRun r = m.run(svc + R"()
def test_http():
    assert_eq(svc.web.get(path = "/").error, None)
def test_pg():
    assert_eq(svc.db.query("SELECT 1").message, None)
)",
                   {"run", "--no-bundle"});
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "  reason: assert_eq failed: \"curl_easy_init failed: " +
                                  cannotLoad("libcurl.so.4", "libcurl4") + "\" != None\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "  reason: assert_eq failed: \"" +
                                  cannotLoad("libpq.so.5", "libpq5") + "\" != None\n"))
      << r.out;

  // The http() and postgres() healthchecks: the probe's error, until the
  // deadline.
  for (const auto &[healthcheck, reason] : std::vector<std::pair<std::string, std::string>>{
           {R"(http("localhost:$WEB/", timeout = "100ms"))",
            "http http://127.0.0.1:$WEB/ not ready after 100ms: curl_easy_init failed: " +
                cannotLoad("libcurl.so.4", "libcurl4")},
           {R"(postgres("localhost:$DB", timeout = "100ms"))",
            "postgres 127.0.0.1:$DB not ready after 100ms: " + cannotLoad("libpq.so.5", "libpq5")},
       }) {
    r = m.run(svc + ", healthcheck = " + healthcheck + ")\ndef test_svc():\n    pass\n",
              {"run", "--no-bundle"});
    EXPECT_TRUE(contains(
        r.out, m.ports("  reason: service \"svc\": healthcheck timed out (" + reason + ")\n")))
        << r.out;
  }

  // An HTTP mock does not start; the row says why.
  r = m.run(R"(
m = mock_service("m", interface("api", "http", $WEB), routes = {"GET /": status_only(204)})
def test_m():
    pass
)",
            {"run", "--no-bundle"});
  EXPECT_TRUE(contains(r.out, "  reason: service \"m\": launch failed (mock api: " +
                                  cannotLoad("libmicrohttpd.so.12", "libmicrohttpd12") + ")\n"))
      << r.out;

  // The bundle: the run's rows, then exit 1 (bundles need libarchive).
  r = m.run("def test_ok():\n    pass\n", {"run"});
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "--- PASS: test_ok (")) << r.out;
  EXPECT_TRUE(contains(r.err, "fbc: error: bundles need libarchive: " +
                                  cannotLoad("libarchive.so.13", "libarchive13") + "\n"))
      << r.err;

  // jwt_keypair() at load: a spec error.
  r = m.run("kp = jwt_keypair(kid = \"k\")\n", {"ir"});
  EXPECT_EQ(r.exit, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "spec.star:1:17: error: jwt_keypair: " +
                                  cannotLoad("libhogweed.so.6", "libhogweed6") + "\n"))
      << r.err;
}

} // namespace
} // namespace fbc::rt::e2e
