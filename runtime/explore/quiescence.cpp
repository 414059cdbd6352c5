#include "runtime/explore/quiescence.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace fbc::rt::explore {
namespace {

// A /proc file ("" when it is gone). stat and schedstat are one short
// record, one read; a children list is read to its end (`whole`): it can
// pass any fixed buffer, and a pid cut in two would name another process
// (a seq_file read may also stop short of the buffer before the end).
std::string readProc(const std::string &path, bool whole = false) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return "";
  std::string out;
  char buf[1024];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) {
    out.append(buf, size_t(n));
    if (!whole)
      break;
  }
  ::close(fd);
  return out;
}

std::vector<pid_t> numericEntries(const std::string &dir) {
  std::vector<pid_t> out;
  DIR *d = opendir(dir.c_str());
  if (!d)
    return out;
  while (dirent *e = readdir(d))
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
      out.push_back(pid_t(std::atoi(e->d_name)));
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// One thread's state, from "<dir>/stat" and "<dir>/schedstat"; false when
// the thread is gone.
bool readThread(const std::string &dir, pid_t tid, ThreadState &out) {
  std::string stat = readProc(dir + "/stat");
  size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size())
    return false;
  out.tid = tid;
  out.state = stat[close + 2];
  std::string sched = readProc(dir + "/schedstat");
  unsigned long long run = 0, wait = 0, count = 0;
  if (std::sscanf(sched.c_str(), "%llu %llu %llu", &run, &wait, &count) == 3)
    out.scheduled = count;
  return true;
}

void addProcess(pid_t pid, std::vector<ThreadState> &out, std::set<pid_t> &seen) {
  if (!seen.insert(pid).second)
    return;
  std::string base = "/proc/" + std::to_string(pid) + "/task/";
  for (pid_t tid : numericEntries(base)) {
    std::string dir = base + std::to_string(tid);
    ThreadState t;
    if (readThread(dir, tid, t))
      out.push_back(t);
    // A process's children, by the thread that forked them.
    std::string kids = readProc(dir + "/children", /*whole=*/true);
    for (char *p = kids.data(); *p;) {
      char *end = nullptr;
      long child = std::strtol(p, &end, 10);
      if (end == p)
        break;
      addProcess(pid_t(child), out, seen);
      p = end;
    }
  }
}

} // namespace

std::vector<ThreadState> readThreads(const std::vector<pid_t> &pids,
                                     const std::vector<pid_t> &tids) {
  std::vector<ThreadState> out;
  std::set<pid_t> seen;
  for (pid_t pid : pids)
    if (pid > 0)
      addProcess(pid, out, seen);
  for (pid_t tid : tids) {
    ThreadState t;
    if (readThread("/proc/self/task/" + std::to_string(tid), tid, t))
      out.push_back(t);
  }
  return out;
}

bool nothingRuns(const std::vector<ThreadState> &now, const std::set<pid_t> &held) {
  for (const ThreadState &t : now)
    if ((t.state == 'R' || t.state == 'D') && !held.count(t.tid))
      return false;
  return true;
}

bool quietBetween(const std::vector<ThreadState> &first, const std::vector<ThreadState> &second,
                  const std::set<pid_t> &held) {
  return first == second && nothingRuns(second, held);
}

} // namespace fbc::rt::explore
