// Owns the raw-syscall sweep of a cgroup tree and the watchdog process
// that runs it when fbc dies (see cgroup_sweep.h). Nothing here allocates
// or takes a lock: the watchdog is forked from a threaded process, where
// only async-signal-safe calls are allowed until exec (and it never execs).
#include "runtime/os/cgroup_sweep.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace fbc::rt {
namespace {

constexpr size_t kPath = CgroupRoots::kPathMax + 128;

size_t length(const char *s) {
  size_t n = 0;
  while (s[n])
    ++n;
  return n;
}

// dst = a + "/" + b; false if it does not fit.
bool join(char *dst, size_t cap, const char *a, const char *b) {
  size_t la = length(a), lb = length(b);
  if (la + 1 + lb + 1 > cap)
    return false;
  for (size_t i = 0; i < la; ++i)
    dst[i] = a[i];
  dst[la] = '/';
  for (size_t i = 0; i < lb; ++i)
    dst[la + 1 + i] = b[i];
  dst[la + 1 + lb] = 0;
  return true;
}

bool writeText(const char *dir, const char *file, const char *text) {
  char path[kPath];
  if (!join(path, sizeof path, dir, file))
    return false;
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ssize_t n;
  do
    n = write(fd, text, length(text));
  while (n < 0 && errno == EINTR);
  close(fd);
  return n == static_cast<ssize_t>(length(text));
}

void sleepMs(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

// Calls fn(pid) for each pid in dir/cgroup.procs.
template <typename Fn> void forEachPid(const char *dir, Fn &&fn) {
  char path[kPath];
  if (!join(path, sizeof path, dir, "cgroup.procs"))
    return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  char buf[4096];
  long cur = 0;
  bool digits = false;
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] >= '0' && buf[i] <= '9') {
        cur = cur * 10 + (buf[i] - '0');
        digits = true;
      } else {
        if (digits && cur > 0)
          fn(static_cast<pid_t>(cur));
        cur = 0;
        digits = false;
      }
    }
  }
  if (digits && cur > 0)
    fn(static_cast<pid_t>(cur));
  close(fd);
}

struct Dirent64 {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

// Calls fn(childDir) for each subdirectory of dir.
template <typename Fn> void forEachSubdir(const char *dir, Fn &&fn) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  alignas(8) char buf[4096];
  for (;;) {
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0)
      break;
    for (long off = 0; off < n;) {
      auto *d = reinterpret_cast<Dirent64 *>(buf + off);
      off += d->reclen;
      if (d->type != DT_DIR || (d->name[0] == '.' && (d->name[1] == 0 || d->name[1] == '.')))
        continue;
      char child[kPath];
      if (join(child, sizeof child, dir, d->name))
        fn(child);
    }
  }
  close(fd);
}

void killTree(const char *dir) {
  forEachPid(dir, [](pid_t pid) { kill(pid, SIGKILL); });
  forEachSubdir(dir, [](const char *child) { killTree(child); });
}

// Removes the subdirectories of dir bottom-up (and dir itself if asked);
// true when everything asked for is gone.
bool removeTree(const char *dir, bool self) {
  bool ok = true;
  forEachSubdir(dir, [&](const char *child) { ok = removeTree(child, true) && ok; });
  if (self && rmdir(dir) < 0 && errno != ENOENT)
    ok = false;
  return ok;
}

int countTree(const char *dir) {
  int n = 0;
  forEachPid(dir, [&](pid_t) { ++n; });
  forEachSubdir(dir, [&](const char *child) { n += countTree(child); });
  return n;
}

// True once freezer.state reads FROZEN (a v1 freeze is asynchronous).
bool frozen(const char *dir) {
  char path[kPath];
  if (!join(path, sizeof path, dir, "freezer.state"))
    return false;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  char buf[16] = {};
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  return n >= 6 && buf[0] == 'F' && buf[1] == 'R' && buf[2] == 'O';
}

} // namespace

bool cgroupTreePopulated(const char *dir) {
  return dir[0] && countTree(dir) > 0;
}

int sweepCgroups(const CgroupRoots &roots, bool removeRoots, int waitMs) {
  const char *all[] = {roots.v2, roots.freezer, roots.pids};
  // cgroup.kill (Linux 5.14) kills the whole subtree and fails forks that
  // race with it.
  bool killed = roots.v2[0] && writeText(roots.v2, "cgroup.kill", "1");
  if (!killed && roots.freezer[0]) {
    // A frozen tree cannot fork: kill what is listed, then thaw so the
    // signals are delivered.
    if (writeText(roots.freezer, "freezer.state", "FROZEN"))
      for (int i = 0; i < 200 && !frozen(roots.freezer); ++i)
        sleepMs(1);
    killTree(roots.freezer);
    writeText(roots.freezer, "freezer.state", "THAWED");
  }
  int left = 0;
  for (int waited = 0;; ++waited) {
    left = 0;
    for (const char *r : all)
      if (r[0]) {
        // Whatever is still listed (forked before the kill landed, or no
        // cgroup.kill at all) gets its own SIGKILL.
        killTree(r);
        left += countTree(r);
      }
    if (left == 0 || waited >= waitMs)
      break;
    sleepMs(1);
  }
  // rmdir fails with EBUSY until the last exiting task has left.
  for (int waited = 0;; ++waited) {
    bool ok = true;
    for (const char *r : all)
      if (r[0])
        ok = removeTree(r, removeRoots) && ok;
    if (ok || waited >= waitMs)
      break;
    sleepMs(1);
  }
  return left;
}

int startCgroupWatchdog(const CgroupRoots &roots) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) < 0)
    return -1;
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return -1;
  }
  if (pid == 0) {
    // Its own session: a Ctrl-C to fbc's terminal or a kill of fbc's
    // process group does not reach it; the double fork reparents it away
    // from fbc, so fbc's reaping never waits for it.
    // Not in the directory fbc ran in (a spec's, which a test may check
    // for leftover processes, or a mount someone wants to unmount): born
    // elsewhere, so not even for an instant.
    if (chdir("/") != 0) {
    }
    setsid();
    if (fork() != 0)
      _exit(0);
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP)
        sigaction(sig, &ign, nullptr);
    // Hold nothing of fbc's: a pipe fbc (or a test harness) waits on for
    // EOF must not stay open because of us.
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull >= 0) {
      dup2(devnull, 0);
      dup2(devnull, 1);
      dup2(devnull, 2);
    }
    int keep = p[0];
    syscall(SYS_close_range, 3U, static_cast<unsigned>(keep - 1), 0U);
    syscall(SYS_close_range, static_cast<unsigned>(keep + 1), ~0U, 0U);
    char c;
    for (;;) {
      ssize_t n = read(keep, &c, 1);
      if (n == 0 || (n < 0 && errno != EINTR))
        break;
    }
    sweepCgroups(roots, /*removeRoots=*/true, 2000);
    _exit(0);
  }
  close(p[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return p[1];
}

} // namespace fbc::rt
