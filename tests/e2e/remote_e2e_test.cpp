// service(remote=...) under `fbc run` (issue #15): the test starts a real
// redis-server and a Python http.server on 127.0.0.2 itself, not under fbc
// (127.0.0.2, not 127.0.0.1: an address fbc hard-coded would miss them).
// fbc waits for their healthchecks, reaches them from steps, the proxy and
// a local service's env, refuses a syscall fault on them, records them in
// the bundle's env.json, warns that a replay re-dials them, and never stops
// them. Specs in remote_specs/, reports in remote_golden/.
#include "bundle/archive.h"
#include "tests/e2e/fbc_run.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

namespace fbc::rt::e2e {
namespace {

// A TCP connection to 127.0.0.2:port, or -1.
int connectRemote(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.2", &a.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0)
    return fd;
  close(fd);
  return -1;
}

// Sends `request` to 127.0.0.2:port and reads until the reply ends with
// `end` (or 5 s pass): what came back.
std::string ask(uint16_t port, const std::string &request, const std::string &end) {
  int fd = connectRemote(port);
  if (fd < 0)
    return "<cannot connect>";
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string reply;
  char buf[512];
  while (!reply.ends_with(end)) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0)
      break;
    reply.append(buf, size_t(n));
  }
  close(fd);
  return reply;
}

// A server the test runs on 127.0.0.2:port (not fbc): up once it accepts
// connections, killed by the destructor.
class RemoteServer {
public:
  RemoteServer(std::vector<std::string> argv, uint16_t port, const std::string &cwd) {
    pid_ = fork();
    if (pid_ == 0) {
      // Its log is not the test's output.
      int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
      if (chdir(cwd.c_str()) != 0 || null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
        _exit(126);
      std::vector<char *> args;
      for (std::string &a : argv)
        args.push_back(a.data());
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
    }
    for (int i = 0; i < 200; ++i) {
      if (int fd = connectRemote(port); fd >= 0) {
        close(fd);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ADD_FAILURE() << argv[0] << " did not listen on 127.0.0.2:" << port;
  }
  ~RemoteServer() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

private:
  pid_t pid_ = -1;
};

// A spec from remote_specs/ with the HTTP server's port, and the two
// servers behind it: redis-server on its KV port, http.server serving
// hello.txt on its HTTP port.
struct RemoteSpec : Spec {
  uint16_t httpPort = freePort();
  std::unique_ptr<RemoteServer> redis, http;

  RemoteSpec(const std::string &name, bool serve) : Spec(name) {
    while (httpPort == kvPort || httpPort == apiPort)
      httpPort = freePort();
    std::string text = readFile(dir.file("spec.star"));
    std::string port = std::to_string(httpPort);
    for (size_t p; (p = text.find("@HTTP_PORT@")) != std::string::npos;)
      text.replace(p, 11, port);
    std::ofstream(dir.file("spec.star")) << text;
    if (!serve)
      return;
    std::ofstream(dir.file("hello.txt")) << "hello from 127.0.0.2\n";
    redis = std::make_unique<RemoteServer>(
        std::vector<std::string>{"redis-server", "--port", std::to_string(kvPort), "--bind",
                                 "127.0.0.2", "--save", "", "--appendonly", "no"},
        kvPort, dir.path());
    http = std::make_unique<RemoteServer>(
        std::vector<std::string>{"python3", "-m", "http.server", port, "--bind", "127.0.0.2"},
        httpPort, dir.path());
  }
  std::string normalized(std::string out) const {
    std::string port = std::to_string(httpPort);
    for (size_t p; (p = out.find(port)) != std::string::npos;)
      out.replace(p, port.size(), "$HTTP_PORT");
    return out;
  }
  // Both servers still run, and Redis still has what the run stored.
  void expectServersUntouched() const {
    EXPECT_TRUE(processAlive(redis->pid()));
    EXPECT_TRUE(processAlive(http->pid()));
    EXPECT_EQ(ask(kvPort, "GET greeting\r\n", "hello\r\n"), "$5\r\nhello\r\n");
    EXPECT_TRUE(contains(ask(httpPort, "GET /hello.txt HTTP/1.0\r\n\r\n", "127.0.0.2\n"),
                         "\r\n\r\nhello from 127.0.0.2\n"));
  }
};

TEST(FbcRunRemote, StepsProxyAndAServiceReachTheRemotes) {
  RemoteSpec spec("remote", true);
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--no-bundle"}, spec.dir.path());
  EXPECT_EQ(r.exit, 2) << r.out << r.err; // test_syscall_fault_is_refused
  checkGolden("remote", spec.normalized(normalize(r.out, spec)));
  // The trace of one test, whole: the remotes' lifecycle events name their
  // addresses (no pid), the local API's its pid.
  FbcRun j = runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "--format=json", "--test",
                     "test_local_service_reaches_the_remote"},
                    spec.dir.path());
  EXPECT_EQ(j.exit, 0) << j.out << j.err;
  checkGolden("remote", spec.normalized(normalizeJson(j.out, spec)), ".json");
  spec.expectServersUntouched();
}

TEST(FbcRunRemote, ARemoteThatNeverAnswersIsAnErrorRow) {
  RemoteSpec spec("remote_dead", false);
  runWithGolden(spec, 2);
}

// fault_assumption() with a syscall rule on a remote service stops at load,
// as `fbc ir` shows (tests/golden/ir_errors/assumption_remote_syscall).
TEST(FbcRunRemote, ASyscallAssumptionOnARemoteIsRefusedAtLoad) {
  TempDir dir;
  std::ofstream(dir.file("spec.star"))
      << "cache = service(\"cache\", interface(\"main\", \"redis\", 6379), remote = "
         "\"127.0.0.2\",\n"
         "                healthcheck = tcp(\"127.0.0.2:6379\"))\n"
         "slow = fault_assumption(\"slow\", target = cache, fsync = delay(\"1s\"))\n";
  FbcRun r = runFbc({"run", "spec.star", "--no-bundle"}, dir.path());
  EXPECT_EQ(r.exit, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "spec.star:3:49: error: fault_assumption(\"slow\"): service \"cache\" is remote "
            "(remote=\"127.0.0.2\"); syscall-level faults are not available on remote services: "
            "fsync= needs the service's process, which fbc does not run. Fault its interface with "
            "a protocol rule instead (rules= with target=cache.main, or fault(cache.main, "
            "error(...), run=...)), or declare it with mock_service()\n"
            "slow = fault_assumption(\"slow\", target = cache, fsync = delay(\"1s\"))\n"
            "                                                ^\n");
}

// env.json lists the remotes (services in spec order, interfaces by name);
// `fbc replay` warns that it dials them again, then runs as `fbc run` did.
TEST(FbcRunRemote, BundleRecordsTheRemotesAndReplayWarns) {
  RemoteSpec spec("remote", true);
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--bundle", "r.fb", "--test",
                     "test_steps_reach_the_remotes"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  llvm::Expected<bundle::Contents> c = bundle::readBundle(spec.dir.file("r.fb"));
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  const bundle::Entry *env = c->find("env.json");
  ASSERT_NE(env, nullptr);
  std::string remotes =
      env->data.substr(std::min(env->data.find("  \"remotes\""), env->data.size()));
  EXPECT_EQ(spec.normalized(normalize(remotes, spec)), R"(  "remotes": [
    {
      "service": "cache",
      "interface": "main",
      "host": "127.0.0.2:$KV_PORT",
      "protocol": "redis"
    },
    {
      "service": "files",
      "interface": "web",
      "host": "127.0.0.2:$HTTP_PORT",
      "protocol": "http"
    }
  ]
}
)");
  FbcRun re = runFbc({"replay", "r.fb", "--no-bundle", "--test", "test_steps_reach_the_remotes"},
                     spec.dir.path());
  EXPECT_EQ(re.exit, 0) << re.out << re.err;
  EXPECT_TRUE(contains(spec.normalized(normalize(re.err, spec)),
                       "fbc replay: warning: this bundle's run used 2 remote service interface(s); "
                       "replay re-dials them, and what they answer now may differ from what they "
                       "answered then:\n"
                       "  - cache.main -> 127.0.0.2:$KV_PORT (redis)\n"
                       "  - files.web -> 127.0.0.2:$HTTP_PORT (http)\n"))
      << re.err;
  EXPECT_TRUE(contains(re.out, "--- PASS: test_steps_reach_the_remotes")) << re.out;
  spec.expectServersUntouched();
}

// -j N puts each leaf in a network namespace of its own, which reaches no
// remote: the run says so and runs one leaf at a time.
TEST(FbcRunRemote, ParallelLeavesFallBackToOneAtATime) {
  RemoteSpec spec("remote", true);
  FbcRun r = runFbc({"run", spec.path, "--seed", "1", "--no-bundle", "-j", "2", "--test",
                     "test_steps_reach_the_remotes"},
                    spec.dir.path());
  EXPECT_EQ(r.exit, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "fbc run: warning: -j 2 runs each leaf in a network namespace of its "
                              "own, from which remote service \"cache\" cannot be reached; running "
                              "one leaf at a time\n"))
      << r.err;
}

TEST(FbcRunRemote, PlanEqualsRun) {
  RemoteSpec spec("remote", true);
  expectPlanTotalEqualsRunRows(spec);
}

} // namespace
} // namespace fbc::rt::e2e
