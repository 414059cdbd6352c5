#include "runtime/os/seccomp_filter.h"

#include <seccomp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace fbc::rt {

bool buildNotifyFilter(std::span<const int> nrs, std::span<const ConditionalTrap> conditional,
                       std::vector<sock_filter> &out, std::string &error) {
  std::unique_ptr<void, decltype(&seccomp_release)> ctx(seccomp_init(SCMP_ACT_ALLOW),
                                                        &seccomp_release);
  if (!ctx) {
    error = "seccomp_init failed";
    return false;
  }
  for (int nr : nrs) {
    int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_NOTIFY, nr, 0);
    if (rc < 0) {
      error = "seccomp_rule_add(" + std::to_string(nr) + "): " + std::strerror(-rc);
      return false;
    }
  }
  for (const ConditionalTrap &c : conditional) {
    if (std::find(nrs.begin(), nrs.end(), c.nr) != nrs.end())
      continue;
    for (const std::vector<ArgTest> &alt : c.anyOf) {
      std::vector<scmp_arg_cmp> cmps;
      for (const ArgTest &t : alt)
        cmps.push_back({t.arg, t.equal ? SCMP_CMP_MASKED_EQ : SCMP_CMP_NE,
                        t.equal ? t.mask : t.value, t.equal ? t.value : 0});
      int rc = seccomp_rule_add_array(ctx.get(), SCMP_ACT_NOTIFY, c.nr,
                                      static_cast<unsigned>(cmps.size()), cmps.data());
      if (rc < 0) {
        error =
            "seccomp_rule_add(" + std::to_string(c.nr) + ", conditional): " + std::strerror(-rc);
        return false;
      }
    }
  }
  // libseccomp 2.5 exports only to an fd: go through a memfd.
  int fd = memfd_create("fbc-filter", MFD_CLOEXEC);
  if (fd < 0) {
    error = std::string("memfd_create: ") + std::strerror(errno);
    return false;
  }
  int rc = seccomp_export_bpf(ctx.get(), fd);
  struct stat st {};
  if (rc < 0 || fstat(fd, &st) < 0 || st.st_size % sizeof(sock_filter) != 0) {
    error = "seccomp_export_bpf failed";
    close(fd);
    return false;
  }
  out.resize(static_cast<size_t>(st.st_size) / sizeof(sock_filter));
  ssize_t n = pread(fd, out.data(), static_cast<size_t>(st.st_size), 0);
  close(fd);
  if (n != st.st_size) {
    error = "reading the exported filter failed";
    return false;
  }
  return true;
}

} // namespace fbc::rt
