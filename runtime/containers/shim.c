// fbc-shim: the entrypoint of a container whose syscalls fbc mediates
// (runtime/containers/container_shim.h). Built by the project as a static
// executable (no library of the image is needed), bind-mounted read-only at
// /.fbc/shim, with fbc's Unix socket at /.fbc/shim.sock; its arguments are
// the image's own entrypoint and command.
//
//   1. connect to fbc (before any filter: connect may be trapped) and
//      receive the BPF program fbc built for the leaf's trap set (the same
//      buildNotifyFilter the binary launcher uses);
//   2. resolve argv[1] through PATH (a failure is reported to fbc);
//   3. fork. The child installs the filter (PR_SET_NO_NEW_PRIVS, seccomp
//      with NEW_LISTENER), stops itself with kill(SIGSTOP) — `kill` is
//      never trapped, as for the binary launcher — and once continued execs
//      the image's program: it and everything it starts run under the
//      filter;
//   4. the parent (unfiltered) sees the stop (waitid WSTOPPED), takes the
//      listener out of the child with pidfd_getfd, sends it to fbc with
//      SCM_RIGHTS, and continues the child. The fd in flight keeps the
//      listener alive whatever the child does next, and the child made no
//      syscall between its filter and its stop but `kill`: nothing to
//      deadlock on, no fd whitelisted in the filter;
//   5. the parent stays as the container's init: it forwards every signal
//      it gets (the engine's stop signal) to the child, reaps orphans, and
//      exits with the child's status (128 + signal when it was killed).
//
// A failure before the hand-off is one message "E<text>" to fbc (and the
// same text on stderr, the container's log).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif

static const char kSocket[] = "/.fbc/shim.sock";
enum { kMaxFilter = 4096 }; // BPF_MAXINSNS

static int ctl = -1;

static void fail(const char *what, int err) {
  char msg[512];
  int n = snprintf(msg, sizeof msg, "Efbc-shim: %s%s%s", what, err ? ": " : "",
                   err ? strerror(err) : "");
  if (n < 0)
    n = 0;
  if ((size_t)n >= sizeof msg)
    n = sizeof msg - 1;
  if (ctl >= 0)
    send(ctl, msg, (size_t)n, MSG_NOSIGNAL);
  fprintf(stderr, "%s\n", msg + 1);
  exit(127);
}

// argv[1] as execvp would find it (PATH from the image's environment).
static const char *resolve(const char *name, char *buf, size_t size) {
  if (strchr(name, '/'))
    return access(name, X_OK) == 0 ? name : NULL;
  const char *path = getenv("PATH");
  if (!path)
    path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  for (const char *p = path;; ++p) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    struct stat st;
    if (snprintf(buf, size, "%.*s/%s", (int)len, len ? p : ".", name) < (int)size &&
        stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
      return buf;
    if (!end)
      return NULL;
    p = end;
  }
}

// The child: filter, stop, exec. After seccomp() only `kill` until the
// parent has the listener.
static void child(const struct sock_fprog *prog, int expected, const char *binary, char **argv) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    _exit(120);
  long self = syscall(SYS_getpid);
  long fd =
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
              SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, prog);
  if (fd < 0 && errno == EINVAL)
    fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, prog);
  if (fd < 0)
    _exit(121); // no filter in place: the parent reports it
  if (fd != expected)
    syscall(SYS_kill, self, SIGKILL);
  syscall(SYS_kill, self, SIGSTOP);
  execv(binary, argv);
  fprintf(stderr, "fbc-shim: exec %s: %s\n", binary, strerror(errno));
  _exit(127);
}

// Sends the child's listener to fbc.
static void handOver(pid_t pid, int listenerNr) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  if (waitid(P_PID, (id_t)pid, &info, WSTOPPED | WEXITED) < 0)
    fail("waitid", errno);
  if (info.si_code != CLD_STOPPED)
    fail(info.si_code == CLD_EXITED && info.si_status == 121
             ? "installing the seccomp filter failed"
             : "the child died installing its filter",
         0);
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (pidfd < 0)
    fail("pidfd_open", errno);
  int listener = (int)syscall(SYS_pidfd_getfd, pidfd, listenerNr, 0);
  if (listener < 0)
    fail("pidfd_getfd", errno);
  char tag = 'L';
  struct iovec iov = {&tag, 1};
  union {
    struct cmsghdr h;
    char buf[CMSG_SPACE(sizeof(int))];
  } u;
  memset(&u, 0, sizeof u);
  struct msghdr msg = {0};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = u.buf;
  msg.msg_controllen = sizeof u.buf;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &listener, sizeof(int));
  if (sendmsg(ctl, &msg, MSG_NOSIGNAL) != 1)
    fail("sending the listener to fbc", errno);
  close(listener);
  close(pidfd);
  close(ctl);
  ctl = -1;
  kill(pid, SIGCONT);
}

// The container's init from here on: forward signals, reap, mirror the
// child's end.
static int initLoop(pid_t main) {
  sigset_t all;
  sigfillset(&all);
  for (;;) {
    siginfo_t si;
    int sig = sigwaitinfo(&all, &si);
    if (sig < 0)
      continue;
    if (sig != SIGCHLD) {
      kill(main, sig);
      continue;
    }
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
      if (pid == main)
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "fbc-shim: usage: fbc-shim PROGRAM [ARG...]\n");
    return 127;
  }
  // Signals wait for initLoop (the engine may send its stop signal early).
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_SETMASK, &all, NULL);

  ctl = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  memcpy(addr.sun_path, kSocket, sizeof kSocket);
  if (ctl < 0 || connect(ctl, (struct sockaddr *)&addr, sizeof addr) < 0) {
    int e = errno;
    ctl = -1;
    fail("connecting to fbc at /.fbc/shim.sock", e);
  }
  static struct sock_filter insns[kMaxFilter];
  ssize_t n = recv(ctl, insns, sizeof insns, 0);
  if (n <= 0 || n % (ssize_t)sizeof(struct sock_filter) != 0)
    fail("no filter from fbc", n < 0 ? errno : 0);
  struct sock_fprog prog = {(unsigned short)(n / (ssize_t)sizeof(struct sock_filter)), insns};

  static char found[4096];
  const char *binary = resolve(argv[1], found, sizeof found);
  if (!binary) {
    char what[600];
    snprintf(what, sizeof what, "%.500s: not found in the image (PATH=%.60s)", argv[1],
             getenv("PATH") ? getenv("PATH") : "");
    fail(what, 0);
  }
  // The listener will be the child's lowest free fd: ours, now.
  int probe = dup(0);
  if (probe < 0)
    probe = open("/dev/null", O_RDONLY);
  if (probe < 0)
    fail("dup", errno);
  close(probe);
  pid_t pid = fork();
  if (pid < 0)
    fail("fork", errno);
  if (pid == 0) // keeps ctl (close-on-exec): closing it would free a number below probe
    child(&prog, probe, binary, argv + 1);
  handOver(pid, probe);
  return initLoop(pid);
}
