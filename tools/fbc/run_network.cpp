#include "tools/fbc/run_network.h"

#include "ir/quote.h"
#include "runtime/os/leaf_isolation.h"

#include <algorithm>
#include <cstdio>

namespace fbc::tools {

namespace {

// What every warning of a run in the host's network ends with: the
// collision the namespaces prevent.
constexpr const char *kInHostNetwork =
    "leaves run in this host's network, where a second run on the same ports collides";

const ir::Service *firstService(const ir::Spec &spec, bool (ir::Service::*is)() const) {
  for (const ir::Service &s : spec.services)
    if ((s.*is)())
      return &s;
  return nullptr;
}

} // namespace

void chooseLeafNetwork(const ir::Spec &spec, bool hostNetwork, const std::string &jobsText,
                       const char *cmd, rt::RunConfig &cfg) {
  cfg.leafNetns = false;
  // A reused service is one instance for the run: its tests take turns.
  auto reused = std::find_if(spec.services.begin(), spec.services.end(),
                             [](const ir::Service &s) { return s.reuse; });
  if (const ir::Service *r = reused == spec.services.end() ? nullptr : &*reused;
      r && cfg.jobs > 1) {
    std::fprintf(stderr,
                 "%s: warning: -j %s runs one leaf at a time: service %s is reused "
                 "(reuse=True), one instance that every test shares in turn\n",
                 cmd, jobsText.c_str(), ir::quote(r->name).c_str());
    cfg.jobs = 1;
  }
  if (hostNetwork) {
    if (cfg.jobs > 1) {
      std::fprintf(stderr,
                   "%s: warning: -j %s with --host-network runs one leaf at a time (leaves in one "
                   "network bind the same ports)\n",
                   cmd, jobsText.c_str());
      cfg.jobs = 1;
    }
    return;
  }
  // A leaf's namespace has only its own loopback: no remote service is
  // reachable from it.
  if (const ir::Service *remote = firstService(spec, &ir::Service::isRemote)) {
    if (cfg.jobs > 1)
      std::fprintf(stderr,
                   "%s: warning: -j %s runs each leaf in a network namespace of its own, from "
                   "which remote service %s cannot be reached; running one leaf at a time\n",
                   cmd, jobsText.c_str(), ir::quote(remote->name).c_str());
    else
      std::fprintf(stderr,
                   "%s: warning: remote service %s cannot be reached from a network namespace of "
                   "the leaf's own: %s\n",
                   cmd, ir::quote(remote->name).c_str(), kInHostNetwork);
    cfg.jobs = 1;
    return;
  }
  std::string why;
  if (!rt::netnsAvailable(why)) {
    if (cfg.jobs > 1)
      std::fprintf(stderr,
                   "%s: warning: -j %s runs each leaf in a network namespace of its own, which "
                   "needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN): %s; running one leaf at a "
                   "time\n",
                   cmd, jobsText.c_str(), why.c_str());
    else
      std::fprintf(stderr,
                   "%s: warning: a network namespace per leaf needs root (CAP_SYS_ADMIN and "
                   "CAP_NET_ADMIN): %s; %s\n",
                   cmd, why.c_str(), kInHostNetwork);
    cfg.jobs = 1;
    return;
  }
  cfg.leafNetns = true;
}

} // namespace fbc::tools
