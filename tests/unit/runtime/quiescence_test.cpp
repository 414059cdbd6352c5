// runtime/explore/quiescence.h on this test process: the threads a
// quiescence check watches are the process's own and its descendants',
// found through /proc/<pid>/task/<tid>/children.
#include "runtime/explore/quiescence.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <vector>

namespace fbc::rt::explore {
namespace {

std::set<pid_t> ownTasks() {
  std::set<pid_t> out;
  DIR *d = opendir("/proc/self/task");
  while (dirent *e = d ? readdir(d) : nullptr)
    if (e->d_name[0] != '.')
      out.insert(pid_t(std::atoi(e->d_name)));
  if (d)
    closedir(d);
  return out;
}

// 300 children: their pids make the children list a few KiB, past any
// single small read. Every one is seen, and nothing else but this
// process's own threads (a pid cut in two would name another process).
TEST(Quiescence, ReadsEveryChildOfALongChildrenList) {
  std::vector<pid_t> kids;
  for (int i = 0; i < 300; ++i) {
    pid_t c = fork();
    if (c == 0) {
      pause();
      _exit(0);
    }
    if (c < 0)
      break;
    kids.push_back(c);
  }
  EXPECT_EQ(kids.size(), 300u);
  std::set<pid_t> own = ownTasks(), seen;
  for (const ThreadState &t : readThreads({getpid()}, {}))
    seen.insert(t.tid);
  for (pid_t c : kids)
    EXPECT_TRUE(seen.count(c)) << "child " << c << " not read";
  for (pid_t t : seen)
    EXPECT_TRUE(own.count(t) || std::find(kids.begin(), kids.end(), t) != kids.end())
        << "thread " << t << " is neither ours nor a child";
  for (pid_t c : kids)
    kill(c, SIGKILL);
  for (pid_t c : kids)
    waitpid(c, nullptr, 0);
}

} // namespace
} // namespace fbc::rt::explore
