// What keeps leaves that run at the same time (fbc run -j N) apart: a
// network namespace per running leaf, with loopback up, so every leaf's
// services bind their declared ports; and a scratch directory per leaf
// (FBC_SCRATCH in every service's environment) for the files a spec wants
// kept apart. Nothing else is isolated: the file system, other hosts and
// the machine's resources are shared (docs/run.md, "Leaves in parallel").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

// Moves the calling thread into a new network namespace and brings its
// loopback interface up. Threads it creates from then on, and the
// processes they fork, are in that namespace too; the namespace goes when
// the last of them (and the last socket in it) does, so nothing is left to
// remove. Needs CAP_SYS_ADMIN and CAP_NET_ADMIN (root). False with `error`
// ("unshare(CLONE_NEWNET): Operation not permitted") otherwise.
bool enterNewNetns(std::string &error);

// Whether enterNewNetns() works here: tried once, on a thread of its own
// that ends with it. `why` says what failed.
bool netnsAvailable(std::string &why);

// The network namespace fbc started in (its main thread's, which never
// moves): an fd opened once and kept, or -1 when it cannot be opened.
int hostNetnsFd();

// Whether the calling thread is in another network namespace than
// hostNetnsFd()'s: a leaf's own (enterNewNetns()).
bool inLeafNetns();

// Moves the calling thread into network namespace `fd` and back when the
// object goes: what it creates meanwhile (a socket) stays in `fd`'s
// namespace. ok() is false, with `error`, when the move failed.
class NetnsVisit {
public:
  NetnsVisit(int fd, std::string &error);
  ~NetnsVisit();
  NetnsVisit(const NetnsVisit &) = delete;
  NetnsVisit &operator=(const NetnsVisit &) = delete;
  bool ok() const { return ok_; }

private:
  int back_ = -1; // the thread's own namespace while it visits
  bool ok_ = false;
};

// A temporary directory that says whether its owner lives: made with
// mkdtemp as $TMPDIR/<prefix>lk-XXXXXX (or /tmp) and flocked by `lockFd`
// for as long as that fd is open (a process that dies, even by kill -9,
// closes it). Making one first removes the <prefix>lk-* directories nobody
// holds: their owners are provably gone (a kill -9 mid-leaf, a crash).
// Directories of older fbc versions (never locked) are never touched.
struct LockedTempDir {
  std::string path;
  int lockFd = -1; // close it after removing the directory
};
// Null, with `error`, when the directory cannot be made.
std::optional<LockedTempDir> makeLockedTempDir(const std::string &prefix, std::string &error);

// Removes `dir` and everything in it without ever entering another file
// system: mounts inside it (a service's bind mount of a host folder) are
// detached first, lazily, which leaves what they showed untouched, and the
// walk stays on dir's own file system whatever is left. False, with `left`
// naming what remains, when something could not be removed.
bool removeTreeWithinMount(const std::string &dir, std::string &left);

// A leaf's scratch directory: made empty under $TMPDIR (or /tmp) for the
// leaf (a LockedTempDir named fbc-scratch-*), removed with everything in it
// (removeTreeWithinMount) when the leaf ends.
class ScratchDir {
public:
  // Null, with `error`, when the directory cannot be made.
  static std::unique_ptr<ScratchDir> make(std::string &error);
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::string &path() const { return dir_.path; }
  // Gives the directory to the services that use it: with one account
  // among `users` (their user= values, "" for none), that account owns it
  // (a user="postgres" service creates $FBC_SCRATCH/pgdata there); with
  // several, it is shared as /tmp is (mode 1777: each makes and keeps its
  // own entries). False with `error` when an account does not exist or
  // the change fails.
  bool handTo(const std::vector<std::string> &users, std::string &error);

private:
  explicit ScratchDir(LockedTempDir d) : dir_(std::move(d)) {}
  LockedTempDir dir_;
};

// `s` with "$FBC_SCRATCH" and "${FBC_SCRATCH}" replaced by `scratch`: how a
// service's args and env name the directory without a shell.
std::string expandScratch(std::string s, const std::string &scratch);

} // namespace fbc::rt
