// The machine's side of host needs: see host_check.h. A feature counts as
// present only when fbc can drive it: a container engine fbc reaches or
// starts (the probe runtime/containers/ installs); gVisor fbc does not drive
// yet, so where the machine has runsc the answer says so rather than
// pretend it is missing.
#include "runtime/os/host_check.h"

#include "ir/host_needs.h"

#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <string_view>

namespace fbc::rt {

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

namespace {

struct Probe {
  std::once_flag once;
  std::string why;
};

std::string probeGvisor() {
  if (std::string at = onPath("runsc"); !at.empty())
    return "fbc does not drive it yet: runsc found at " + at;
  return "runsc not found";
}

const std::string &cached(Probe &p, std::string (*probe)()) {
  std::call_once(p.once, [&] { p.why = probe(); });
  return p.why;
}

std::function<std::optional<std::string>()> containerProbe; // set before the run

} // namespace

void setContainerEngineProbe(std::function<std::optional<std::string>()> probe) {
  containerProbe = std::move(probe);
}

std::optional<std::string> hostNeedUnmet(const ir::HostNeed &n) {
  static Probe gvisor;
  switch (n.feature) {
  case ir::HostFeature::ContainerRuntime:
    if (containerProbe)
      return containerProbe();
    return "this fbc has no container engine probe installed";
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
