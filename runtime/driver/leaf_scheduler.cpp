// Where leaves run. Each leaf has a thread of its own, which moves into a
// fresh network namespace (leaf_isolation.h) before it starts anything, so
// its services, healthchecks, steps and the body's threads (all created
// from it) see that namespace only: one leaf at a time (runJobIsolated(),
// fbc run's default when it can make namespaces), or with reused services
// one namespace for the whole run (runJobsInOneNetns()).
//
// fbc run -j N: up to N leaves at once, each on such a thread and with an
// Executor of its own (a slot), so its supervisor, rule scopes, body
// threads and leaf assignment are its own. The bodies share one
// interpreter lock (the spec's frozen values are shared): they interleave
// wherever a body blocks (steps, sleep(), held syscalls) and every few
// thousand steps of computation.
//
// This thread only dispatches, in plan order, and records: rows go out in
// plan order (a leaf that finishes early waits for the ones before it),
// the rest of a test whose axes leaf 0 sizes is dispatched once leaf 0 is
// done, and an interrupt (services already killed by the signal handler)
// stops dispatching; the leaves running then end and are not recorded.
#include "frontend/eval/thread.h"
#include "runtime/driver/executor.h"
#include "runtime/driver/leaf_job.h"
#include "runtime/driver/reuse_stage.h"
#include "runtime/os/leaf_isolation.h"
#include "runtime/os/process_groups.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

namespace fbc::rt {

void Executor::runJobInNewNetns(LeafJob &job) {
  std::string error;
  if (enterNewNetns(error)) {
    runJob(job);
    return;
  }
  TestOutcome o = baseOutcome(*job.lt->test);
  o.result = Result::Error;
  o.reason = "network namespace: " + error;
  job.row = std::move(o);
}

void Executor::runJobIsolated(LeafJob &job) {
  if (!cfg_.leafNetns || inRunNetns_) {
    runJob(job);
    return;
  }
  // The namespace is per thread: the leaf gets a thread of its own, and
  // everything it starts (services, healthchecks, the body's threads)
  // follows it in. The thread ends with the leaf, and the namespace with
  // the leaf's last process and socket.
  try {
    std::thread leaf([&] { runJobInNewNetns(job); });
    leaf.join();
  } catch (const std::system_error &e) {
    TestOutcome o = baseOutcome(*job.lt->test);
    o.result = Result::Error;
    o.reason = std::string("resource exhausted: ") + e.what();
    job.row = std::move(o);
  }
}

size_t Executor::runJobsInOneNetns(Jobs &jobs, RunReport &report) {
  size_t ran = 0;
  auto run = [&] {
    std::string error;
    if (!enterNewNetns(error))
      std::fprintf(stderr,
                   "fbc run: warning: leaves run in this host's network: %s (a second run on "
                   "the same ports collides)\n",
                   error.c_str());
    inRunNetns_ = true;
    ran = runJobsInline(jobs, report);
    // The reused services die with the thread that forked them
    // (PR_SET_PDEATHSIG): they stop here, as they would at the run's end.
    stage_.reset();
    inRunNetns_ = false;
  };
  try {
    std::thread owner(run);
    owner.join();
  } catch (const std::system_error &e) {
    std::fprintf(stderr, "fbc run: warning: leaves run in this host's network: %s\n", e.what());
    inRunNetns_ = true;
    ran = runJobsInline(jobs, report);
    inRunNetns_ = false;
  }
  return ran;
}

size_t Executor::runJobsConcurrently(Jobs &jobs, RunReport &report) {
  size_t n = static_cast<size_t>(cfg_.jobs);
  std::vector<std::unique_ptr<Executor>> slots;
  std::vector<Executor *> idle;
  for (size_t i = 0; i < n; ++i) {
    slots.push_back(std::make_unique<Executor>(loaded_, cfg_));
    slots.back()->owner_ = false;
    slots.back()->body_.shareLock(body_.lock());
    idle.push_back(slots.back().get());
  }
  struct Running {
    std::thread thread;
    Executor *slot;
  };
  std::map<size_t, Running> running; // by job index
  std::mutex mu;
  std::condition_variable cv;
  std::vector<size_t> ended; // job indexes whose thread is about to end (mu)

  // `stop`: the first job an interrupt stopped (npos: none yet; jobs grows
  // when the rest of a test is expanded).
  size_t next = 0, recorded = 0, stop = std::string::npos;
  for (;;) {
    while (stop == std::string::npos && next < jobs.size() && !idle.empty()) {
      LeafJob &job = *jobs[next];
      if (job.rest) {
        if (!jobs[next - 1]->finished)
          break; // the sizing leaf is still running
        expandRest(jobs, next);
        continue;
      }
      if (job.row) { // known without running
        job.finished = true;
        ++next;
        continue;
      }
      if (interrupted()) {
        stop = next;
        break;
      }
      Executor *slot = idle.back();
      size_t index = next;
      try {
        std::thread t([&, slot, index] {
          slot->runJobInNewNetns(*jobs[index]);
          std::lock_guard l(mu);
          ended.push_back(index);
          cv.notify_all();
        });
        running.emplace(index, Running{std::move(t), slot});
        idle.pop_back();
      } catch (const std::system_error &e) {
        TestOutcome o = baseOutcome(*job.lt->test);
        o.result = Result::Error;
        o.reason = std::string("resource exhausted: ") + e.what();
        job.row = std::move(o);
        job.finished = true;
      }
      ++next;
    }
    recordReady(jobs, recorded, report);
    if (running.empty() && (stop != std::string::npos || next == jobs.size()))
      break;
    std::vector<size_t> done;
    {
      std::unique_lock l(mu);
      cv.wait_for(l, std::chrono::milliseconds(20), [&] { return !ended.empty(); });
      done.swap(ended);
    }
    for (size_t index : done) {
      auto it = running.find(index);
      it->second.thread.join();
      idle.push_back(it->second.slot);
      running.erase(it);
      LeafJob &job = *jobs[index];
      if (job.interrupted)
        stop = std::min(stop, index);
      else
        finishJob(job);
      job.finished = true;
    }
  }
  // No leaf runs now: whatever is still our child is a service's orphan.
  killOrphans(2000);
  return stop == std::string::npos ? jobs.size() : stop;
}

} // namespace fbc::rt
