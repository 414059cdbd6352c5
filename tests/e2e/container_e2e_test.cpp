// Container services end to end (issue #27): the real fbc binary on the
// specs in container_specs/, against images tests/fixtures/containers/
// build_images.py builds from Debian's binaries (the CTest fixture
// containers.images), through whatever engine fbc finds or starts (Podman's
// API service here). Each report is compared whole with container_golden/,
// and after every run no container, network or volume of fbc's is left.
#include "bundle/archive.h"
#include "tests/e2e/e2e_util.h"
#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <re2/re2.h>
#include <simdjson.h>

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace fbc::rt::e2e {
namespace {

// A spec with a third free port, @CACHE_PORT@, filled in too.
struct ContainerSpec : Spec {
  uint16_t cachePort = freePort();
  explicit ContainerSpec(const std::string &name) : Spec(name) {
    while (cachePort == kvPort || cachePort == apiPort)
      cachePort = freePort();
    std::string file = dir.file("spec.star");
    std::string text = readFile(file);
    std::string port = std::to_string(cachePort);
    for (size_t p; (p = text.find("@CACHE_PORT@")) != std::string::npos;)
      text.replace(p, 12, port);
    std::ofstream(file) << text;
  }
};

std::string normalized(std::string out, const ContainerSpec &spec) {
  std::string port = std::to_string(spec.cachePort);
  for (size_t p; (p = out.find(port)) != std::string::npos;)
    out.replace(p, port.size(), "$CACHE_PORT");
  return normalize(out, spec);
}

// What `command` prints (its stdout).
std::string capture(const std::string &command) {
  std::string out;
  if (FILE *p = popen(command.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
      out.append(buf, n);
    pclose(p);
  }
  return out;
}

// The run labels (fbc.run=<fbc's pid>-<n>) of the containers and volumes
// and the names (fbc-<run>) of the networks that fbc `pid` left, one per
// line (podman's CLI reads the
// engine's storage directly: no service needs to run). Other fbc runs on
// the machine (another suite) are not this test's business.
std::string ofRun(const std::string &listed, pid_t pid) {
  std::string out, prefix = std::to_string(pid) + "-";
  std::istringstream lines(listed);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0 || line.rfind("fbc-" + prefix, 0) == 0 ||
        line.find("rror") != std::string::npos)
      out += line + "\n";
  return out;
}

std::string leftovers(pid_t pid) {
  const char *format = "--format '{{index .Labels \"fbc.run\"}}' 2>&1";
  return ofRun(capture(std::string("podman ps -a --filter label=fbc.run ") + format + "; " +
                       "podman network ls --filter label=fbc.run --format '{{.Name}}' 2>&1; " +
                       "podman volume ls --filter label=fbc.run " + format),
               pid);
}

// The containers of fbc `pid`'s run that are running now.
std::string runningContainers(pid_t pid) {
  return ofRun(
      capture("podman ps --filter label=fbc.run --format '{{index .Labels \"fbc.run\"}}' 2>&1"),
      pid);
}

int64_t nowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

FbcRun runGolden(const ContainerSpec &spec, int exit, const std::string &golden,
                 const std::vector<std::string> &more) {
  std::vector<std::string> args = {"run", spec.path, "--seed", "1", "--no-bundle"};
  args.insert(args.end(), more.begin(), more.end());
  FbcRun r = runFbc(args, spec.dir.path());
  EXPECT_EQ(r.exit, exit) << r.out << r.err;
  checkGolden(golden, normalized(r.out, spec));
  EXPECT_EQ(leftovers(r.pid), "");
  return r;
}

FbcRun runGolden(const ContainerSpec &spec, int exit, const std::string &golden) {
  return runGolden(spec, exit, golden, std::vector<std::string>());
}

TEST(Containers, NginxHealthcheckAndAnErrorRule) {
  runGolden(ContainerSpec("nginx"), 0, "nginx");
}

TEST(Containers, PostgresTrustAuthReadyAndAQueryError) {
  runGolden(ContainerSpec("postgres"), 0, "postgres");
}

TEST(Containers, ContainersReachEachOtherByName) {
  ContainerSpec spec("wiring");
  std::ofstream(spec.dir.file("front.conf")) << "server {\n"
                                                "    listen 80;\n"
                                                "    location / { proxy_pass http://back:80; }\n"
                                                "}\n";
  runGolden(spec, 0, "wiring");
}

// A binary stores in a container at its published address; a container
// reaches that binary at host.containers.internal:<its port> (the gateway
// relay fbc opens for what a container depends on).
TEST(Containers, BinariesAndContainersReachEachOtherBothWays) {
  ContainerSpec spec("wiring_binary");
  std::ofstream(spec.dir.file("front.conf"))
      << "server {\n"
         "    listen 80;\n"
         "    location / { proxy_pass http://host.containers.internal:"
      << spec.apiPort << "; }\n"
      << "}\n";
  runGolden(spec, 0, "wiring_binary");
}

// service(build=DIR): built through the engine from the context, tagged
// localhost/fbc-build-web:<16 hex of the files' SHA-256>. A second run
// builds nothing (the same tag, the same image); a changed file is a new
// tag whose container serves the change; a context without a Dockerfile is
// an error row naming the directory.
TEST(Containers, BuildFromADockerfileIsCachedByContent) {
  // A service name of this process's own: another suite on the same engine
  // (another worktree) builds and removes localhost/fbc-build-web too.
  std::string name = "web" + std::to_string(getpid());
  std::string ref = "localhost/fbc-build-" + name;
  auto images = [&] {
    return capture("podman images --filter reference=" + ref + " --format '{{.ID}} {{.Tag}}' 2>&1");
  };
  capture("podman rmi -f $(podman images -q --filter reference=" + ref + ") >/dev/null 2>&1");
  ContainerSpec spec("build");
  std::string text = readFile(spec.dir.file("spec.star"));
  text.replace(text.find("service(\"web\""), 13, "service(\"" + name + "\"");
  std::ofstream(spec.dir.file("spec.star")) << text;
  std::string ctx = spec.dir.file("web");
  ASSERT_EQ(mkdir(ctx.c_str(), 0755), 0);
  std::ofstream(ctx + "/Dockerfile") << "FROM nginx:1.27-alpine\n"
                                        "COPY index.html /usr/share/nginx/html/index.html\n";
  std::ofstream(ctx + "/index.html") << "built by fbc\n";
  runGolden(spec, 0, "build");
  std::string built = images();
  EXPECT_TRUE(RE2::FullMatch(built, R"([0-9a-f]{12} [0-9a-f]{16}\n)")) << built;
  runGolden(spec, 0, "build");
  EXPECT_EQ(images(), built) << "the same context is not built again";

  std::ofstream(ctx + "/index.html") << "changed\n";
  FbcRun changed = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(changed.exit, 2) << changed.out << changed.err;
  EXPECT_TRUE(contains(changed.out, "reason: assert_eq failed: \"changed\" != \"built by fbc\"\n"))
      << changed.out;
  std::string both = images();
  EXPECT_EQ(std::count(both.begin(), both.end(), '\n'), 2) << both;

  unlink((ctx + "/Dockerfile").c_str());
  FbcRun none = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(none.exit, 2) << none.out << none.err;
  EXPECT_TRUE(contains(none.out, "  reason: service \"" + name + "\": launch failed (build= \"" +
                                     ctx + "\": no Dockerfile in it)\n"))
      << none.out;
  EXPECT_EQ(leftovers(none.pid), "");
  capture("podman rmi -f $(podman images -q --filter reference=" + ref + ") >/dev/null 2>&1");
}

// service(observe=[...]) on a container: Redis's log lines, read from the
// engine when the body queries events and at stop, are stdout events the
// spec's assert_eventually / events / assert_never see.
TEST(Containers, ObservedContainerLogsAreEvents) {
  runGolden(ContainerSpec("observe"), 0, "observe");
}

TEST(Containers, MissingImageIsAnErrorRowNamingIt) {
  ContainerSpec spec("missing_image");
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  // What the engine says after "pulling it failed: " depends on the
  // machine's network (no registry, no DNS, a proxy): masked.
  std::string out = normalized(r.out, spec);
  EXPECT_EQ(RE2::GlobalReplace(&out, R"((pulling it failed: )[^\n]*\))", R"(\1$ENGINE_MESSAGE))"),
            1)
      << out;
  checkGolden("missing_image", out);
  EXPECT_EQ(leftovers(r.pid), "");
}

// A registry of Debian's (docker-registry) on 127.0.0.1:15555, the port
// scripts/setup.sh calls insecure in registries.conf, serving
// localhost:15555/fbc-test/redis:7 (the locally built redis image pushed
// to it); the engine's copy of that name is removed, so a run pulls it.
class TestRegistry {
public:
  TestRegistry() {
    std::ofstream(dir_.file("config.yml"))
        << "version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: " << dir_.path()
        << "/data\nhttp:\n  addr: 127.0.0.1:15555\n";
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      dup2(null, 2);
      execlp("docker-registry", "docker-registry", "serve", dir_.file("config.yml").c_str(),
             static_cast<char *>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 500 && !answers(); ++i)
      usleep(10000);
    pushed_ = capture("podman tag docker.io/library/redis:7-alpine " + std::string(kImage) +
                      " 2>&1 && podman push --quiet --tls-verify=false " + kImage +
                      " >/dev/null 2>&1 && echo pushed");
    dropLocal();
  }
  ~TestRegistry() {
    dropLocal();
    if (pid_ > 0) {
      kill(-pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  bool ready() const { return pushed_ == "pushed\n"; }
  std::string pushed() const { return pushed_; }
  static void dropLocal() { capture("podman rmi " + std::string(kImage) + " >/dev/null 2>&1"); }
  static constexpr const char *kImage = "localhost:15555/fbc-test/redis:7";

private:
  static bool answers() {
    return capture("curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:15555/v2/") == "200";
  }
  TempDir dir_;
  pid_t pid_ = -1;
  std::string pushed_;
};

// fbc run on a pseudo-terminal (its stdout and stderr), CI unset: what it
// wrote, and how it exited.
FbcRun runOnATerminal(const std::vector<std::string> &args, const std::string &cwd) {
  FbcRun r;
  int master = -1;
  pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    unsetenv("CI");
    if (chdir(cwd.c_str()) != 0)
      _exit(127);
    std::vector<char *> argv;
    std::string bin = FBC_BINARY;
    argv.push_back(bin.data());
    for (const std::string &a : args)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  r.pid = pid;
  char buf[4096];
  for (ssize_t n; (n = read(master, buf, sizeof buf)) > 0;)
    r.out.append(buf, static_cast<size_t>(n));
  int status = 0;
  waitpid(pid, &status, 0);
  close(master);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// image= that the engine lacks is pulled through the API; on a terminal
// the progress line says so while it pulls and a line says it was pulled
// (with its layers); without one, nothing is said and the row is the
// same.
TEST(Containers, AnAbsentImageIsPulledWithProgressOnATerminal) {
  TestRegistry registry;
  ASSERT_TRUE(registry.ready()) << registry.pushed();
  ContainerSpec spec("pulled");
  FbcRun tty = runOnATerminal({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(tty.exit, 0) << tty.out;
  EXPECT_NE(tty.out.find(" \u00b7 pulling localhost:15555/fbc-test/redis:7: "), std::string::npos)
      << tty.out;
  EXPECT_TRUE(RE2::PartialMatch(
      tty.out, R"(\r\x1b\[Kfbc run: pulled localhost:15555/fbc-test/redis:7 \(\d+ layers?\)\r\n)"))
      << tty.out;
  EXPECT_NE(tty.out.find("--- PASS: test_pulled_image_runs"), std::string::npos) << tty.out;
  TestRegistry::dropLocal();
  FbcRun plain = runGolden(spec, 0, "pulled");
  EXPECT_EQ(plain.err, "");
  EXPECT_EQ(leftovers(plain.pid), "");
}

TEST(Containers, ExitAtStartIsReportedLikeADyingBinary) {
  ContainerSpec spec("exits_at_start");
  int64_t t0 = nowMs();
  runGolden(spec, 2, "exits_at_start");
  // Seen exiting, not waited out: the healthcheck's timeout is 60 s.
  EXPECT_LT(nowMs() - t0, 30000);
}

TEST(Containers, NeverHealthyTimesOut) {
  runGolden(ContainerSpec("never_healthy"), 2, "never_healthy");
}

// fbc-shim puts the container's processes under fbc's filter: deny (with
// a path glob) and delay decide Redis's calls on its append-only file.
TEST(Containers, SyscallFaultsInsideAContainer) {
  runGolden(ContainerSpec("syscall_faults"), 0, "syscall_faults");
}

// service(reuse=True, seed=, reset=) on a container (container_specs/
// reuse.star): one container for the tests, seeded once, reset between
// them; the one Redis exits in is reported as exited during the test, and
// the next test creates and seeds it afresh (service_recreated).
TEST(Containers, ReusedContainerIsSeededOnceResetAndRecreatedAfterItDies) {
  runGolden(ContainerSpec("reuse"), 0, "reuse");
}

// fbc run -j N with containers: each leaf in a network namespace and on a
// container network of its own, its ports relayed from its loopback, so
// two leaves whose containers have one host port and one service name run
// at once and each reaches its own (a value crossing over fails the GETs).
// That they ran at once: each leaf's events span the other's start (both
// sleep 2 s between their SET and GET).
TEST(Containers, LeavesWithContainersRunAtOnceUnderJ) {
  ContainerSpec spec("parallel_leaves");
  FbcRun r = runGolden(spec, 0, "parallel_leaves", {"-j", "2"});
  EXPECT_EQ(r.err, "");
  FbcRun j = runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "-j", "2", "--format=json"},
                    spec.dir.path());
  ASSERT_EQ(j.exit, 0) << j.out << j.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_FALSE(parser.parse(j.out).get(doc)) << j.out;
  std::vector<std::pair<std::string, std::string>> spans; // first and last event's timestamp
  for (simdjson::dom::element t : doc["tests"].get_array()) {
    simdjson::dom::array events = t["events"].get_array();
    ASSERT_GT(events.size(), 1u);
    spans.emplace_back(std::string(events.at(0)["timestamp"].get_string().value()),
                       std::string(events.at(events.size() - 1)["timestamp"].get_string().value()));
  }
  ASSERT_EQ(spans.size(), 2u);
  // RFC 3339 in UTC with nanoseconds: ordered as strings.
  EXPECT_LT(spans[0].first, spans[1].second);
  EXPECT_LT(spans[1].first, spans[0].second);
  EXPECT_EQ(leftovers(j.pid), "");
}

// ports= {6379: 0}: in the leaf's namespace the address is the container
// port; in the host's network an error row says why not.
TEST(Containers, AnyHostPortIsTheContainerPortInTheLeafsNamespace) {
  ContainerSpec spec("host_port_any");
  runGolden(spec, 0, "host_port_any");
  runGolden(spec, 2, "host_port_any_host_network", {"--host-network"});
}

// --host-network (the path a run without root takes too): fbc's
// healthcheck and steps, in the host's namespace, reach the container at
// the host's 127.0.0.1:<port>, where the engine publishes it (that the
// engine, not a relay of fbc's, does so is not asserted here).
TEST(Containers, HostNetworkReachesContainersOnTheHostsLoopback) {
  runGolden(ContainerSpec("nginx"), 0, "nginx", {"--host-network"});
}

// A reused container under -j 2: one instance that the tests share in
// turn, so the run takes one leaf at a time and says so.
TEST(Containers, ReusedContainerUnderJRunsOneLeafAtATime) {
  FbcRun r = runGolden(ContainerSpec("reuse"), 0, "reuse", {"-j", "2"});
  EXPECT_EQ(r.err, "fbc run: warning: -j 2 runs one leaf at a time: service \"cache\" is reused "
                   "(reuse=True), one instance that every test shares in turn\n");
}

TEST(Containers, AProgramTheImageLacksIsTheShimsErrorRow) {
  runGolden(ContainerSpec("shim_missing_program"), 2, "shim_missing_program");
}

// Runs interrupted.star and sends `sig` to fbc once its container is up.
FbcRun runInterruptedBy(const ContainerSpec &spec, int sig) {
  bool sent = false;
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path(),
                    [&](const FbcRun &soFar, pid_t pid) {
                      if (!sent && contains(soFar.err, "cache is up")) {
                        EXPECT_NE(runningContainers(pid), "");
                        kill(pid, sig);
                        sent = true;
                      }
                    });
  EXPECT_TRUE(sent) << r.out << r.err;
  return r;
}

TEST(Containers, SigintLeavesNothing) {
  ContainerSpec spec("interrupted");
  FbcRun r = runInterruptedBy(spec, SIGINT);
  EXPECT_EQ(r.exit, 130) << r.out << r.err;
  EXPECT_EQ(leftovers(r.pid), "");
}

// fbc cannot clean up after kill -9: its watchdog does, within seconds.
TEST(Containers, KillNineLeavesNothingRunningWithinTenSeconds) {
  ContainerSpec spec("interrupted");
  FbcRun r = runInterruptedBy(spec, SIGKILL);
  // The socket directory of the podman service this fbc started itself.
  auto engineDirs = [&] {
    return capture("ls -d /tmp/fbc-engine-" + std::to_string(r.pid) + "-* 2>/dev/null");
  };
  EXPECT_EQ(r.exit, 128 + SIGKILL) << r.out << r.err;
  int64_t deadline = nowMs() + 10000;
  std::string left = runningContainers(r.pid);
  while (!left.empty() && nowMs() < deadline)
    left = runningContainers(r.pid);
  EXPECT_EQ(left, "");
  // And removed, not only stopped, soon after.
  deadline = nowMs() + 10000;
  while (!(left = leftovers(r.pid)).empty() && nowMs() < deadline) {
  }
  EXPECT_EQ(left, "");
  // The engine fbc started is stopped and its directory removed.
  deadline = nowMs() + 10000;
  while (!engineDirs().empty() && nowMs() < deadline) {
  }
  EXPECT_EQ(engineDirs(), "");
}

// The bundle's env.json records each image with the ID it resolved to, and
// fbc replay warns when the name now gives another one. The image is a tag
// of this test's own (on the engine every suite shares): the redis image,
// then moved to the nginx one before the replay.
TEST(Containers, BundleRecordsImageIdsAndReplayWarnsWhenOneChanged) {
  ContainerSpec spec("wiring"); // any folder; the spec is written here
  std::string tag = "fbc-test/digest-" + std::to_string(getpid()) + ":1";
  std::string idOf = "podman image inspect --format '{{.Id}}' ";
  std::string redis = "sha256:" + capture(idOf + "redis:7-alpine 2>&1");
  std::string nginx = "sha256:" + capture(idOf + "nginx:1.27-alpine 2>&1");
  redis.pop_back(); // the newline
  nginx.pop_back();
  ASSERT_EQ(system(("podman tag redis:7-alpine " + tag).c_str()), 0);
  std::ofstream(spec.dir.file("spec.star"))
      << "cache = service(\"cache\", interface(\"main\", \"tcp\", 6379),\n"
         "    image = \""
      << tag
      << "\",\n"
         "    ports = {6379: "
      << spec.kvPort
      << "},\n)\n\n"
         "def test_up():\n    pass\n";
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "a.fb"}, spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  llvm::Expected<bundle::Contents> c = bundle::readBundle(spec.dir.file("a.fb"));
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  const bundle::Entry *env = c->find("env.json");
  ASSERT_NE(env, nullptr);
  EXPECT_TRUE(contains(env->data, "\"images\": [\n    {\n      \"image\": \"" + tag +
                                      "\",\n      \"id\": \"" + redis + "\"\n    }\n  ]"))
      << env->data;
  // The manifest says the same.
  const bundle::Entry *manifest = c->find("manifest.json");
  ASSERT_NE(manifest, nullptr);
  EXPECT_TRUE(contains(manifest->data, "\"images\": [\n    {\n      \"image\": \"" + tag +
                                           "\",\n      \"id\": \"" + redis +
                                           "\"\n    }\n  ],\n  \"tests\": ["))
      << manifest->data;
  ASSERT_EQ(system(("podman tag nginx:1.27-alpine " + tag).c_str()), 0);
  FbcRun re = runFbc({"replay", "a.fb", "--no-bundle"}, spec.dir.path());
  system(("podman rmi " + tag + " >/dev/null 2>&1").c_str());
  EXPECT_TRUE(contains(re.err, "fbc replay: warning: image \"" + tag + "\" now resolves to " +
                                   nginx + " (the run used " + redis +
                                   "): the replay runs another image under the same name\n"))
      << re.err;
  EXPECT_EQ(leftovers(re.pid), "");
}

} // namespace
} // namespace fbc::rt::e2e
