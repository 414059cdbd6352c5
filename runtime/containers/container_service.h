// A container service (service(image=...)) as the supervisor starts and
// stops it: created from the image through the engine API with the
// service's env, args (the image's CMD replaced), user, volumes and ports,
// labelled as the run's (container_run.h), on the run's network under its
// service name (so other containers reach it at .internal_addr), each
// interface's port published on 127.0.0.1 at the port its address names
// (ir::Service::address: ports= or the interface's own); then started. The
// supervisor waits for its healthcheck as for a binary; a container that
// exits first is reported as a binary that dies at start, with its exit
// status and its last log line. Stopping it (end of test) stops the
// container with the grace period, keeps its logs as the service's stdout
// and stderr, and removes it with its anonymous volumes.
#pragma once

#include "ir/spec.h"
#include "runtime/containers/container_run.h"
#include "runtime/containers/container_shim.h"
#include "runtime/os/in_process.h"
#include "runtime/proxy/proxy.h"
#include "runtime/supervisor/service.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt::containers {

struct ContainerConfig {
  std::string service;           // the service's name: its network alias
  std::string image;             // as the spec wrote it (build=: the built tag, once built)
  std::string build;             // build=: the context directory, absolute
  std::vector<std::string> env;  // KEY=VALUE
  std::vector<std::string> args; // replaces the image's CMD when not empty
  std::string user;
  std::vector<std::string> binds; // "host:container"
  // container port -> the port of its address on loopback: published
  // there on 127.0.0.1 in the host's network, relayed from there in a
  // leaf's own (host_relay.h).
  std::vector<std::pair<int, int>> ports;
  // ports= maps a port to host port 0 (any): only a leaf's own network
  // namespace can have that, the address being the container port there.
  bool anyHostPort = false;
  int64_t stopGraceMs = 2000;
  // How env= and args= name other services (host_relay.h): another
  // container's published host port -> "<service>:<container port>" on the
  // run's network; the host-loopback ports of the services fbc runs on the
  // host that this one depends on (depends_on, transitively), relayed from
  // the network's gateway whether its env names them or not.
  std::map<int, std::string> peers;
  std::vector<int> hostDeps;
};

// The config of container service `s` (`env` its environment as
// launchConfig() rewrote it; relative volume paths resolved against `dir`).
ContainerConfig containerConfig(const ir::Spec &spec, const ir::Service &s,
                                const std::vector<std::string> &env, const std::string &dir,
                                int64_t stopGraceMs);

class ContainerService final : public InProcessService {
public:
  ContainerService(ContainerRun &run, ContainerConfig cfg) : run_(run), cfg_(std::move(cfg)) {}
  ContainerService(const ContainerService &) = delete;
  ContainerService &operator=(const ContainerService &) = delete;
  ~ContainerService() override { stop(); }

  bool start(std::string &error) override;
  void stop() override;
  std::vector<std::pair<std::string, std::string>> startedFields() const override;
  std::vector<std::pair<std::string, std::string>> stoppedFields() const override;
  std::optional<std::string> exited() override;
  std::optional<std::string> exitedNow() override;
  void noteEnded() override { endedNoted_ = true; }
  std::string stdoutText() const override;
  std::string stderrText() const override;
  void newOutput(std::string &out, std::string &err) override;
  // Its processes run under fbc's filter through fbc-shim when the leaf
  // traps any of its syscalls (container_shim.h).
  bool mediable() const override { return true; }
  void setFilter(std::vector<sock_filter> program) override { filter_ = std::move(program); }
  int takeListener() override;

private:
  bool ensureImage(std::string &error);
  std::string createBody() const;
  // In a leaf's own network namespace: relays from each address on the
  // leaf's loopback to the container on its network; false with `error`.
  bool openIngress(std::string &error);
  // cfg_.env and cfg_.args as the container must see them: loopback
  // addresses of peers by name, of host services through the gateway
  // (holding their relays); false with `error`.
  bool wire(std::vector<std::string> &env, std::vector<std::string> &args, std::string &error);
  // With a filter: the socket fbc-shim connects to; false with `error`.
  bool prepareShim(const std::string &name, std::string &error);
  void fetchLogs();
  // How its container ended, from the engine's state: nullopt while it
  // runs, unless `evenRunning` (its exit code then, whatever the state).
  std::optional<std::string> endedOnItsOwn(bool evenRunning) const;

  ContainerRun &run_;
  ContainerConfig cfg_;
  std::string id_;      // the container's id while it exists
  std::string imageId_; // what the image reference resolved to
  mutable std::mutex mu_;
  std::string stdout_, stderr_;
  size_t handedOut_ = 0, handedErr_ = 0; // newOutput(): what it handed over
  std::optional<std::string> exit_;      // set once it was seen exited
  // Set by stop() when the container had ended before it: how.
  std::optional<std::string> ownEnd_;
  bool endedNoted_ = false; // noteEnded(): its service process is gone
  std::chrono::steady_clock::time_point lastCheck_{};
  // The image's ENTRYPOINT and CMD: fbc-shim execs them (args= replacing
  // CMD).
  std::vector<std::string> entrypoint_, cmd_;
  std::vector<sock_filter> filter_; // empty: no shim
  std::string shimBinary_;
  std::unique_ptr<ShimSocket> shim_;
  int listener_ = -1;                               // until takeListener()
  std::vector<std::string> env_, args_;             // wired (wire())
  std::vector<std::shared_ptr<HostRelay>> relays_;  // while it runs
  std::shared_ptr<ContainerNetwork> network_;       // while it exists
  bool leaf_ = false;                               // started from a leaf's own network namespace
  std::vector<std::unique_ptr<HostRelay>> ingress_; // leaf_: while it runs
};

} // namespace fbc::rt::containers

namespace fbc::rt {

// Container service `s` of `spec` as the supervisor starts it, in the
// process's container run (containers::sharedRun(), which the run's check
// of what the machine has opened): its env as launchConfig() builds it, its
// healthcheck as healthcheckOf() reads it, its processes trapping `trapped`
// (none with seccomp=False).
ServiceSpec containerServiceSpec(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                                 std::vector<int> trapped,
                                 const std::vector<ProxyEndpoint> &proxies,
                                 const std::string &scratch, int64_t stopGraceMs);

} // namespace fbc::rt

namespace fbc::rt::containers {

// Splits a non-TTY container's log stream (8-byte frame headers: stream,
// 0, 0, 0, big-endian length) into stdout and stderr.
void demuxLogs(std::string_view stream, std::string &out, std::string &err);

} // namespace fbc::rt::containers
