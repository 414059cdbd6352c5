// Owns the start-up checks of the kernel features and privileges fbc run
// depends on (see requirements.h).
#include "runtime/os/requirements.h"

#include "runtime/os/cgroups.h"

#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fbc::rt {
namespace {

int kernelAtLeast(int major, int minor) {
  utsname u{};
  if (uname(&u) != 0)
    return false;
  int ma = 0, mi = 0;
  if (std::sscanf(u.release, "%d.%d", &ma, &mi) != 2)
    return false;
  return ma > major || (ma == major && mi >= minor);
}

// CAP_SYS_PTRACE in the effective set (/proc/self/status CapEff).
bool hasPtraceCap() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("CapEff:")) {
      unsigned long long caps = std::strtoull(line.c_str() + 7, nullptr, 16);
      return caps & (1ULL << 19);
    }
  return false;
}

} // namespace

bool seccompKillableWaitSupported() {
  static const bool yes = kernelAtLeast(5, 19);
  return yes;
}

Requirements checkRequirements() {
  Requirements r;
  seccomp_notif_sizes sizes{};
  if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
    r.missing.push_back(std::string("seccomp user notification (Linux 5.0+): ") +
                        std::strerror(errno));
  else if (!kernelAtLeast(5, 5))
    r.missing.push_back("SECCOMP_USER_NOTIF_FLAG_CONTINUE needs Linux 5.5 or later");
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
  if (pidfd < 0) {
    r.missing.push_back(std::string("pidfd_open (Linux 5.3+): ") + std::strerror(errno));
  } else {
    int fd = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, 0, 0));
    if (fd < 0 && errno == ENOSYS)
      r.missing.push_back("pidfd_getfd (Linux 5.6+): not implemented by this kernel");
    else if (fd < 0 && errno == EPERM)
      r.missing.push_back("pidfd_getfd: not permitted (fbc takes each service's seccomp "
                          "listener with it; check Yama ptrace_scope and CAP_SYS_PTRACE)");
    if (fd >= 0)
      close(fd);
    close(pidfd);
  }
  std::ifstream yama("/proc/sys/kernel/yama/ptrace_scope");
  int scope = 0;
  if (yama >> scope) {
    if (scope >= 3)
      r.missing.push_back("Yama ptrace_scope is 3: no process may take another's file "
                          "descriptors (pidfd_getfd), so fbc cannot take a service's seccomp "
                          "listener; set kernel.yama.ptrace_scope to 2 or lower");
    else if (scope == 2 && !hasPtraceCap())
      r.missing.push_back("Yama ptrace_scope is 2: pidfd_getfd needs CAP_SYS_PTRACE; run fbc "
                          "as root or set kernel.yama.ptrace_scope to 1 or 0");
  }
  r.killableWait = seccompKillableWaitSupported();
  RunCgroups &cg = RunCgroups::instance();
  r.cgroups = cg.available();
  r.containment = cg.description();
  return r;
}

} // namespace fbc::rt
