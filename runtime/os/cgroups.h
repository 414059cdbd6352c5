// Containment of a leaf's services in cgroups: the layout of this host's
// hierarchies, the run's root in each (fbc-<pid>-<random>, flocked for the
// run's life, swept by the watchdog when fbc dies, or by a later run once
// nobody holds its lock), one directory per leaf and one per service in it.
//
//   <v2>/fbc-<pid>-<r>/leaf-<n>/svc-<name>        cgroup.kill (Linux 5.14+)
//   <v1 pids>/fbc-<pid>-<r>/leaf-<n>/svc-<name>   pids.max, pids.events
//   <v1 freezer>/fbc-<pid>-<r>/leaf-<n>/svc-<name> kill without cgroup.kill
//
// Both layouts are handled: pure cgroup2 (controllers in the unified tree;
// pids enabled through cgroup.subtree_control) and the hybrid one (a
// cgroup2 mount without controllers, v1 pids and freezer). The run root is
// made directly under each mount's root, which needs root (or a delegated
// writable hierarchy); without it fbc falls back to process groups and
// PR_SET_PDEATHSIG, and says what that no longer guarantees (docs/run.md).
#pragma once

#include "runtime/os/cgroup_sweep.h"

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fbc::rt {

// A service's default pids limit (processes and threads), raised with
// service(..., pids_max=N).
inline constexpr uint64_t kDefaultPidsMax = 512;

// One service's cgroup in a leaf.
class ServiceCgroup {
public:
  ~ServiceCgroup();
  // Opened cgroup.procs files; the launched child writes "0" to each before
  // anything else, so all it forks stays inside.
  const std::vector<int> &joinFds() const { return join_; }
  // SIGKILLs everything in it (the main process included) and waits, up to
  // `waitMs`, until nothing is left. The pids listed just before the kill
  // are returned, for the caller to reap those that are its children.
  std::vector<pid_t> killAll(int waitMs);
  // How many forks/clones the pids limit refused (pids.events "max").
  uint64_t pidsLimitHits() const;
  uint64_t pidsMax() const { return pidsMax_; }
  const CgroupRoots &roots() const { return roots_; }

private:
  friend class LeafCgroup;
  CgroupRoots roots_;
  std::vector<int> join_;
  uint64_t pidsMax_ = 0;
  std::string pidsEvents_; // path of pids.events, "" without a pids controller
};

class LeafCgroup {
public:
  ~LeafCgroup(); // sweeps and removes the leaf
  // The service's cgroup, made on first use (a restart reuses it).
  ServiceCgroup *service(const std::string &name, uint64_t pidsMax, std::string &error);
  // Sweeps everything still in the leaf; 0 when nothing is left.
  int killAll(int waitMs);

private:
  friend class RunCgroups;
  CgroupRoots roots_;
  std::vector<std::pair<std::string, std::unique_ptr<ServiceCgroup>>> services_;
};

// The run's cgroups (one per fbc process).
class RunCgroups {
public:
  static RunCgroups &instance(); // detects the layout and starts the watchdog on first use

  bool available() const { return available_; }
  // "cgroup2 (cgroup.kill) + v1 pids" or why not: "no writable cgroup
  // hierarchy (...)".
  const std::string &description() const { return description_; }
  // A new leaf, or null (fallback) with `error` saying why.
  std::unique_ptr<LeafCgroup> newLeaf(std::string &error);

private:
  RunCgroups();
  bool makeRoot(const std::string &mount, char (&root)[CgroupRoots::kPathMax], std::string &why);

  std::mutex mu_;
  bool available_ = false;
  bool v2Pids_ = false; // pids.max lives in the v2 tree
  std::string description_;
  CgroupRoots roots_;
  uint64_t nextLeaf_ = 0;
  int watchdogFd_ = -1;
  std::vector<int> rootLocks_; // flocked fds of our roots: held = alive (sweepStale)
};

} // namespace fbc::rt
