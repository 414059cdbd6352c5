// Network namespaces and scratch directories of leaves: see leaf_isolation.h.
#include "runtime/os/leaf_isolation.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <net/if.h>
#include <pwd.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

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

std::unique_ptr<ScratchDir> ScratchDir::make(std::string &error) {
  const char *tmp = getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/fbc-scratch-XXXXXX";
  if (!mkdtemp(tmpl.data())) {
    error = errnoText(("scratch directory " + tmpl).c_str());
    return nullptr;
  }
  return std::unique_ptr<ScratchDir>(new ScratchDir(std::move(tmpl)));
}

bool ScratchDir::handTo(const std::vector<std::string> &users, std::string &error) {
  std::vector<std::string> accounts;
  for (const std::string &u : users)
    if (!u.empty() && std::find(accounts.begin(), accounts.end(), u) == accounts.end())
      accounts.push_back(u);
  if (accounts.empty())
    return true;
  if (accounts.size() > 1) {
    if (chmod(path_.c_str(), 01777) == 0)
      return true;
    error = errnoText(("chmod 1777 " + path_).c_str());
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
  if (chown(path_.c_str(), pw.pw_uid, pw.pw_gid) == 0)
    return true;
  error = errnoText(("chown " + accounts[0] + " " + path_).c_str());
  return false;
}

ScratchDir::~ScratchDir() {
  // Depth first, without following links out of it.
  nftw(
      path_.c_str(),
      [](const char *p, const struct stat *, int, FTW *) {
        remove(p);
        return 0;
      },
      16, FTW_DEPTH | FTW_PHYS);
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
