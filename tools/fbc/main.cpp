#include "runtime/containers/container_run.h"
#include "tools/fbc/cli.h"

int main(int argc, char **argv) {
  // fbc re-executed as the watchdog of a run's containers (container_run.h).
  if (int status = fbc::rt::containers::runWatchdogIfAsked(); status >= 0)
    return status;
  return fbc::tools::runFbc(argc, argv);
}
