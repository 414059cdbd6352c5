// End-to-end tests of the supervisor's service lifecycle on real processes:
// a crash at start, a missing binary and failures before exec classified,
// a healthcheck timeout, stopping that leaves no process (nor a reused
// process-group number) behind, and the trace's order and captured output.
// Part of runtime_e2e_tests with supervisor_e2e_test.cpp (faults through
// the rule table).
#include "runtime/os/syscalls.h"
#include "runtime/supervisor/supervisor.h"
#include "tests/e2e/e2e_util.h"
#include "tests/e2e/supervisor_e2e_util.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace fbc::rt {
namespace {

using e2e::cat;
using e2e::freePort;
using e2e::processAlive;
using e2e::tcpRequest;
using e2e::TempDir;

class LifecycleTest : public ::testing::Test {
protected:
  TempDir dir;
};

TEST_F(LifecycleTest, CrashAtStartIsClassified) {
  Supervisor sup;
  ServiceSpec s;
  s.name = "flaky";
  s.launch.binary = FBC_FIXTURE_CRASH;
  s.launch.trapped = {syscallNumber("write")};
  s.health = Healthcheck::tcp("127.0.0.1", freePort(), 5000);
  ServiceId id = sup.addService(s);
  ServiceError e = sup.start(id);
  EXPECT_EQ(e.kind, ServiceError::Kind::CrashedAtStart);
  EXPECT_EQ(e.reason(), "service \"flaky\": crashed at start (exited with status 3)");
  EXPECT_FALSE(sup.running(id));

  s.name = "aborts";
  s.launch.args = {"--abort"};
  ServiceId id2 = sup.addService(s);
  e = sup.start(id2);
  EXPECT_EQ(e.kind, ServiceError::Kind::CrashedAtStart);
  EXPECT_NE(e.reason().find("service \"aborts\": crashed at start (killed by SIGABRT"),
            std::string::npos)
      << e.reason();
}

TEST_F(LifecycleTest, MissingBinaryIsClassified) {
  Supervisor sup;
  ServiceSpec s;
  s.name = "ghost";
  s.launch.binary = dir.file("no-such-binary");
  ServiceId id = sup.addService(s);
  ServiceError e = sup.start(id);
  EXPECT_EQ(e.kind, ServiceError::Kind::MissingBinary);
  EXPECT_NE(e.reason().find("service \"ghost\": missing binary"), std::string::npos) << e.reason();
}

// A child that fails after the launch started (here: exec, chdir) says why,
// however it was started (launcher.cpp, spawnChild): sharing fbc's memory
// with fbc asleep until its exec (no filter), sharing it with a filter in
// place (the exec's errno left in fbc's memory), or with a copy of it (a
// filter that traps exec itself); the supervisor then starts the next
// service as usual.
TEST_F(LifecycleTest, ChildFailuresBeforeExecAreClassified) {
  std::string notAProgram = dir.file("not-a-program");
  std::ofstream(notAProgram) << "neither ELF nor #!\n";
  ASSERT_EQ(chmod(notAProgram.c_str(), 0755), 0);
  for (std::string trapped : {"", "fsync", "execve"}) {
    SCOPED_TRACE("trapped: " + trapped);
    Supervisor sup;
    ServiceSpec s;
    s.name = "garbage";
    s.launch.binary = notAProgram;
    if (!trapped.empty())
      s.launch.trapped = {syscallNumber(trapped)};
    ServiceId id = sup.addService(s);
    ServiceError e = sup.start(id);
    EXPECT_EQ(e.kind, ServiceError::Kind::LaunchFailed);
    EXPECT_EQ(e.reason(), "service \"garbage\": launch failed (exec: Exec format error)");

    s.name = "lost";
    s.launch.binary = FBC_FIXTURE_KV;
    s.launch.cwd = dir.file("no-such-dir");
    id = sup.addService(s);
    e = sup.start(id);
    EXPECT_EQ(e.kind, ServiceError::Kind::LaunchFailed);
    EXPECT_EQ(e.reason(), "service \"lost\": launch failed (chdir: No such file or directory)");

    uint16_t port = freePort();
    s.name = "kv";
    s.launch.cwd.clear();
    s.launch.args = {"--port", std::to_string(port), "--wal", dir.file(trapped + ".wal")};
    s.health = Healthcheck::tcp("127.0.0.1", port, 5000);
    id = sup.addService(s);
    e = sup.start(id);
    ASSERT_EQ(e.kind, ServiceError::Kind::None) << e.reason();
    EXPECT_EQ(tcpRequest(port, "SET k v"), "OK");
    sup.stopAll();
    EXPECT_FALSE(processAlive(sup.pid(id)));
  }
}

TEST_F(LifecycleTest, HealthcheckTimeoutIsClassifiedAndTheServiceStopped) {
  Supervisor sup;
  ServiceSpec s;
  s.name = "deaf";
  uint16_t port = freePort();
  s.launch.binary = FBC_FIXTURE_KV;
  s.launch.args = {"--port", std::to_string(port), "--wal", dir.file("wal")};
  s.launch.trapped = {syscallNumber("fsync")};
  s.health = Healthcheck::tcp("127.0.0.1", freePort(), 300); // nothing listens there
  ServiceId id = sup.addService(s);
  ServiceError e = sup.start(id);
  EXPECT_EQ(e.kind, ServiceError::Kind::HealthcheckTimeout);
  EXPECT_NE(e.reason().find("service \"deaf\": healthcheck timed out (tcp 127.0.0.1:"),
            std::string::npos)
      << e.reason();
  EXPECT_FALSE(processAlive(sup.pid(id)));
}

// Stopping kills the whole process group, children included, also when
// the service ignores SIGTERM; destroying the supervisor does the same.
TEST_F(LifecycleTest, StoppingLeavesNoProcessBehind) {
  SupervisorOptions opts;
  opts.stopGraceMs = 200;
  auto sup = std::make_unique<Supervisor>(opts);
  ServiceSpec s;
  s.name = "stubborn";
  s.launch.binary = "/bin/sh";
  // A child in the background and a parent that ignores SIGTERM.
  s.launch.args = {"-c", cat({"trap '' TERM; sleep 60 & echo $! > ", dir.file("child"), "; wait"})};
  s.launch.trapped = {syscallNumber("openat")};
  ServiceId a = sup->addService(s);
  ASSERT_FALSE(sup->start(a));
  s.name = "other";
  s.launch.args = {"-c", cat({"sleep 60 & echo $! > ", dir.file("child2"), "; wait"})};
  ServiceId b = sup->addService(s);
  ASSERT_FALSE(sup->start(b));

  auto childPid = [&](const std::string &f) {
    for (int i = 0; i < 200; ++i) {
      std::string text = e2e::readFile(dir.file(f));
      if (!text.empty() && text.back() == '\n')
        return std::stoi(text);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  };
  int pa = sup->pid(a), ca = childPid("child"), pb = sup->pid(b), cb = childPid("child2");
  ASSERT_GT(ca, 0);
  ASSERT_GT(cb, 0);
  EXPECT_TRUE(processAlive(pa) && processAlive(ca) && processAlive(pb) && processAlive(cb));

  sup->stop(a);
  EXPECT_FALSE(processAlive(pa));
  EXPECT_FALSE(processAlive(ca));
  EXPECT_TRUE(processAlive(pb));
  EXPECT_EQ(sup->exitDescription(a).value_or(""), "killed by SIGKILL");

  sup.reset(); // the destructor stops the rest
  EXPECT_FALSE(processAlive(pb));
  EXPECT_FALSE(processAlive(cb));
}

// A service whose main process exits mid-test leaves its process-group
// number to fbc until teardown: if that number were freed (the process
// reaped at once), another process could get it, and teardown's
// kill(-pgid, SIGKILL) (or the SIGINT handler's table) would kill it. In a
// PID namespace of its own the test hands the number out on purpose
// (ns_last_pid) to a bystander that makes itself a group leader.
TEST_F(LifecycleTest, AnExitedServicesGroupNumberIsNeverABystanders) {
  if (!e2e::inPrivatePidNamespace()) {
    EXPECT_EQ(e2e::rerunInPidNamespace(), 0);
    return;
  }
  Supervisor sup;
  ServiceSpec s;
  s.name = "brief";
  s.launch.binary = "/bin/true";
  ServiceId id = sup.addService(s);
  ASSERT_FALSE(sup.start(id));
  ASSERT_TRUE(sup.waitExit(id, 10000));
  pid_t gone = sup.pid(id);
  std::ofstream("/proc/sys/kernel/ns_last_pid") << gone - 1 << std::flush;
  pid_t bystander = fork();
  if (bystander == 0) {
    setpgid(0, 0);
    pause();
    _exit(0);
  }
  setpgid(bystander, bystander);
  // The service's pid is still held (its zombie), so the bystander got
  // another one; without that it gets `gone` and dies below.
  EXPECT_NE(bystander, gone);
  sup.stop(id);
  int status = 0;
  EXPECT_EQ(waitpid(bystander, &status, WNOHANG), 0)
      << "the bystander " << bystander << " died (the service's pid was " << gone << ")";
  kill(bystander, SIGKILL);
  waitpid(bystander, &status, 0);
}

TEST_F(LifecycleTest, TraceIsOrderedAndCapturesOutput) {
  SupervisorOptions opts;
  Supervisor sup(opts);
  ServiceSpec s;
  s.name = "echo";
  s.launch.binary = "/bin/sh";
  s.launch.args = {"-c", "echo hello; echo oops >&2; cat /dev/null"};
  s.launch.trapped = {syscallNumber("openat")};
  ServiceId id = sup.addService(s);
  ASSERT_FALSE(sup.start(id));
  ASSERT_TRUE(sup.waitExit(id, 5000));
  sup.stop(id);
  EXPECT_EQ(sup.stdoutText(id), "hello\n");
  EXPECT_EQ(sup.stderrText(id), "oops\n");
  std::vector<TraceEvent> events = sup.trace().events();
  ASSERT_GE(events.size(), 3u);
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].seq, i + 1);
    if (i > 0) {
      EXPECT_GE(events[i].timeNs, events[i - 1].timeNs);
    }
  }
  EXPECT_EQ(events.front().type, EventType::ServiceStarted);
  EXPECT_EQ(events.back().type, EventType::ServiceStopped);
  bool sawOpen = false;
  for (const TraceEvent &e : events)
    sawOpen = sawOpen || (e.type == EventType::Syscall && syscallName(e.syscall.nr) == "openat");
  EXPECT_TRUE(sawOpen); // the shell opening /dev/null (and its libraries) was mediated
}

} // namespace
} // namespace fbc::rt
