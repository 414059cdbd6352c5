// service(observe=[...]) on a service fbc does not launch (a container):
// its output is no pipe fbc reads as it comes, but what the service hands
// over when asked (InProcessService::newOutput: a container's logs, read
// from the engine). The body's event queries ask first
// (Supervisor::pumpObservedOutput), so a query made after a step sees the
// lines the service wrote before it answered; stop() hands over the rest.
// Whole lines go to the stream's observers (runtime/trace/log_observe.h),
// a last line without its newline only at the end.
#pragma once

#include "ir/spec.h"
#include "runtime/os/in_process.h"
#include "runtime/trace/log_observe.h"
#include "runtime/trace/trace.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

class InProcessLogs {
public:
  InProcessLogs(Trace &trace, ServiceId id, const std::vector<ir::ObserveSource> &observe);
  // What `svc` wrote since the last call, line by line to the observers.
  void pump(InProcessService &svc);
  // The rest, a last partial line included (after svc.stop()).
  void finish(InProcessService &svc);

private:
  struct Stream {
    std::vector<std::unique_ptr<LogObserver>> observers;
    std::string pending; // the part of a line not ended yet
    void feed(std::string_view text, bool final);
  };
  void take(InProcessService &svc, bool final);

  std::mutex mu_; // pump() runs on the body's thread, finish() on the stopper's
  Stream out_, err_;
};

} // namespace fbc::rt
