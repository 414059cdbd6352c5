// Whether the processes under exploration can still move on their own,
// read from the kernel: every thread's state (/proc/<pid>/task/<tid>/stat)
// and how often it has been scheduled (schedstat's third field).
//
// The system is quiet when no thread is runnable or in an uninterruptible
// wait (a disk write that completes by itself), except the threads the
// explorer holds (a held call waits killably, which /proc shows as "D"),
// and a second read finds every thread in the same state with the same
// schedule count. Any thread woken between the two reads is then either
// runnable at the second read or has run (its count moved): a wake-up
// chain inside the set must start at a thread that ran. What the kernel
// cannot show is work queued outside the set (a packet in a softirq,
// a timer): the reads are `settleNs` apart (docs/run.md, "Exploring
// orderings": the explore settle setting).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <set>
#include <vector>

namespace fbc::rt::explore {

struct ThreadState {
  pid_t tid = 0;
  char state = '?';
  uint64_t scheduled = 0; // schedstat: times it got a CPU
  bool operator==(const ThreadState &) const = default;
};

// Every thread of `pids`, of their descendants, and the threads `tids` of
// this process, in a fixed order; a thread that vanished meanwhile is left
// out.
std::vector<ThreadState> readThreads(const std::vector<pid_t> &pids,
                                     const std::vector<pid_t> &tids);

// Whether `now` shows nothing that can move: no thread runnable or in an
// uninterruptible wait unless it is in `held`.
bool nothingRuns(const std::vector<ThreadState> &now, const std::set<pid_t> &held);

// Two reads a settle period apart agree and show nothing that can move.
bool quietBetween(const std::vector<ThreadState> &first, const std::vector<ThreadState> &second,
                  const std::set<pid_t> &held);

} // namespace fbc::rt::explore
