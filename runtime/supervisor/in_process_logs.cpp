#include "runtime/supervisor/in_process_logs.h"

namespace fbc::rt {

InProcessLogs::InProcessLogs(Trace &trace, ServiceId id,
                             const std::vector<ir::ObserveSource> &observe) {
  for (const ir::ObserveSource &o : observe)
    (o.stream == "stderr" ? err_ : out_)
        .observers.push_back(std::make_unique<LogObserver>(trace, id, o));
}

void InProcessLogs::Stream::feed(std::string_view text, bool final) {
  if (observers.empty())
    return;
  pending.append(text);
  size_t start = 0;
  for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
    for (auto &o : observers)
      o->line(std::string_view(pending).substr(start, nl - start));
  pending.erase(0, start);
  if (final && !pending.empty()) {
    for (auto &o : observers)
      o->line(pending);
    pending.clear();
  }
}

void InProcessLogs::take(InProcessService &svc, bool final) {
  std::lock_guard lock(mu_);
  std::string out, err;
  svc.newOutput(out, err);
  out_.feed(out, final);
  err_.feed(err, final);
}

void InProcessLogs::pump(InProcessService &svc) {
  take(svc, false);
}

void InProcessLogs::finish(InProcessService &svc) {
  take(svc, true);
}

} // namespace fbc::rt
