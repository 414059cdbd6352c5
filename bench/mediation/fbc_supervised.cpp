// mediation_fbc: runs the benchmark target under fbc's supervisor.
//   mediation_fbc trapped   PROGRAM N   getppid trapped (and allowed)
//   mediation_fbc trapped-logall PROGRAM N   the same, logging every allowed
//                                       syscall as a trace event
//   mediation_fbc untrapped PROGRAM N   a filter that traps a typical fault
//                                       set (openat, connect, fsync, ...) but
//                                       not getppid
// Prints the target's output (ns per getppid) and, on stderr, the
// listener's counters. The supervisor is configured as `fbc run` is: every
// trapped syscall goes through the rule table and is counted; the syscalls
// a rule decided are logged as trace events.
#include "runtime/os/syscalls.h"
#include "runtime/supervisor/supervisor.h"

#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  using namespace fbc::rt;
  if (argc != 4) {
    std::fprintf(stderr, "usage: mediation_fbc trapped|untrapped PROGRAM N\n");
    return 2;
  }
  bool trapped = std::strncmp(argv[1], "trapped", 7) == 0;
  SupervisorOptions opts;
  // As `fbc run`: every trapped syscall counted, only decided ones logged.
  // "trapped-logall" also logs an event per allowed syscall.
  opts.recordAllowedSyscalls = std::strcmp(argv[1], "trapped-logall") == 0;
  Supervisor sup(opts);
  ServiceSpec s;
  s.name = "target";
  s.launch.binary = argv[2];
  s.launch.args = {argv[3]};
  if (trapped)
    s.launch.trapped = {syscallNumber("getppid")};
  else
    for (const char *name : {"openat", "connect", "fsync", "fdatasync", "sendto", "sendmsg"})
      s.launch.trapped.push_back(syscallNumber(name));
  ServiceId id = sup.addService(s);
  if (ServiceError e = sup.start(id)) {
    std::fprintf(stderr, "%s\n", e.reason().c_str());
    return 1;
  }
  if (!sup.waitExit(id, 600000)) {
    std::fprintf(stderr, "target did not finish\n");
    return 1;
  }
  sup.stop(id);
  std::fputs(sup.stdoutText(id).c_str(), stdout);
  if (const ListenerStats *st = sup.listenerStats(id))
    std::fprintf(stderr, "notifications=%llu trace_events=%zu sync_wake_up=%d\n",
                 static_cast<unsigned long long>(st->notifications.load()), sup.trace().size(),
                 sup.syncWakeUp(id) ? 1 : 0);
  return 0;
}
