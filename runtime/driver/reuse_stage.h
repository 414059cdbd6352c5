// The stage a spec with reused services runs its tests on (executor.h,
// reused_services.cpp). Private to the driver's files.
#pragma once

#include "runtime/driver/executor.h"
#include "runtime/os/leaf_isolation.h"
#include "runtime/proxy/proxy.h"
#include "runtime/supervisor/supervisor.h"

#include <memory>
#include <vector>

namespace fbc::rt {

struct Executor::Stage {
  std::unique_ptr<ScratchDir> scratch; // the reused services' FBC_SCRATCH
  std::unique_ptr<Supervisor> sup;
  std::unique_ptr<ProxyHub> hub;
  std::vector<bool> reused;            // per service
  std::vector<std::vector<int>> traps; // per reused service: every test's
  std::vector<bool> started;           // a reused service was started (by an earlier test)
  std::vector<bool> seeded;            // its seed= ran on the running incarnation
};

} // namespace fbc::rt
