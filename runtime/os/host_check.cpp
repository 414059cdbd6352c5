// The machine's side of host needs: see host_check.h. A feature counts as
// present only when fbc can drive it; today fbc drives neither containers
// nor gVisor, so where the machine has one the answer says what was found
// and that fbc does not drive it yet, rather than pretend it is missing.
#include "runtime/os/host_check.h"

#include "ir/host_needs.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string_view>

namespace fbc::rt {

namespace {

// The first executable `name` on $PATH, or "".
std::string onPath(std::string_view name) {
  const char *path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (true) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      std::string file = std::string(dir) + "/" + std::string(name);
      if (access(file.c_str(), X_OK) == 0)
        return file;
    }
    if (colon == std::string_view::npos)
      return "";
    rest.remove_prefix(colon + 1);
  }
}

struct Probe {
  std::once_flag once;
  std::string why;
};

// The docker daemon's socket: DOCKER_HOST when it is a unix:// address,
// else the default.
std::string dockerSocket() {
  const char *host = std::getenv("DOCKER_HOST");
  std::string_view h = host ? host : "";
  if (h.rfind("unix://", 0) == 0)
    return std::string(h.substr(7));
  return "/var/run/docker.sock";
}

bool answers(const std::string &socketPath) {
  sockaddr_un addr{};
  if (socketPath.size() >= sizeof addr.sun_path)
    return false;
  addr.sun_family = AF_UNIX;
  socketPath.copy(addr.sun_path, socketPath.size());
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return false;
  bool ok = connect(fd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

// A docker client is not a runtime without its daemon; podman needs none.
std::string probeContainers() {
  std::string docker = onPath("docker"), podman = onPath("podman");
  if (!podman.empty())
    return "fbc does not drive one yet: podman found at " + podman;
  if (docker.empty())
    return "docker or podman not found";
  std::string sock = dockerSocket();
  if (answers(sock))
    return "fbc does not drive one yet: docker answers at " + sock;
  return "docker found at " + docker + ", but no daemon answers at " + sock + "; podman not found";
}

std::string probeGvisor() {
  if (std::string at = onPath("runsc"); !at.empty())
    return "fbc does not drive it yet: runsc found at " + at;
  return "runsc not found";
}

const std::string &cached(Probe &p, std::string (*probe)()) {
  std::call_once(p.once, [&] { p.why = probe(); });
  return p.why;
}

} // namespace

std::optional<std::string> hostNeedUnmet(const ir::HostNeed &n) {
  static Probe containers, gvisor;
  switch (n.feature) {
  case ir::HostFeature::ContainerRuntime:
    return cached(containers, probeContainers);
  case ir::HostFeature::Gvisor:
    return cached(gvisor, probeGvisor);
  case ir::HostFeature::Unbuilt:
    return ""; // the need's own words say it all
  }
  return "";
}

std::string cannotRunReason(const ir::Spec &spec, const std::vector<ir::HostNeed> &needs) {
  std::string out;
  for (const ir::HostNeed &n : needs) {
    std::string reason;
    // The reference refuses these on its default runtime rather than
    // downgrade them (a partition as a connect() deny): so does fbc.
    if (n.feature == ir::HostFeature::Gvisor && spec.determinism.runtime != "gvisor")
      reason = ir::wrongRuntimeReason(n, spec.determinism.runtime);
    else if (std::optional<std::string> why = hostNeedUnmet(n))
      reason = ir::hostNeedReason(n, *why);
    if (!reason.empty())
      out.append(out.empty() ? "" : "; ").append(reason);
  }
  return out;
}

} // namespace fbc::rt
