#include "runtime/process_groups.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace fbc::rt {
namespace {

constexpr int kSlots = 512;
std::atomic<pid_t> gGroups[kSlots];
std::atomic<int> gExitCode{-1};

void onSignal(int sig) {
  signalAllProcessGroups(SIGKILL);
  int code = gExitCode.load();
  if (code >= 0)
    _exit(code);
  signal(sig, SIG_DFL);
  raise(sig);
}

} // namespace

void registerProcessGroup(pid_t pgid) {
  for (auto &slot : gGroups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid))
      return;
  }
  // Table full: the group still dies with PDEATHSIG and explicit stops.
}

void unregisterProcessGroup(pid_t pgid) {
  for (auto &slot : gGroups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0))
      return;
  }
}

void signalAllProcessGroups(int sig) {
  for (auto &slot : gGroups) {
    pid_t g = slot.load();
    if (g > 0)
      kill(-g, sig);
  }
}

void installKillOnSignal(int exitCode) {
  gExitCode.store(exitCode);
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaction(sig, &sa, nullptr);
}

} // namespace fbc::rt
