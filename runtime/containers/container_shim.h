// Syscall faults inside a container: fbc's side of the hand-off with
// fbc-shim (runtime/containers/shim.c), the container's entrypoint when the
// leaf traps any of its syscalls.
//
// fbc listens on a Unix socket of its own (one per container, in the run's
// shim directory), bind-mounted at /.fbc/shim.sock next to the shim
// (read-only at /.fbc/shim); the container's command becomes
// ["/.fbc/shim", <image entrypoint>..., <cmd or args=>...]. Once the
// container starts, the shim connects, fbc sends it the BPF program the
// supervisor built for the service's trap set (buildNotifyFilter, the same
// program a binary service gets), and the shim answers with the listener
// of the filtered process tree (SCM_RIGHTS) or a one-line reason. From
// then on the supervisor serves that listener exactly as a launched
// binary's: deny, delay, probability, path globs (paths as the container
// sees them), trace events, fault_bypassed, unmediated-I/O observation.
#pragma once

#include <linux/filter.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt::containers {

// Where the shim and its socket appear inside the container.
inline constexpr const char *kShimPath = "/.fbc/shim";
inline constexpr const char *kShimSocketPath = "/.fbc/shim.sock";

// The fbc-shim executable the build puts next to fbc's own; "" with
// `error` when it is not there.
std::string shimBinary(std::string &error);

// The directory of run `runId`'s shim sockets (the watchdog removes it
// after a kill -9 of fbc).
std::string shimDirOf(const std::string &runId);

class ShimSocket {
public:
  ~ShimSocket();
  ShimSocket(const ShimSocket &) = delete;
  ShimSocket &operator=(const ShimSocket &) = delete;

  // Listens on `path` (replacing nothing: it must not exist), writable by
  // any user of the container (the image's USER may not be root).
  static std::unique_ptr<ShimSocket> listen(const std::string &path, std::string &error);
  const std::string &path() const { return path_; }

  // Waits for the shim, sends it `filter` and returns the listener it
  // hands back (-1 with `error`: what the shim said, or that the
  // container ended first: `exited` is asked every 50 ms and names how).
  int handOff(const std::vector<sock_filter> &filter,
              const std::function<std::optional<std::string>()> &exited, int64_t timeoutMs,
              std::string &error);

private:
  ShimSocket(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

} // namespace fbc::rt::containers
