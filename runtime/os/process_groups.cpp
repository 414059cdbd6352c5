#include "runtime/os/process_groups.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace fbc::rt {
namespace {

std::atomic<pid_t> gGroups[kMaxProcessGroups];
std::atomic<int> gExitCode{-1};

void onSignal(int sig) {
  signalAllProcessGroups(SIGKILL);
  int code = gExitCode.load();
  if (code >= 0)
    _exit(code);
  signal(sig, SIG_DFL);
  raise(sig);
}

} // namespace

bool registerProcessGroup(pid_t pgid) {
  for (auto &slot : gGroups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid))
      return true;
  }
  return false;
}

void unregisterProcessGroup(pid_t pgid) {
  for (auto &slot : gGroups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0))
      return;
  }
}

void signalAllProcessGroups(int sig) {
  for (auto &slot : gGroups) {
    pid_t g = slot.load();
    if (g > 0)
      kill(-g, sig);
  }
}

void installKillOnSignal(int exitCode) {
  gExitCode.store(exitCode);
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaction(sig, &sa, nullptr);
}

namespace {

// The children of each of our threads, from /proc/self/task/<tid>/children
// (CONFIG_PROC_CHILDREN): a few small reads, where a scan of /proc opens
// every process's stat (a few milliseconds of system time on a busy
// machine, once per leaf). False when the kernel has no such file.
bool childrenFromTasks(std::vector<pid_t> &out) {
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return false;
  bool any = false;
  while (dirent *e = readdir(d)) {
    if (e->d_name[0] == '.')
      continue;
    char path[320], buf[4096];
    std::snprintf(path, sizeof path, "/proc/self/task/%s/children", e->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue; // no such file, or the thread ended meanwhile
    any = true;
    std::string text;
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
      text.append(buf, static_cast<size_t>(n));
    close(fd);
    const char *p = text.c_str();
    for (char *end = nullptr;; p = end) {
      long pid = std::strtol(p, &end, 10);
      if (end == p)
        break;
      if (pid > 0)
        out.push_back(static_cast<pid_t>(pid));
    }
  }
  closedir(d);
  return any;
}

// The pids whose parent is this process (/proc/<pid>/stat field 4).
std::vector<pid_t> children() {
  std::vector<pid_t> out;
  if (childrenFromTasks(out))
    return out;
  out.clear();
  pid_t self = getpid();
  DIR *d = opendir("/proc");
  if (!d)
    return out;
  while (dirent *e = readdir(d)) {
    char *end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (!end || *end || pid <= 0)
      continue;
    char path[64], buf[512];
    std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
      continue;
    buf[n] = 0;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const char *close = std::strrchr(buf, ')');
    int ppid = 0;
    char state = 0;
    if (close && std::sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == self)
      out.push_back(static_cast<pid_t>(pid));
  }
  closedir(d);
  return out;
}

} // namespace

bool processExiting(pid_t pid) {
  char path[64], buf[512];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return true; // reaped
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return true;
  buf[n] = 0;
  // "pid (comm) state ppid pgrp session tty_nr tpgid flags ...".
  const char *end = std::strrchr(buf, ')');
  char state = 0;
  unsigned flags = 0;
  if (!end || std::sscanf(end + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2)
    return false;
  constexpr unsigned kPfExiting = 0x00000004; // include/linux/sched.h
  return state == 'Z' || state == 'X' || (flags & kPfExiting) != 0;
}

void killOrphans(int waitMs) {
  timespec ms{0, 1000000};
  for (int waited = 0; waited <= waitMs; ++waited) {
    std::vector<pid_t> kids = children();
    if (kids.empty())
      return;
    for (pid_t k : kids) {
      kill(k, SIGKILL);
      waitpid(k, nullptr, WNOHANG);
    }
    nanosleep(&ms, nullptr);
  }
}

} // namespace fbc::rt
