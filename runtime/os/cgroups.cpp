// Owns the run's cgroup directories: which hierarchies this host has, the
// fbc-<pid>-<random> roots, each locked while the run lives (and the sweep
// of roots no live run holds), the leaf and
// service directories, their pids limits and the fds a child joins with.
#include "runtime/os/cgroups.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fbc::rt {
namespace {

struct Mounts {
  std::string v2, pids, freezer;
};

// The first mount of each hierarchy whose root is the hierarchy's root
// (/proc/self/mountinfo: "... root mountpoint opts ... - fstype src superopts").
Mounts findMounts() {
  Mounts m;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string id, parent, dev, root, point, word;
    ls >> id >> parent >> dev >> root >> point;
    while (ls >> word && word != "-") {
    }
    std::string fstype, source, superOpts;
    ls >> fstype >> source >> superOpts;
    if (root != "/")
      continue;
    if (fstype == "cgroup2" && m.v2.empty())
      m.v2 = point;
    if (fstype != "cgroup")
      continue;
    std::string opts = "," + superOpts + ",";
    if (opts.find(",pids,") != std::string::npos && m.pids.empty())
      m.pids = point;
    if (opts.find(",freezer,") != std::string::npos && m.freezer.empty())
      m.freezer = point;
  }
  return m;
}

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool writeText(const std::string &path, const std::string &text) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

bool hasWord(const std::string &text, const std::string &word) {
  std::istringstream in(text);
  std::string w;
  while (in >> w)
    if (w == word)
      return true;
  return false;
}

bool copyPath(char (&dst)[CgroupRoots::kPathMax], const std::string &src) {
  if (src.size() + 1 > sizeof dst)
    return false;
  std::memcpy(dst, src.c_str(), src.size() + 1);
  return true;
}

bool makeDir(const std::string &path, std::string &error) {
  if (mkdir(path.c_str(), 0755) == 0 || errno == EEXIST)
    return true;
  error = "cannot create " + path + ": " + std::strerror(errno);
  return false;
}

// A run holds an exclusive flock on each of its roots for its whole life
// (RunCgroups::makeRoot). A root nobody holds belongs to a run that is
// gone, whatever pid its name carries: a pid says nothing across PID
// namespaces (a namespaced run's pid may be free, or another process's, on
// the host), and a lock is the one thing that ends exactly with its run.
// Returns the fd holding the lock, or -1 when a live run holds it.
int lockIfDead(const std::string &dir) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// "fbc-<pid>": a root of fbc before its roots were locked, which cannot be
// told dead by its lock; swept only if its pid is also gone.
bool legacyRootAlive(const std::string &name) {
  char *end = nullptr;
  long pid = std::strtol(name.c_str() + 4, &end, 10);
  return end && !*end && pid > 0 && !(kill(static_cast<pid_t>(pid), 0) < 0 && errno == ESRCH);
}

// Roots left by runs that died with their watchdog (both killed at once, or
// a PID namespace torn down): sweeps those no live run holds.
void sweepStale(const Mounts &m) {
  for (const std::string *mount : {&m.v2, &m.pids, &m.freezer}) {
    if (mount->empty())
      continue;
    DIR *d = opendir(mount->c_str());
    if (!d)
      continue;
    std::vector<std::string> names;
    while (dirent *e = readdir(d))
      if (std::string name = e->d_name; name.starts_with("fbc-"))
        names.push_back(name);
    closedir(d);
    for (const std::string &name : names) {
      std::string dir = *mount + "/" + name;
      int lock = lockIfDead(dir);
      if (lock < 0)
        continue;
      CgroupRoots r;
      char(&slot)[CgroupRoots::kPathMax] = mount == &m.v2     ? r.v2
                                           : mount == &m.pids ? r.pids
                                                              : r.freezer;
      if (!legacyRootAlive(name) && copyPath(slot, dir))
        sweepCgroups(r, /*removeRoots=*/true, 500);
      close(lock);
    }
  }
}

// A fresh root name: the pid for whoever reads the tree, random bits so that
// runs in different PID namespaces (the same pid) never share a root.
std::string newRootName() {
  uint64_t bits = 0;
  if (getrandom(&bits, sizeof bits, 0) != sizeof bits) {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    bits = static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(bits));
  return "fbc-" + std::to_string(getpid()) + "-" + hex;
}

// A service's directory name, injective (x.y and x_y must not share a
// cgroup: stopping one would kill the other): letters, digits and '-' stay,
// every other byte becomes _XX (its hex value), '_' included.
std::string dirName(const std::string &name) {
  std::string out = "svc-";
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-') {
      out += c;
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "_%02x", u);
      out += hex;
    }
  }
  return out;
}

} // namespace

ServiceCgroup::~ServiceCgroup() {
  for (int fd : join_)
    close(fd);
}

std::vector<pid_t> ServiceCgroup::killAll(int waitMs) {
  std::vector<pid_t> listed;
  for (const char *dir : {roots_.v2, roots_.pids, roots_.freezer}) {
    if (!dir[0])
      continue;
    std::istringstream in(readText(std::string(dir) + "/cgroup.procs"));
    for (pid_t p; in >> p;)
      listed.push_back(p);
    break;
  }
  sweepCgroups(roots_, /*removeRoots=*/false, waitMs);
  return listed;
}

uint64_t ServiceCgroup::pidsLimitHits() const {
  if (pidsEvents_.empty())
    return 0;
  std::istringstream in(readText(pidsEvents_));
  std::string key;
  uint64_t value = 0;
  while (in >> key >> value)
    if (key == "max")
      return value;
  return 0;
}

LeafCgroup::~LeafCgroup() {
  services_.clear(); // their join fds first
  sweepCgroups(roots_, /*removeRoots=*/true, 1000);
}

int LeafCgroup::killAll(int waitMs) {
  return sweepCgroups(roots_, /*removeRoots=*/false, waitMs);
}

ServiceCgroup *LeafCgroup::service(const std::string &name, uint64_t pidsMax, std::string &error) {
  for (auto &[n, s] : services_)
    if (n == name)
      return s.get();
  auto svc = std::make_unique<ServiceCgroup>();
  svc->pidsMax_ = pidsMax;
  std::string sub = dirName(name);
  auto make = [&](const char *leafDir, char(&out)[CgroupRoots::kPathMax]) {
    if (!leafDir[0])
      return true;
    std::string dir = std::string(leafDir) + "/" + sub;
    if (!makeDir(dir, error))
      return false;
    if (!copyPath(out, dir)) {
      error = "cgroup path too long: " + dir;
      return false;
    }
    int fd = open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
      error = "cannot open " + dir + "/cgroup.procs: " + std::strerror(errno);
      return false;
    }
    svc->join_.push_back(fd);
    return true;
  };
  if (!make(roots_.v2, svc->roots_.v2) || !make(roots_.pids, svc->roots_.pids) ||
      !make(roots_.freezer, svc->roots_.freezer))
    return nullptr;
  // The pids controller: v1, or the unified tree when it has one.
  for (const char *dir : {svc->roots_.pids, svc->roots_.v2}) {
    std::string maxPath = std::string(dir) + "/pids.max";
    if (!dir[0] || access(maxPath.c_str(), F_OK) != 0)
      continue;
    if (!writeText(maxPath, std::to_string(pidsMax))) {
      error = "cannot set " + maxPath + ": " + std::strerror(errno);
      return nullptr;
    }
    svc->pidsEvents_ = std::string(dir) + "/pids.events";
    break;
  }
  services_.emplace_back(name, std::move(svc));
  return services_.back().second.get();
}

RunCgroups &RunCgroups::instance() {
  static RunCgroups run;
  return run;
}

bool RunCgroups::makeRoot(const std::string &mount, char (&root)[CgroupRoots::kPathMax],
                          std::string &why) {
  // A name of our own (mkdir fails if it exists), locked at once; another
  // run's sweep may take it between the two (it looks dead until locked),
  // so it counts only if the locked directory is still the one at the path.
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::string dir = mount + "/" + newRootName();
    if (mkdir(dir.c_str(), 0755) < 0) {
      if (errno == EEXIST)
        continue;
      why = "cannot create " + dir + ": " + std::strerror(errno);
      return false;
    }
    int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat held {
    }, now{};
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &held) == 0 &&
        stat(dir.c_str(), &now) == 0 && held.st_ino == now.st_ino && held.st_dev == now.st_dev) {
      if (!copyPath(root, dir)) {
        why = "cgroup path too long: " + dir;
        close(fd);
        rmdir(dir.c_str());
        return false;
      }
      rootLocks_.push_back(fd);
      return true;
    }
    if (fd >= 0)
      close(fd);
  }
  why = "cannot create a root of our own under " + mount;
  return false;
}

RunCgroups::RunCgroups() {
  Mounts m = findMounts();
  sweepStale(m);
  std::string why;
  bool v2Kill = false;
  if (!m.v2.empty() && makeRoot(m.v2, roots_.v2, why)) {
    v2Kill = access((std::string(roots_.v2) + "/cgroup.kill").c_str(), F_OK) == 0;
    // Pure v2: the pids controller must be enabled down to the leaves.
    if (hasWord(readText(m.v2 + "/cgroup.controllers"), "pids")) {
      writeText(m.v2 + "/cgroup.subtree_control", "+pids");
      v2Pids_ = writeText(std::string(roots_.v2) + "/cgroup.subtree_control", "+pids");
    }
    if (!v2Kill && !v2Pids_) { // nothing it can do for us
      rmdir(roots_.v2);
      roots_.v2[0] = 0;
    }
  }
  if (!m.pids.empty() && !v2Pids_)
    makeRoot(m.pids, roots_.pids, why);
  if (!v2Kill && !m.freezer.empty())
    makeRoot(m.freezer, roots_.freezer, why);
  available_ = v2Kill || roots_.freezer[0];
  if (!available_) {
    sweepCgroups(roots_, /*removeRoots=*/true, 100);
    roots_ = CgroupRoots{};
    if (why.empty())
      why = m.v2.empty() && m.freezer.empty() ? "no cgroup2 or freezer hierarchy is mounted"
                                              : "the kernel has no cgroup.kill";
    description_ = "process groups only (" + why + ")";
    return;
  }
  description_ = v2Kill ? "cgroup2 (cgroup.kill)" : "cgroup v1 freezer";
  if (v2Pids_)
    description_ += " with pids limits";
  else if (roots_.pids[0])
    description_ += " + v1 pids limits";
  else
    description_ += ", no pids controller: no pids limits";
  watchdogFd_ = startCgroupWatchdog(roots_);
  if (watchdogFd_ < 0)
    description_ += "; no watchdog (fork failed): a killed fbc leaves its services running";
}

std::unique_ptr<LeafCgroup> RunCgroups::newLeaf(std::string &error) {
  std::lock_guard lock(mu_);
  if (!available_) {
    error = description_;
    return nullptr;
  }
  auto leaf = std::unique_ptr<LeafCgroup>(new LeafCgroup());
  std::string name = "leaf-" + std::to_string(nextLeaf_++);
  auto make = [&](const char *root, char(&out)[CgroupRoots::kPathMax]) {
    if (!root[0])
      return true;
    std::string dir = std::string(root) + "/" + name;
    return makeDir(dir, error) && copyPath(out, dir);
  };
  if (!make(roots_.v2, leaf->roots_.v2) || !make(roots_.pids, leaf->roots_.pids) ||
      !make(roots_.freezer, leaf->roots_.freezer))
    return nullptr;
  if (v2Pids_)
    writeText(std::string(leaf->roots_.v2) + "/cgroup.subtree_control", "+pids");
  return leaf;
}

} // namespace fbc::rt
