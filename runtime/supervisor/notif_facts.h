// The facts of one seccomp notification as the rule table sees them
// (rules.h SyscallFacts): its path and destination read from the target on
// demand, and whether the notification is still valid (its thread alive and
// waiting). Separate from the listener so a test can decide a real
// notification whose thread it killed.
#pragma once

#include "runtime/rules/rules.h"

#include <linux/seccomp.h>

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace fbc::rt {

// What the rule table learns about one received notification: reads the
// path or destination lazily (only when a candidate rule asks), and checks
// SECCOMP_IOCTL_NOTIF_ID_VALID before any counter moves and after reads.
class NotifFacts final : public SyscallFacts {
public:
  NotifFacts(int fd, const seccomp_notif &req, std::string &pathBuf)
      : fd_(fd), req_(req), path_(pathBuf) {}

  // One NOTIF_ID_VALID the first time (the thread may have died between
  // NOTIF_RECV and now, with nothing read) and again after each read.
  bool stillValid() override;
  // Whether target memory was read since the last stillValid().
  bool readSinceCheck() const { return unchecked_; }

  const std::string *path() override {
    if (!pathDone_) {
      pathDone_ = true;
      havePath_ = readPath();
      unchecked_ = true;
    }
    return havePath_ ? &path_ : nullptr;
  }

  const Destination *destination() override {
    if (!destDone_) {
      destDone_ = true;
      haveDest_ = readDest();
      unchecked_ = true;
    }
    return haveDest_ ? &dest_ : nullptr;
  }

  bool havePath() const { return havePath_; }
  const Destination *knownDestination() const { return haveDest_ ? &dest_ : nullptr; }

private:
  pid_t tid() const { return static_cast<pid_t>(req_.pid); }
  uint64_t arg(int i) const { return req_.data.args[i]; }

  bool readPath();
  bool readDest();

  int fd_;
  const seccomp_notif &req_;
  std::string &path_;
  Destination dest_;
  bool pathDone_ = false, havePath_ = false;
  bool destDone_ = false, haveDest_ = false;
  bool unchecked_ = false; // read since the last NOTIF_ID_VALID
  bool checked_ = false;   // NOTIF_ID_VALID asked at least once
  bool valid_ = true;      // its last answer
};

} // namespace fbc::rt
