// What a service is to the supervisor (its launch, its ports, its
// readiness probe) and how starting one can fail.
#pragma once

#include "ir/spec.h"
#include "runtime/clients/healthcheck.h"
#include "runtime/os/cgroups.h"
#include "runtime/os/in_process.h"
#include "runtime/os/launcher.h"
#include "runtime/supervisor/unmediated_io.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fbc::rt {

struct ServiceSpec {
  std::string name;
  LaunchSpec launch; // binary, args, env, cwd, trapped syscall numbers
  // Its interfaces where callers on loopback reach it (a container: the
  // ports ports= maps them to), checked as free before it starts:
  // connect/sendto rules on it match these.
  std::vector<uint16_t> ports;
  // A container's interface ports on its network, where other containers
  // reach it by name: connect/sendto rules on it match these too.
  std::vector<uint16_t> networkPorts;
  // The proxies in front of its interfaces (fbc's own listeners, so not
  // checked as taken before it starts): callers connect to these instead,
  // so connect/sendto rules on it match them too.
  std::vector<uint16_t> proxyPorts;
  Healthcheck health;
  // Processes and threads the service may have at once (its cgroup's
  // pids.max; service(..., pids_max=N)). Without cgroups: no limit.
  uint64_t pidsMax = kDefaultPidsMax;
  // What its filter traps only to observe (LeafTest::observes), and whether
  // determinism() records every observed source (else bypasses only while a
  // rule on a family they bypass is in force).
  ObservedTraps observed;
  bool detectAll = false;
  // Set for a service fbc runs itself (an HTTP mock): started and stopped
  // through it, with no process; `launch` is unused.
  std::shared_ptr<InProcessService> inProcess;
  // Run once the service is ready, before service_ready (a Redis mock's
  // seeding): false with `error` stops it and fails its start.
  std::function<bool(std::string &error)> afterReady;
  // The streams whose lines become trace events (service(observe=[...])).
  std::vector<ir::ObserveSource> observe;
};

// Why a service did not come up. reason() names the service, e.g.
//   service "kv": crashed at start (exited with status 3)
struct ServiceError {
  enum class Kind {
    None,
    MissingBinary,
    LaunchFailed,
    PortInUse,
    CrashedAtStart,
    HealthcheckTimeout
  };
  Kind kind = Kind::None;
  std::string service;
  std::string message;

  std::string reason() const;
  explicit operator bool() const { return kind != Kind::None; }
};

std::string_view serviceErrorKindName(ServiceError::Kind k); // "crashed_at_start", ...

// "exited with status 3", "killed by signal SIGSEGV" (from a waitid result).
std::string describeExit(int code, int status);

} // namespace fbc::rt
