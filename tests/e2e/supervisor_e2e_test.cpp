// End-to-end tests of the runtime core: the fixture services run under the
// supervisor's seccomp filters, faults are pushed through the rule table,
// and the effects are observed the way a user would (HTTP status codes,
// KV replies, latency) and in the trace; a notification whose thread was
// killed moves no counter. The services' lifecycle (start failures,
// healthchecks, stopping, the trace's order) is in
// supervisor_lifecycle_e2e_test.cpp, the same binary (runtime_e2e_tests).
#include "backend/rule_lower.h"
#include "ir/syscalls.h"
#include "runtime/os/seccomp_filter.h"
#include "runtime/supervisor/notif_facts.h"
#include "runtime/supervisor/supervisor.h"
#include "tests/e2e/e2e_util.h"
#include "tests/e2e/supervisor_e2e_util.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <future>
#include <optional>
#include <span>
#include <thread>

namespace fbc::rt {
namespace {

using e2e::cat;
using e2e::freePort;
using e2e::httpRequest;
using e2e::tcpRequest;
using e2e::TempDir;

// The running kernel's release, and whether it is at least major.minor.
std::string kernelRelease() {
  utsname u{};
  return uname(&u) == 0 ? u.release : "";
}
bool kernelAtLeast(int major, int minor) {
  int ma = 0, mi = 0;
  return std::sscanf(kernelRelease().c_str(), "%d.%d", &ma, &mi) == 2 &&
         (ma > major || (ma == major && mi >= minor));
}

// Polls `done` every millisecond, up to `timeoutMs` (a guard against a
// hang, not a measurement).
bool waitFor(const std::function<bool()> &done, int timeoutMs = 10000) {
  auto t0 = std::chrono::steady_clock::now();
  while (!done()) {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(timeoutMs))
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

int errnoOf(const char *name) {
  return ir::findErrno(name)->number;
}

RuleSpec rule(ServiceId target, std::string syscall, Action action) {
  RuleSpec r;
  r.target = target;
  r.nrs = backend::keywordSyscalls(syscall); // as the lowering gives them
  r.syscall = std::move(syscall);
  r.action = action;
  return r;
}

// The KV store and the HTTP API in front of it, each filtered for the
// syscalls that `potential` rules could touch (as the IR will compute).
class KvApiTest : public ::testing::Test {
protected:
  static constexpr ServiceId kKv = 0, kApi = 1;
  TempDir dir;
  uint16_t kvPort = freePort();
  uint16_t apiPort = freePort();
  std::unique_ptr<Supervisor> sup;

  std::string wal() const { return dir.file("kv.wal"); }
  std::string api(const std::string &path) const {
    return cat({"http://127.0.0.1:", std::to_string(apiPort), path});
  }

  ServiceSpec kvSpec(const std::string &name, uint16_t port, std::string walPath) {
    ServiceSpec s;
    s.name = name;
    s.launch.binary = FBC_FIXTURE_KV;
    s.launch.args = {"--port", std::to_string(port), "--wal", walPath};
    s.launch.cwd = dir.path();
    s.ports = {port};
    s.health = Healthcheck::tcp("127.0.0.1", port, 5000);
    return s;
  }

  ServiceSpec apiSpec() {
    ServiceSpec s;
    s.name = "api";
    s.launch.binary = FBC_FIXTURE_API;
    s.launch.args = {"--port", std::to_string(apiPort)};
    s.launch.env = {cat({"KV_ADDR=localhost:", std::to_string(kvPort)})};
    s.ports = {apiPort};
    s.health = Healthcheck::http(api("/health"), 5000);
    return s;
  }

  void startStack(const std::vector<RuleSpec> &potential, SupervisorOptions opts = {}) {
    sup = std::make_unique<Supervisor>(opts);
    ServiceSpec kv = kvSpec("kv", kvPort, wal());
    ServiceSpec ap = apiSpec();
    std::vector<std::vector<int>> traps;
    std::string error;
    ASSERT_TRUE(trapSets(2, potential, traps, error)) << error;
    kv.launch.trapped = traps[kKv];
    ap.launch.trapped = traps[kApi];
    ASSERT_EQ(sup->addService(std::move(kv)), kKv);
    ASSERT_EQ(sup->addService(std::move(ap)), kApi);
    std::vector<ServiceId> order{kKv, kApi};
    ServiceError e = sup->startAll(order);
    ASSERT_FALSE(e) << e.reason() << "\nkv stderr: " << sup->stderrText(kKv)
                    << "\napi stderr: " << sup->stderrText(kApi);
  }

  ScopeId apply(std::vector<RuleSpec> rules) {
    std::string error;
    std::optional<ScopeId> s = sup->applyFaults(std::move(rules), error);
    EXPECT_TRUE(s) << error;
    return s.value_or(0);
  }

  // Syscall events of `service` with a non-allow decision.
  std::vector<TraceEvent> faulted(ServiceId service) {
    std::vector<TraceEvent> out;
    for (const TraceEvent &e : sup->trace().events())
      if (e.type == EventType::Syscall && e.service == service && e.syscall.fired &&
          e.syscall.action.kind != ActionKind::Allow)
        out.push_back(e);
    return out;
  }
};

TEST_F(KvApiTest, WriteDenyEioMakesTheApiAnswer5xx) {
  std::vector<RuleSpec> rules{rule(kKv, "write", Action::deny(errnoOf("EIO")))};
  startStack(rules);

  EXPECT_EQ(httpRequest("PUT", api("/kv/a"), "1").status, 200);
  ScopeId scope = apply(rules);
  e2e::HttpResponse r = httpRequest("PUT", api("/kv/b"), "2");
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(r.body.find("ERR Input/output error"), std::string::npos) << r.body;
  sup->removeFaults(scope);
  EXPECT_EQ(httpRequest("PUT", api("/kv/c"), "3").status, 200);
  EXPECT_EQ(httpRequest("GET", api("/kv/a")).body, "1\n");
  EXPECT_EQ(httpRequest("GET", api("/kv/b")).status, 404); // never stored

  // The denied write is in the trace, on the WAL, with the reference's text.
  std::vector<TraceEvent> denied = faulted(kKv);
  ASSERT_EQ(denied.size(), 1u);
  EXPECT_EQ(syscallName(denied[0].syscall.nr), "write");
  EXPECT_EQ(denied[0].syscall.path, wal());
  EXPECT_EQ(describeAction(denied[0].syscall.action), "deny(input/output error)");
  std::vector<TraceEvent> events = sup->trace().events();
  auto of = [&](EventType type) {
    return std::find_if(events.begin(), events.end(),
                        [&](const TraceEvent &e) { return e.type == type; });
  };
  ASSERT_NE(of(EventType::FaultApplied), events.end());
  EXPECT_EQ(of(EventType::FaultApplied)->text(EventField::Errno), "EIO");
  EXPECT_EQ(of(EventType::FaultApplied)->rule.action.err, errnoOf("EIO"));
  ASSERT_NE(of(EventType::FaultRemoved), events.end());
  EXPECT_EQ(of(EventType::FaultRemoved)->count(EventField::Hits), 1u);
  // The WAL holds the two successful SETs only.
  EXPECT_EQ(e2e::readFile(wal()), "SET a 1\nSET c 3\n");
}

// SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP exists from Linux 6.6 on; older
// kernels run without the hand-off (slower, still correct).
TEST_F(KvApiTest, SyncWakeUpIsSetOnLinux66) {
  if (!kernelAtLeast(6, 6))
    GTEST_SKIP() << "needs Linux 6.6+ for SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP; this is "
                 << kernelRelease();
  startStack({rule(kKv, "write", Action::deny(errnoOf("EIO")))});
  EXPECT_TRUE(sup->syncWakeUp(kKv));
}

TEST_F(KvApiTest, WriteDenyEnospc) {
  std::vector<RuleSpec> rules{rule(kKv, "write", Action::deny(errnoOf("ENOSPC")))};
  startStack(rules);
  apply(rules);
  e2e::HttpResponse r = httpRequest("PUT", api("/kv/k"), "v");
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(r.body.find("No space left on device"), std::string::npos) << r.body;
  ASSERT_EQ(faulted(kKv).size(), 1u);
  EXPECT_EQ(describeAction(faulted(kKv)[0].syscall.action), "deny(no space left on device)");
}

TEST_F(KvApiTest, FsyncDeny) {
  std::vector<RuleSpec> rules{rule(kKv, "fsync", Action::deny(errnoOf("EIO")))};
  startStack(rules);
  apply(rules);
  e2e::HttpResponse r = httpRequest("PUT", api("/kv/k"), "v");
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(r.body.find("Input/output error"), std::string::npos) << r.body;
  std::vector<TraceEvent> denied = faulted(kKv);
  ASSERT_EQ(denied.size(), 1u);
  EXPECT_EQ(syscallName(denied[0].syscall.nr), "fsync");
  // The write itself went through: only durability failed.
  EXPECT_EQ(e2e::readFile(wal()), "SET k v\n");
}

// A connect rule on the KV makes the API's connections to the KV's port
// fail: the API's filter traps connect, the decision reads the sockaddr.
TEST_F(KvApiTest, ConnectDenyOnTheKvIsSeenByTheApisConnects) {
  std::vector<RuleSpec> rules{rule(kKv, "connect", Action::deny(errnoOf("ECONNREFUSED")))};
  startStack(rules);
  EXPECT_EQ(httpRequest("PUT", api("/kv/a"), "1").status, 200);
  apply(rules);
  e2e::HttpResponse r = httpRequest("PUT", api("/kv/b"), "2");
  EXPECT_EQ(r.status, 503);
  EXPECT_NE(r.body.find("kv unreachable: Connection refused"), std::string::npos) << r.body;
  // The KV itself still serves direct clients (the supervisor is not traced).
  EXPECT_EQ(tcpRequest(kvPort, "PING"), "PONG");

  std::vector<TraceEvent> denied = faulted(kApi);
  ASSERT_FALSE(denied.empty());
  for (const TraceEvent &e : denied) {
    EXPECT_EQ(syscallName(e.syscall.nr), "connect");
    EXPECT_TRUE(e.syscall.dest.ends_with(cat({":", std::to_string(kvPort)}))) << e.syscall.dest;
  }
  // localhost resolves to ::1 and 127.0.0.1: both attempts were refused.
  bool v4 = false;
  for (const TraceEvent &e : denied)
    v4 = v4 || e.syscall.dest == cat({"127.0.0.1:", std::to_string(kvPort)});
  EXPECT_TRUE(v4);
  EXPECT_TRUE(faulted(kKv).empty());
}

// A 500 ms delay shows in the client's latency, and while it is pending the
// event loop keeps answering other services' trapped syscalls.
TEST_F(KvApiTest, DelayIsVisibleInLatencyAndBlocksNothingElse) {
  uint16_t kv2Port = freePort();
  std::vector<RuleSpec> rules{rule(kKv, "fsync", Action::delay(500'000'000))};
  startStack(rules);
  ServiceSpec kv2 = kvSpec("kv2", kv2Port, dir.file("kv2.wal"));
  kv2.launch.trapped = {syscallNumber("write"), syscallNumber("fsync")};
  ServiceId k2 = sup->addService(std::move(kv2));
  ASSERT_FALSE(sup->start(k2));

  EXPECT_EQ(httpRequest("PUT", api("/kv/fast"), "1").status, 200);
  apply(rules);
  auto slow =
      std::async(std::launch::async, [&] { return httpRequest("PUT", api("/kv/slow"), "2"); });
  // The delay is pending once kv's listener has decided it.
  ASSERT_TRUE(waitFor([&] { return sup->listenerStats(kKv)->faulted.load() == 1; }));
  uint64_t kv2Calls = sup->listenerStats(k2)->notifications.load();
  EXPECT_EQ(tcpRequest(kv2Port, "SET x 1"), "OK"); // trapped write + fsync on kv2
  // kv2's calls were answered while kv's fsync was still held.
  EXPECT_GE(sup->listenerStats(k2)->notifications.load(), kv2Calls + 2);
  EXPECT_EQ(slow.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
      << "the delay ended before another service's syscalls were answered";
  e2e::HttpResponse r = slow.get();
  EXPECT_EQ(r.status, 200);
  EXPECT_GE(r.durationMs, 500);
  EXPECT_LT(r.durationMs, 30000); // a guard against a hang

  std::vector<TraceEvent> delayed = faulted(kKv);
  ASSERT_EQ(delayed.size(), 1u);
  EXPECT_EQ(describeAction(delayed[0].syscall.action), "delay(500ms)");
  EXPECT_GE(delayed[0].syscall.latencyNs, 500'000'000);
}

// openat with a path glob: only the matching file fails; the rest of the
// process's opens (its own libraries at exec, other files) go through.
TEST_F(KvApiTest, OpenatPathGlobDeny) {
  RuleSpec r = rule(kKv, "openat", Action::deny(errnoOf("EACCES")));
  r.pathGlob = dir.path() + "/snap-*.db";
  r.label = "snapshots";
  startStack({r});
  apply({r});
  EXPECT_EQ(tcpRequest(kvPort, "SET a 1"), "OK");
  EXPECT_EQ(tcpRequest(kvPort, "SNAPSHOT snap-1.db"), "ERR Permission denied");
  EXPECT_EQ(tcpRequest(kvPort, cat({"SNAPSHOT ", dir.file("snap-2.db")})), "ERR Permission denied");
  EXPECT_EQ(tcpRequest(kvPort, "SNAPSHOT other.db"), "OK");
  EXPECT_EQ(e2e::readFile(dir.file("other.db")), "a 1\n");

  std::vector<TraceEvent> denied = faulted(kKv);
  ASSERT_EQ(denied.size(), 2u);
  // The relative path was resolved against the KV's working directory.
  EXPECT_EQ(denied[0].syscall.path, dir.file("snap-1.db"));
  EXPECT_EQ(denied[1].syscall.path, dir.file("snap-2.db"));
  for (const TraceEvent &e : denied) {
    EXPECT_EQ(syscallName(e.syscall.nr), "openat");
    EXPECT_EQ(describeAction(e.syscall.action), "deny(permission denied)");
    EXPECT_EQ(e.syscall.label, "snapshots");
  }
}

TEST_F(KvApiTest, ProbabilityIsReproducibleFromTheSeed) {
  auto run = [&](uint64_t seed) {
    RuleSpec r = rule(kKv, "fsync", Action::deny(errnoOf("EIO")));
    r.probability = 0.5;
    SupervisorOptions opts;
    opts.seed = seed;
    kvPort = freePort();
    apiPort = freePort();
    startStack({r}, opts);
    apply({r});
    std::string outcomes;
    for (int i = 0; i < 16; ++i)
      outcomes += tcpRequest(kvPort, cat({"SET k", std::to_string(i), " v"})) == "OK" ? '.' : 'x';
    sup.reset();
    return outcomes;
  };
  std::string a = run(42), b = run(42), c = run(7);
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find('x'), std::string::npos);
  EXPECT_NE(a.find('.'), std::string::npos);
  EXPECT_NE(a, c); // 2^-16 chance of a false failure
}

// A real notification whose thread is SIGKILLed after fbc received it and
// before the rule table decides it moves no counter (issue #17), even for a
// rule that reads no argument (getppid has none): decide() asks
// NOTIF_ID_VALID first. The live case, same code, fires and counts.
TEST(NotificationValidity, KilledThreadMovesNoCounter) {
  for (bool killIt : {false, true}) {
    SCOPED_TRACE(killIt ? "killed" : "alive");
    int nr = static_cast<int>(SYS_getppid);
    std::vector<sock_filter> prog;
    std::string err;
    ASSERT_TRUE(buildNotifyFilter(std::span<const int>(&nr, 1), prog, err)) << err;
    sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
    int pipefd[2];
    ASSERT_EQ(pipe(pipefd), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      // Only async-signal-safe calls: the parent has threads.
      prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
      int fd = static_cast<int>(
          syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fprog));
      if (write(pipefd[1], &fd, sizeof fd) != sizeof fd)
        _exit(2);
      syscall(SYS_getppid); // trapped: waits for the parent's answer
      _exit(0);
    }
    close(pipefd[1]);
    int childFd = -1;
    ASSERT_EQ(read(pipefd[0], &childFd, sizeof childFd), static_cast<ssize_t>(sizeof childFd));
    close(pipefd[0]);
    ASSERT_GE(childFd, 0) << "seccomp(NEW_LISTENER) failed in the child";
    int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child, 0));
    ASSERT_GE(pidfd, 0);
    int listener = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, childFd, 0));
    ASSERT_GE(listener, 0) << std::strerror(errno);
    seccomp_notif req{};
    ASSERT_EQ(ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req), 0) << std::strerror(errno);
    ASSERT_EQ(req.data.nr, nr);
    if (killIt) {
      kill(child, SIGKILL);
      ASSERT_EQ(waitpid(child, nullptr, 0), child);
    }

    RuleTable rules;
    RuleSpec r;
    r.target = 0;
    r.syscall = "getppid";
    r.nrs = backend::keywordSyscalls("getppid");
    r.action = Action::deny(EPERM);
    std::optional<ScopeId> scope = rules.push({r}, err);
    ASSERT_TRUE(scope) << err;
    std::string pathBuf;
    NotifFacts facts(listener, req, pathBuf);
    Decision d = rules.decide(0, req.data.nr, facts);
    std::vector<RuleStats> stats = rules.pop(*scope);
    ASSERT_EQ(stats.size(), 1u);
    if (killIt) {
      EXPECT_TRUE(d.stale);
      EXPECT_FALSE(d.fired);
      EXPECT_EQ(stats[0].matches, 0u);
      EXPECT_EQ(stats[0].fires, 0u);
    } else {
      EXPECT_FALSE(d.stale);
      EXPECT_TRUE(d.fired);
      EXPECT_EQ(stats[0].matches, 1u);
      EXPECT_EQ(stats[0].fires, 1u);
      seccomp_notif_resp resp{};
      resp.id = req.id;
      resp.error = -EPERM;
      EXPECT_EQ(ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp), 0);
      int status = 0;
      ASSERT_EQ(waitpid(child, &status, 0), child);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    close(listener);
    close(pidfd);
  }
}

} // namespace
} // namespace fbc::rt
