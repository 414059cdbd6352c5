// A service fbc runs inside its own process (an HTTP mock_service), one a
// container engine runs (runtime/containers/container_service.h), or one
// it does not run at all (a remote service: runtime/supervisor/remote_service.h):
// the supervisor starts and stops it in dependency order as it does a
// launched service, waits for its healthcheck if it has one, and records
// its lifecycle events, but there is no process to mediate, watch or signal.
#pragma once

#include <linux/filter.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

class InProcessService {
public:
  virtual ~InProcessService() = default;
  // Returns when it accepts connections (it is ready then), or false with
  // `error` saying why it could not listen.
  virtual bool start(std::string &error) = 0;
  // Closes its listener and ends its connections; idempotent.
  virtual void stop() = 0;
  // service_started's fields ({"mock", "http"}, {"address", ...}).
  virtual std::vector<std::pair<std::string, std::string>> startedFields() const = 0;
  // service_stopped's.
  virtual std::vector<std::pair<std::string, std::string>> stoppedFields() const {
    return {{"exit", "stopped"}};
  }
  // Set once what it runs has ended on its own (a container that exited):
  // "exited with status 1", as describeExit() words a process's end. The
  // supervisor stops waiting for its healthcheck then.
  virtual std::optional<std::string> exited() { return std::nullopt; }
  // exited(), asked now: without the pacing a healthcheck loop's calls get.
  virtual std::optional<std::string> exitedNow() { return exited(); }
  // The supervisor saw its processes end (its filter has none left) before
  // stop(): they ended on their own, whatever the engine says yet.
  virtual void noteEnded() {}
  // A service whose processes run under fbc's seccomp filter although fbc
  // does not start them (a container, through fbc-shim:
  // runtime/containers/container_shim.h). The supervisor hands it the
  // filter program for its trap set before start(); after a successful
  // start() it takes the listener of those processes and serves it as a
  // launched service's. -1: nothing to serve (no filter was asked for).
  virtual bool mediable() const { return false; }
  virtual void setFilter(std::vector<sock_filter> program) { (void)program; }
  virtual int takeListener() { return -1; }
  // What it wrote (a container's logs), once stopped.
  virtual std::string stdoutText() const { return ""; }
  virtual std::string stderrText() const { return ""; }
  // What it wrote since the last call, read now (a container's logs, from
  // the engine): service(observe=[...]) reads its lines through this.
  virtual void newOutput(std::string &out, std::string &err) {
    (void)out;
    (void)err;
  }
};

} // namespace fbc::rt
