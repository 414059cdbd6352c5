#include "runtime/supervisor/service.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

namespace fbc::rt {

std::string_view serviceErrorKindName(ServiceError::Kind k) {
  switch (k) {
  case ServiceError::Kind::None:
    return "none";
  case ServiceError::Kind::MissingBinary:
    return "missing_binary";
  case ServiceError::Kind::LaunchFailed:
    return "launch_failed";
  case ServiceError::Kind::PortInUse:
    return "port_in_use";
  case ServiceError::Kind::CrashedAtStart:
    return "crashed_at_start";
  case ServiceError::Kind::HealthcheckTimeout:
    return "healthcheck_timeout";
  }
  return "unknown";
}

std::string ServiceError::reason() const {
  std::string what;
  switch (kind) {
  case Kind::None:
    return "";
  case Kind::MissingBinary:
    what = "missing binary";
    break;
  case Kind::LaunchFailed:
    what = "launch failed";
    break;
  case Kind::PortInUse:
    what = "port in use";
    break;
  case Kind::CrashedAtStart:
    what = "crashed at start";
    break;
  case Kind::HealthcheckTimeout:
    what = "healthcheck timed out";
    break;
  }
  std::string out = "service \"" + service + "\": " + what;
  if (!message.empty())
    out += " (" + message + ")";
  return out;
}

std::string describeExit(int code, int status) {
  if (code == CLD_EXITED)
    return "exited with status " + std::to_string(status);
  const char *abbrev = sigabbrev_np(status);
  std::string sig = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(status);
  if (code == CLD_DUMPED)
    return "killed by " + sig + " (core dumped)";
  return "killed by " + sig;
}

} // namespace fbc::rt
