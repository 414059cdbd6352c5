#include "runtime/os/launcher.h"

#include "runtime/os/process_groups.h"
#include "runtime/os/requirements.h"
#include "runtime/os/seccomp_filter.h"
#include "runtime/os/syscalls.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/close_range.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pwd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

extern char **environ;

// Newer than the Debian 12 kernel headers.
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

namespace fbc::rt {
namespace {

// What the child reports on the control socket.
struct CtrlMsg {
  int32_t kind;  // kProbe or kFailure
  int32_t stage; // for kFailure: which step failed
  int32_t value; // kProbe: the listener's fd number; kFailure: errno
  int32_t flags; // kProbe: the seccomp flags the child will try first
};
constexpr int32_t kProbe = 1;
constexpr int32_t kFailure = 2;

enum Stage : int32_t {
  kStdio = 1,
  kChdir,
  kNoNewPrivs,
  kSeccomp,
  kExec,
  kDeathSig,
  kCgroup,
  kUser
};

const char *stageName(int32_t s) {
  switch (s) {
  case kStdio:
    return "redirect stdio";
  case kChdir:
    return "chdir";
  case kNoNewPrivs:
    return "PR_SET_NO_NEW_PRIVS";
  case kSeccomp:
    return "install seccomp filter";
  case kExec:
    return "exec";
  case kDeathSig:
    return "PR_SET_PDEATHSIG";
  case kCgroup:
    return "join cgroup";
  case kUser:
    return "switch user";
  }
  return "start";
}

// Everything the child needs, prepared by the parent so the child allocates
// nothing.
struct ChildPlan {
  const char *binary;
  char *const *argv;
  char *const *envp;
  const char *cwd; // null: stay
  const sock_fprog *filter;
  int ctrl;
  int devnull, out, err;
  pid_t parent;
  const int *cgroups; // cgroup.procs fds to join
  size_t cgroupCount;
  bool setUser; // switch to uid/gid/groups
  uid_t uid;
  gid_t gid;
  const gid_t *groups;
  size_t groupCount;
  // Shares our memory with a filter in place: an exec failure goes here
  // (then kill(self, SIGKILL)), since the failure report on the control
  // socket could be a trapped syscall nobody answers yet. Null otherwise.
  std::atomic<int> *execErrno;
};

[[noreturn]] void childFail(int ctrl, int32_t stage, int err) {
  CtrlMsg m{kFailure, stage, err, 0};
  [[maybe_unused]] ssize_t n = send(ctrl, &m, sizeof m, MSG_NOSIGNAL);
  _exit(127);
}

[[noreturn]] void childMain(const ChildPlan &p) {
  // Before anything can fork: whatever the service starts stays inside.
  for (size_t i = 0; i < p.cgroupCount; ++i)
    if (write(p.cgroups[i], "0", 1) != 1)
      childFail(p.ctrl, kCgroup, errno);
  setpgid(0, 0);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
    childFail(p.ctrl, kDeathSig, errno);
  if (getppid() != p.parent) // the supervisor is already gone
    _exit(127);
  // Dispositions set to SIG_IGN and the blocked mask survive exec: give the
  // service a clean slate.
  for (int sig = 1; sig < NSIG; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP)
      signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  if (dup2(p.devnull, 0) < 0 || dup2(p.out, 1) < 0 || dup2(p.err, 2) < 0)
    childFail(p.ctrl, kStdio, errno);
  if (p.cwd && chdir(p.cwd) < 0)
    childFail(p.ctrl, kChdir, errno);
  // Nothing the supervisor holds (other services' listeners, pipes) may leak
  // into the service; the control socket stays usable until exec.
  syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
  // Raw syscalls: glibc's set*id wrappers synchronise every thread of the
  // process through locks a threaded parent may have held at fork.
  if (p.setUser) {
    if (syscall(SYS_setgroups, p.groupCount, p.groups) < 0 ||
        syscall(SYS_setresgid, p.gid, p.gid, p.gid) < 0 ||
        syscall(SYS_setresuid, p.uid, p.uid, p.uid) < 0)
      childFail(p.ctrl, kUser, errno);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
      childFail(p.ctrl, kDeathSig, errno);
    if (getppid() != p.parent)
      _exit(127);
  }
  long self = 0;
  if (p.filter) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
      childFail(p.ctrl, kNoNewPrivs, errno);
    // seccomp() returns the lowest free fd; find it now, while we may still
    // talk freely.
    int probe = dup(p.ctrl);
    if (probe < 0)
      childFail(p.ctrl, kSeccomp, errno);
    close(probe);
    self = syscall(SYS_getpid);
    CtrlMsg m{kProbe, 0, probe, 0};
    if (send(p.ctrl, &m, sizeof m, MSG_NOSIGNAL) != sizeof m)
      _exit(127);
    // WAIT_KILLABLE_RECV (Linux 5.19+): a syscall the supervisor holds is not
    // interrupted by a non-fatal signal, so it is decided exactly once (see
    // docs/run.md). Older kernels say EINVAL: go on without it.
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                      SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
                      p.filter);
    if (fd < 0 && errno == EINVAL)
      fd =
          syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, p.filter);
    if (fd < 0)
      childFail(p.ctrl, kSeccomp, errno); // no filter in place: send is safe
    // From here on only `kill` (never trapped) runs until the parent serves
    // the listener: any other syscall could be trapped with nobody to
    // answer. A listener on another fd than announced cannot be handed
    // over: die (the parent sees a kill, not a stop).
    if (fd != probe)
      syscall(SYS_kill, self, SIGKILL);
    syscall(SYS_kill, self, SIGSTOP);
  }
  execve(p.binary, p.argv, p.envp);
  if (p.filter && p.execErrno) {
    p.execErrno->store(errno);
    syscall(SYS_kill, self, SIGKILL);
  }
  childFail(p.ctrl, kExec, errno);
}

int childEntry(void *plan) {
  childMain(*static_cast<const ChildPlan *>(plan));
}

// The child's stack: it runs on its own, never on the caller's.
constexpr size_t kChildStack = 64 * 1024;

// ASan and TSan keep per-thread state (stack bounds, shadow stacks, fd and
// signal tables) that a child sharing our memory would write as if it were
// the launching thread, and their interceptors would run on its side: a
// sanitized build starts every child with fork(), as before spawnChild.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Starts childMain(plan) in a new process on `stack` (kChildStack bytes)
// and returns its pid (and pidfd), or -1 with errno. Not fork(): a copy of
// fbc's address space costs its page tables, and every page either side
// then writes afterwards a copy-on-write fault with a TLB shootdown across
// the CPUs our threads run on (most of what a launch cost). A child that
// shares our memory (CLONE_VM, as posix_spawn does) only makes syscalls,
// allocates nothing, writes no memory of ours but errno (and execErrno),
// and runs with every signal blocked until it has reset their
// dispositions, so none of our handlers ever runs on its side. Without a
// filter we sleep until its exec or exit (CLONE_VFORK). With one it stops
// for the handshake while we run (a vfork parent would wait for its exec
// forever), and launch() waits for its exec before its stack and plan go.
// It gets a copy of our memory instead, as with fork() but without fork()'s
// atfork handlers and malloc locking, when it switches user (a credential
// change marks the memory's owner undumpable, and that would be fbc) or its
// filter traps exec (launch() could not wait for an exec nobody answers).
pid_t spawnChild(const ChildPlan &plan, char *stack, bool shareMemory, bool vfork, int &pidfd) {
  if (kSanitized) {
    pid_t pid = fork();
    if (pid == 0)
      childMain(plan);
    if (pid > 0)
      pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    return pid;
  }
  sigset_t all, old;
  sigfillset(&all);
  // Raw: glibc's sigprocmask leaves its own two signals unblocked.
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, _NSIG / 8);
  int flags = CLONE_PIDFD | SIGCHLD | (shareMemory ? CLONE_VM : 0) |
              (shareMemory && vfork ? CLONE_VFORK : 0);
  pid_t pid = clone(childEntry, stack + kChildStack, flags, const_cast<ChildPlan *>(&plan), &pidfd);
  int savedErrno = errno;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, nullptr, _NSIG / 8);
  errno = savedErrno;
  return pid;
}

std::string errnoText(int e) {
  return std::strerror(e);
}

LaunchError execFailure(int e) {
  return {e == ENOENT || e == EACCES ? LaunchError::Kind::MissingBinary : LaunchError::Kind::Exec,
          std::string(stageName(kExec)) + ": " + errnoText(e)};
}

// Whether the filter may trap exec itself.
bool trapsExec(const LaunchSpec &spec) {
  for (const char *name : {"execve", "execveat"}) {
    int nr = syscallNumber(name);
    if (std::find(spec.trapped.begin(), spec.trapped.end(), nr) != spec.trapped.end() ||
        std::any_of(spec.conditional.begin(), spec.conditional.end(),
                    [&](const ConditionalTrap &c) { return c.nr == nr; }))
      return true;
  }
  return false;
}

void closeFd(int &fd) {
  if (fd >= 0)
    close(fd);
  fd = -1;
}

bool isExecutableFile(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// Reaps a child that failed before exec (it exits at once).
void reap(pid_t pid, int pidfd) {
  // Out of the signal table before its number is freed (process_groups.h).
  unregisterProcessGroup(pid);
  siginfo_t info{};
  if (pidfd >= 0)
    waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(pidfd), &info, WEXITED);
  else
    waitpid(pid, nullptr, 0);
}

} // namespace

std::string resolveBinary(const std::string &binary) {
  if (binary.empty())
    return "";
  if (binary.find('/') != std::string::npos)
    return isExecutableFile(binary) ? binary : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos)
      end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + binary;
    if (isExecutableFile(candidate))
      return candidate;
    start = end + 1;
  }
  return "";
}

void closeLaunched(Launched &l) {
  closeFd(l.pidfd);
  closeFd(l.listener);
  closeFd(l.stdoutFd);
  closeFd(l.stderrFd);
  closeFd(l.ctrlFd);
}

bool launch(const LaunchSpec &spec, Launched &out, LaunchError &err) {
  out = Launched{};
  // A relative path with a '/' is relative to the service's directory.
  std::string binary = spec.binary;
  if (!binary.empty() && binary[0] != '/' && binary.find('/') != std::string::npos &&
      !spec.cwd.empty())
    binary = spec.cwd + "/" + binary;
  out.resolvedBinary = resolveBinary(binary);
  if (out.resolvedBinary.empty()) {
    err = {LaunchError::Kind::MissingBinary, "binary not found or not executable: " + spec.binary};
    return false;
  }
  int killNr = syscallNumber("kill");
  if (std::find(spec.trapped.begin(), spec.trapped.end(), killNr) != spec.trapped.end()) {
    err = {LaunchError::Kind::Filter,
           "the kill syscall cannot be trapped (the launch handshake uses it)"};
    return false;
  }

  // Filter, argv and envp are built before the child starts.
  std::vector<sock_filter> insns;
  sock_fprog prog{};
  if (spec.filtered()) {
    std::string why;
    if (!buildNotifyFilter(spec.trapped, spec.conditional, insns, why)) {
      err = {LaunchError::Kind::Filter, why};
      return false;
    }
    prog.len = static_cast<unsigned short>(insns.size());
    prog.filter = insns.data();
  }
  // The account is looked up here: the child may not call into NSS.
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;
  std::vector<std::string> userEnv;
  if (!spec.user.empty()) {
    std::vector<char> buf(16384);
    passwd pw{}, *found = nullptr;
    int rc = getpwnam_r(spec.user.c_str(), &pw, buf.data(), buf.size(), &found);
    if (!found) {
      err = {LaunchError::Kind::Spawn,
             "user \"" + spec.user + "\": " + (rc ? errnoText(rc) : "no such account")};
      return false;
    }
    uid = pw.pw_uid;
    gid = pw.pw_gid;
    int n = 64;
    groups.resize(static_cast<size_t>(n));
    if (getgrouplist(pw.pw_name, gid, groups.data(), &n) < 0) {
      groups.resize(static_cast<size_t>(n));
      getgrouplist(pw.pw_name, gid, groups.data(), &n);
    }
    groups.resize(static_cast<size_t>(std::max(n, 0)));
    userEnv = {std::string("HOME=") + pw.pw_dir, std::string("USER=") + pw.pw_name,
               std::string("LOGNAME=") + pw.pw_name};
  }
  std::vector<std::string> argvS{spec.binary};
  argvS.insert(argvS.end(), spec.args.begin(), spec.args.end());
  std::vector<std::string> envS;
  if (spec.inheritEnv)
    for (char **e = environ; e && *e; ++e)
      envS.emplace_back(*e);
  std::vector<std::string> extraEnv = userEnv;
  extraEnv.insert(extraEnv.end(), spec.env.begin(), spec.env.end());
  for (const std::string &kv : extraEnv) {
    std::string key = kv.substr(0, kv.find('=') + 1);
    std::erase_if(envS, [&](const std::string &s) { return s.starts_with(key); });
    envS.push_back(kv);
  }
  std::vector<char *> argv, envp;
  for (std::string &s : argvS)
    argv.push_back(s.data());
  argv.push_back(nullptr);
  for (std::string &s : envS)
    envp.push_back(s.data());
  envp.push_back(nullptr);

  int ctrl[2], outPipe[2], errPipe[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctrl) < 0) {
    err = {LaunchError::Kind::Spawn, "socketpair: " + errnoText(errno)};
    return false;
  }
  if (pipe2(outPipe, O_CLOEXEC) < 0 || pipe2(errPipe, O_CLOEXEC) < 0) {
    err = {LaunchError::Kind::Spawn, "pipe: " + errnoText(errno)};
    return false;
  }
  int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);

  ChildPlan plan{out.resolvedBinary.c_str(),
                 argv.data(),
                 envp.data(),
                 spec.cwd.empty() ? nullptr : spec.cwd.c_str(),
                 spec.filtered() ? &prog : nullptr,
                 ctrl[1],
                 devnull,
                 outPipe[1],
                 errPipe[1],
                 getpid(),
                 spec.joinCgroups.data(),
                 spec.joinCgroups.size(),
                 !spec.user.empty(),
                 uid,
                 gid,
                 groups.data(),
                 groups.size(),
                 nullptr};
  bool shareMemory = !kSanitized && spec.user.empty() && !trapsExec(spec);
  std::atomic<int> execErrno{0};
  if (shareMemory && spec.filtered())
    plan.execErrno = &execErrno;
  std::unique_ptr<char[]> stack(new char[kChildStack]);
  int pidfd = -1;
  pid_t pid = spawnChild(plan, stack.get(), shareMemory, !spec.filtered(), pidfd);
  int savedErrno = errno;
  close(ctrl[1]);
  close(outPipe[1]);
  close(errPipe[1]);
  close(devnull);
  out.ctrlFd = ctrl[0];
  out.stdoutFd = outPipe[0];
  out.stderrFd = errPipe[0];
  if (pid < 0) {
    closeLaunched(out);
    err = {LaunchError::Kind::Spawn, "clone: " + errnoText(savedErrno)};
    return false;
  }
  out.pid = pid;
  setpgid(pid, pid); // also done by the child: whichever runs first wins
  bool registered = registerProcessGroup(pid);
  out.pidfd = pidfd;
  fcntl(out.stdoutFd, F_SETFL, O_NONBLOCK);
  fcntl(out.stderrFd, F_SETFL, O_NONBLOCK);

  auto failed = [&](LaunchError::Kind kind, std::string msg) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    reap(pid, out.pidfd);
    closeLaunched(out);
    out.pid = -1;
    err = {kind, std::move(msg)};
    return false;
  };
  if (!registered)
    return failed(LaunchError::Kind::Resources,
                  "more than " + std::to_string(kMaxProcessGroups) +
                      " services running at once (fbc's process-group table is full)");
  auto readFailure = [&](const CtrlMsg &m) {
    return std::string(stageName(m.stage)) + ": " + errnoText(m.value);
  };

  if (spec.filtered()) {
    CtrlMsg m{};
    ssize_t n = recv(out.ctrlFd, &m, sizeof m, 0);
    if (n != sizeof m)
      return failed(LaunchError::Kind::Spawn, "the child exited before installing its filter");
    if (m.kind == kFailure)
      return failed(m.stage == kSeccomp ? LaunchError::Kind::Filter : LaunchError::Kind::Spawn,
                    readFailure(m));
    int probe = m.value;
    // Stopped: the filter is in and the child waits for us. Exited: it
    // failed and said why on the socket.
    siginfo_t info{};
    if (waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(out.pidfd), &info,
               WSTOPPED | WEXITED | WNOWAIT) < 0)
      return failed(LaunchError::Kind::Spawn, "waitid: " + errnoText(errno));
    if (info.si_code != CLD_STOPPED) {
      n = recv(out.ctrlFd, &m, sizeof m, MSG_DONTWAIT);
      return failed(LaunchError::Kind::Filter,
                    n == sizeof m ? readFailure(m)
                                  : "the child died installing its filter (the listener did not "
                                    "get the announced fd number)");
    }
    out.listener = static_cast<int>(syscall(SYS_pidfd_getfd, out.pidfd, probe, 0));
    if (out.listener < 0)
      return failed(LaunchError::Kind::Filter, "pidfd_getfd: " + errnoText(errno));
    fcntl(out.listener, F_SETFD, FD_CLOEXEC);
    // Wake the supervisor on the target's CPU and hand the target back the
    // same way (Linux 6.6+): the round trip then costs a few microseconds
    // instead of two cross-CPU wake-ups. Older kernels say EINVAL/ENOTTY.
    uint64_t flags = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
    out.syncWakeUp = ioctl(out.listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, flags) == 0;
    out.killableWait = seccompKillableWaitSupported();
    kill(pid, SIGCONT);
    if (plan.execErrno) {
      // It runs on our memory until its exec (EOF: the socket's child end
      // is close-on-exec) or its death.
      do
        n = recv(out.ctrlFd, &m, sizeof m, 0);
      while (n < 0 && errno == EINTR);
      closeFd(out.ctrlFd);
      if (n != 0)
        return failed(LaunchError::Kind::Spawn,
                      "waiting for the exec: " +
                          (n < 0 ? errnoText(errno) : std::string("unexpected message")));
      if (int e = execErrno.load()) {
        LaunchError why = execFailure(e);
        return failed(why.kind, std::move(why.message));
      }
    }
  }
  return true;
}

bool awaitExec(Launched &l, LaunchError &err) {
  if (l.ctrlFd < 0)
    return true; // launch() saw the exec
  CtrlMsg m{};
  ssize_t n;
  do
    n = recv(l.ctrlFd, &m, sizeof m, 0);
  while (n < 0 && errno == EINTR);
  closeFd(l.ctrlFd);
  if (n == sizeof m && m.kind == kFailure) {
    err = m.stage == kExec ? execFailure(m.value)
                           : LaunchError{LaunchError::Kind::Exec, std::string(stageName(m.stage)) +
                                                                      ": " + errnoText(m.value)};
    return false;
  }
  return true; // EOF: the close-on-exec end went away with a successful exec
}

} // namespace fbc::rt
