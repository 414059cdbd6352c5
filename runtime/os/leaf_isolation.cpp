// Network namespaces and scratch directories of leaves: see leaf_isolation.h.
#include "runtime/os/leaf_isolation.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <net/if.h>
#include <pwd.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

namespace fbc::rt {

namespace {

std::string errnoText(const char *what) {
  return std::string(what) + ": " + strerror(errno);
}

} // namespace

bool enterNewNetns(std::string &error) {
  // Only this thread moves: the network namespace is per thread, and
  // CLONE_NEWNET (unlike CLONE_NEWUSER or CLONE_NEWNS) may be unshared by
  // one thread of many.
  if (unshare(CLONE_NEWNET) < 0) {
    error = errnoText("unshare(CLONE_NEWNET)");
    return false;
  }
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = errnoText("socket in the leaf's network namespace");
    return false;
  }
  ifreq ifr{};
  strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  bool ok = ioctl(fd, SIOCGIFFLAGS, &ifr) == 0;
  if (ok) {
    ifr.ifr_flags = static_cast<short>(ifr.ifr_flags | IFF_UP | IFF_RUNNING);
    ok = ioctl(fd, SIOCSIFFLAGS, &ifr) == 0;
  }
  if (!ok)
    error = errnoText("bringing up loopback in the leaf's network namespace");
  close(fd);
  return ok;
}

bool netnsAvailable(std::string &why) {
  bool ok = false;
  std::thread probe([&] { ok = enterNewNetns(why); });
  probe.join();
  return ok;
}

int hostNetnsFd() {
  // /proc/<pid> is the main thread: it never enters a leaf's namespace.
  static const int fd =
      open(("/proc/" + std::to_string(getpid()) + "/ns/net").c_str(), O_RDONLY | O_CLOEXEC);
  return fd;
}

bool inLeafNetns() {
  struct stat host {
  }, self{};
  return hostNetnsFd() >= 0 && fstat(hostNetnsFd(), &host) == 0 &&
         stat("/proc/thread-self/ns/net", &self) == 0 &&
         (host.st_ino != self.st_ino || host.st_dev != self.st_dev);
}

NetnsVisit::NetnsVisit(int fd, std::string &error) {
  back_ = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (back_ < 0) {
    error = errnoText("opening the thread's network namespace");
    return;
  }
  if (setns(fd, CLONE_NEWNET) < 0) {
    error = errnoText("setns(CLONE_NEWNET)");
    close(back_);
    back_ = -1;
    return;
  }
  ok_ = true;
}

NetnsVisit::~NetnsVisit() {
  if (back_ < 0)
    return;
  // Back where it was: a failure here would leave a leaf's thread in the
  // host's network, so it is fatal rather than silent.
  if (setns(back_, CLONE_NEWNET) < 0)
    std::abort();
  close(back_);
}

namespace {

std::string tempRoot() {
  const char *tmp = getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

// The fd holding `dir`'s lock, if nobody else holds it; -1 otherwise (or
// when it is not a directory of ours).
int lockUnheld(const std::string &dir) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return -1;
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_uid != geteuid() || flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// What follows the caller's prefix in the name of a locked directory: a
// directory of that name nobody holds is provably dead. Those an older fbc
// made (<prefix>XXXXXX, never locked) cannot be told dead, and are left.
constexpr std::string_view kLocked = "lk-";

// Removes root/<prefix>lk-XXXXXX directories no live process holds.
void sweepDeadTempDirs(const std::string &root, const std::string &prefix) {
  std::string locked = prefix + std::string(kLocked);
  std::vector<std::string> names;
  if (DIR *d = opendir(root.c_str())) {
    while (dirent *e = readdir(d))
      if (std::string n = e->d_name; n.size() == locked.size() + 6 && n.starts_with(locked))
        names.push_back(n);
    closedir(d);
  }
  for (const std::string &n : names) {
    std::string dir = root + "/" + n;
    int fd = lockUnheld(dir);
    if (fd < 0)
      continue;
    std::string left;
    removeTreeWithinMount(dir, left);
    close(fd);
  }
}

// The mount points on `dir` and inside it, deepest first
// (/proc/self/mountinfo's fifth field, with its octal escapes).
std::vector<std::string> mountsInside(const std::string &dir) {
  std::vector<std::string> out;
  FILE *f = fopen("/proc/self/mountinfo", "re");
  if (!f)
    return out;
  char *line = nullptr;
  size_t cap = 0;
  std::string inside = dir + "/";
  while (getline(&line, &cap, f) > 0) {
    std::string point;
    int field = 0;
    for (const char *p = line; *p && *p != '\n' && field <= 4; ++p) {
      if (*p == ' ') {
        ++field;
      } else if (field == 4) {
        if (*p == '\\' && p[1] && p[2] && p[3]) {
          point += static_cast<char>((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
          p += 3;
        } else {
          point += *p;
        }
      }
    }
    if (point == dir || point.starts_with(inside))
      out.push_back(point);
  }
  free(line);
  fclose(f);
  std::sort(out.begin(), out.end(),
            [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
  return out;
}

} // namespace

bool removeTreeWithinMount(const std::string &dir, std::string &left) {
  for (const std::string &point : mountsInside(dir))
    umount2(point.c_str(), MNT_DETACH | UMOUNT_NOFOLLOW);
  // FTW_MOUNT: an entry on another file system (a mount that could not be
  // detached) is not visited, so nothing through it is removed.
  nftw(
      dir.c_str(),
      [](const char *p, const struct stat *, int type, FTW *) {
        if (type == FTW_DP)
          rmdir(p);
        else
          unlink(p);
        return 0;
      },
      16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0)
    return true;
  left = dir;
  if (std::vector<std::string> points = mountsInside(dir); !points.empty())
    left += " (a mount inside it could not be detached: " + points.back() + ")";
  return false;
}

std::optional<LockedTempDir> makeLockedTempDir(const std::string &prefix, std::string &error) {
  std::string root = tempRoot();
  sweepDeadTempDirs(root, prefix);
  // Another process's sweep may take the directory between mkdtemp and the
  // lock (it looks dead until locked): it counts only if the locked
  // directory is still the one at the path.
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::string tmpl = root + "/" + prefix + std::string(kLocked) + "XXXXXX";
    if (!mkdtemp(tmpl.data())) {
      error = errnoText(("scratch directory " + tmpl).c_str());
      return std::nullopt;
    }
    int fd = open(tmpl.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat held {
    }, now{};
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &held) == 0 &&
        lstat(tmpl.c_str(), &now) == 0 && held.st_ino == now.st_ino && held.st_dev == now.st_dev)
      return LockedTempDir{tmpl, fd};
    if (fd >= 0)
      close(fd);
  }
  error = "cannot make a directory of our own under " + root;
  return std::nullopt;
}

std::unique_ptr<ScratchDir> ScratchDir::make(std::string &error) {
  std::optional<LockedTempDir> d = makeLockedTempDir("fbc-scratch-", error);
  if (!d)
    return nullptr;
  return std::unique_ptr<ScratchDir>(new ScratchDir(std::move(*d)));
}

bool ScratchDir::handTo(const std::vector<std::string> &users, std::string &error) {
  std::vector<std::string> accounts;
  for (const std::string &u : users)
    if (!u.empty() && std::find(accounts.begin(), accounts.end(), u) == accounts.end())
      accounts.push_back(u);
  if (accounts.empty())
    return true;
  if (accounts.size() > 1) {
    if (chmod(dir_.path.c_str(), 01777) == 0)
      return true;
    error = errnoText(("chmod 1777 " + dir_.path).c_str());
    return false;
  }
  std::vector<char> buf(16384);
  passwd pw{}, *found = nullptr;
  int rc = getpwnam_r(accounts[0].c_str(), &pw, buf.data(), buf.size(), &found);
  if (!found) {
    error = "scratch directory for user \"" + accounts[0] +
            "\": " + (rc ? std::string(strerror(rc)) : "no such account");
    return false;
  }
  if (chown(dir_.path.c_str(), pw.pw_uid, pw.pw_gid) == 0)
    return true;
  error = errnoText(("chown " + accounts[0] + " " + dir_.path).c_str());
  return false;
}

ScratchDir::~ScratchDir() {
  std::string left;
  if (!removeTreeWithinMount(dir_.path, left))
    std::fprintf(stderr, "warning: scratch directory kept: %s\n", left.c_str());
  close(dir_.lockFd);
}

std::string expandScratch(std::string s, const std::string &scratch) {
  for (const char *name : {"${FBC_SCRATCH}", "$FBC_SCRATCH"}) {
    std::string_view n(name);
    for (size_t at = s.find(n); at != std::string::npos; at = s.find(n, at + scratch.size()))
      s.replace(at, n.size(), scratch);
  }
  return s;
}

} // namespace fbc::rt
