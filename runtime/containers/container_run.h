// The containers of one `fbc run`: the engine it talks to, the labels every
// container and network it creates carries, the run's network, and the
// guarantee that nothing it created outlives it.
//
// Nothing left behind:
// - every object fbc creates is labelled fbc.run=<run id> and
//   fbc.pid=<pid>:<start time of fbc's process>;
// - a service's container is removed when the service stops (end of test,
//   a failed start); close() removes whatever is left and the network;
// - SIGINT/SIGTERM end the run through close() (fbc's signal thread);
// - a watchdog process (fbc itself, re-executed: runWatchdogIfAsked())
//   holds a pipe whose other end only fbc holds; when fbc dies any other
//   way (kill -9) it sees EOF and removes every object labelled with the
//   run's id, then stops the podman service fbc started, if any, and
//   removes the run's fbc-shim socket directory (container_shim.h);
// - open() first removes objects whose fbc.pid names a process that is gone
//   (a run of an older fbc, or a machine that lost power).
#pragma once

#include "runtime/containers/container_network.h"
#include "runtime/containers/engine.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt::containers {

class ContainerRun {
public:
  ~ContainerRun(); // close()
  ContainerRun(const ContainerRun &) = delete;
  ContainerRun &operator=(const ContainerRun &) = delete;

  // The run's engine (found or started), swept of dead runs' objects, with
  // its watchdog; null with `error` naming what is missing.
  static std::unique_ptr<ContainerRun> open(std::string &error);

  const Engine &engine() const { return host_->engine(); }
  const EngineHost &host() const { return *host_; }
  const std::string &runId() const { return runId_; }
  // `"Labels": {...}` members for a create body: fbc.run, fbc.pid.
  std::vector<std::pair<std::string, std::string>> labels() const;
  // The network of the caller's network namespace (container_network.h),
  // held while the pointer lives; null with `error`.
  std::shared_ptr<ContainerNetwork> joinNetwork(std::string &error);
  // The directory of the run's fbc-shim sockets (created on first use,
  // removed by close() and by the watchdog); "" with `error`.
  std::string shimDir(std::string &error);
  // A unique container name for service `service`: fbc-<run>-<service>-<n>.
  std::string containerName(const std::string &service);
  // The images the run's containers used: each reference as the spec wrote
  // it with the image ID it resolved to (a content digest, "sha256:..."),
  // in first-use order (the run bundle's env.json records them).
  void recordImage(const std::string &ref, const std::string &id);
  std::vector<std::pair<std::string, std::string>> images() const;
  // service(build=DIR)'s image tag (image_build.h), built (or found) once
  // per run and service: every later leaf reuses the tag instead of packing
  // and hashing the context again. "" with `error`.
  std::string builtImage(const std::string &service, const std::string &dir, std::string &error);

  // Removes every container, network and volume labelled with this run's
  // id, stops fbc's own engine service and releases the watchdog. Idempotent.
  void close();

private:
  ContainerRun() = default;
  std::unique_ptr<EngineHost> host_;
  std::string runId_, pidLabel_;
  mutable std::mutex mu_;
  std::unique_ptr<NetworkPool> networks_;
  bool shimDirMade_ = false;
  unsigned counter_ = 0;
  std::vector<std::pair<std::string, std::string>> images_;
  std::mutex buildMu_; // one build at a time; held across the engine call
  std::map<std::pair<std::string, std::string>, std::string> builds_; // (service, dir) -> tag
  int watchdogFd_ = -1; // write end of the watchdog's pipe
  bool closed_ = false;
};

// The process's run, opened by the first call (the first container service
// a run starts, or the check of what the machine has); null with `why`
// when no engine can be had (the same answer every call).
ContainerRun *sharedRun(std::string &why);
// Closes the shared run if one was opened (the end of `fbc run`).
void closeSharedRun();
// The images the shared run's containers used (ContainerRun::images()),
// none when no run was opened.
std::vector<std::pair<std::string, std::string>> usedImages();
// What image reference `ref` resolves to on the engine now (its image ID),
// through the shared run; "" when the engine has no such image; nullopt
// with `why` when no engine can be had.
std::optional<std::string> resolveImageNow(const std::string &ref, std::string &why);
// Makes the run's check of what the machine has (runtime/os/host_check.h)
// answer the container runtime need with sharedRun(): met when it opens.
void installEngineProbe();

// Removes every container, network and volume carrying label `filter`
// ("fbc.run=<id>"), containers first. Returns how many containers it removed.
int removeLabelled(const Engine &engine, const std::string &filter);

// Removes the objects of runs whose fbc process is gone (fbc.pid names no
// live process with that start time). Returns how many containers it removed.
int sweepDeadRuns(const Engine &engine);

// "<pid>:<start time in clock ticks since boot>" of process `pid`, "" when
// it is gone: a pid alone may be reused.
std::string processIdentity(int pid);

// In main(), first: when this process is a container watchdog (an
// environment variable fbc sets when it starts one), does that and returns
// its exit status; else returns -1 at once.
int runWatchdogIfAsked();

} // namespace fbc::rt::containers
