// Supervisor::startInProcess: the services fbc does not launch itself (an
// in-process mock, a remote service, a container), started through their
// InProcessService (runtime/os/in_process.h).
#include "runtime/supervisor/supervisor.h"

#include "runtime/os/syscalls.h"

#include <algorithm>

namespace fbc::rt {

// A service fbc runs itself: ready once it listens; stop() closes it. A
// remote service: ready once its healthcheck passes; nothing to stop.
ServiceError Supervisor::startInProcess(ServiceId id, ServiceError error) {
  Service &svc = *services_.at(id);
  if (svc.inProcessUp) {
    error.kind = ServiceError::Kind::LaunchFailed;
    error.message = "already running";
    return error;
  }
  InProcessService &in = *svc.spec.inProcess;
  if (in.mediable())
    if (LaunchSpec ls = filterOf(id); ls.filtered()) {
      std::vector<sock_filter> program;
      if (std::find(ls.trapped.begin(), ls.trapped.end(), syscallNumber("kill")) !=
          ls.trapped.end())
        error.message = "the kill syscall cannot be trapped (the launch handshake uses it)";
      else
        buildNotifyFilter(ls.trapped, ls.conditional, program, error.message);
      if (program.empty()) {
        error.kind = ServiceError::Kind::LaunchFailed;
        return error;
      }
      in.setFilter(std::move(program));
    }
  if (!in.start(error.message)) {
    error.kind = ServiceError::Kind::LaunchFailed;
    return error;
  }
  svc.inProcessUp = true;
  svc.current = nullptr;
  if (!svc.spec.observe.empty())
    svc.logs = std::make_unique<InProcessLogs>(trace_, id, svc.spec.observe);
  startOrder_.push_back(id);
  trace_.record(EventType::ServiceStarted, id, in.startedFields());
  if (int fd = in.takeListener(); fd >= 0)
    loop_.call([&] {
      svc.listeners.push_back(std::make_unique<NotificationListener>(
          loop_, fd, id, rules_, trace_, opts_.recordAllowedSyscalls, svc.observer.get()));
      svc.listeners.back()->countOperations(opts_.recordOperations);
      svc.listeners.back()->start();
      svc.current = svc.listeners.back().get();
    });
  if (const Healthcheck &h = svc.spec.health; h.kind != Healthcheck::Kind::None) {
    std::string lastError;
    // A container that exits ends the wait as a dying process does.
    auto stopped = [&] { return (opts_.interrupted && opts_.interrupted()) || in.exited(); };
    HealthResult r = waitHealthy(h, stopped, lastError);
    if (r == HealthResult::Ready && in.exited())
      r = HealthResult::Aborted;
    if (r != HealthResult::Ready) {
      std::optional<std::string> exit = in.exited();
      error.kind =
          exit ? ServiceError::Kind::CrashedAtStart : ServiceError::Kind::HealthcheckTimeout;
      error.message = exit ? *exit : notReadyMessage(h, lastError);
      stop(id);
      return error;
    }
  }
  trace_.record(EventType::ServiceReady, id);
  return error;
}

} // namespace fbc::rt
