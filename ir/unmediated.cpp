// The observed-entry table: see unmediated.h.
#include "ir/unmediated.h"

#include "ir/spec.h"
#include "ir/syscalls.h"

#include <algorithm>
#include <set>

namespace fbc::ir {
namespace {

// io_uring submits reads, writes, opens, fsyncs, sends, receives, connects
// and closes from a ring the kernel drains: every family.
constexpr std::string_view kAll[] = {
    "write", "read",    "open",    "openat",    "fsync", "sendto",  "recvfrom", "connect",
    "close", "sendmsg", "recvmsg", "fdatasync", "readv", "pread64", "writev",   "pwrite64"};
constexpr std::string_view kWrite[] = {"write", "writev", "pwrite64"};
constexpr std::string_view kSync[] = {"fsync", "fdatasync"};
// sendfile reads a file and writes a file or a socket.
constexpr std::string_view kSendfile[] = {"read",   "readv",    "pread64", "write",
                                          "writev", "pwrite64", "sendto",  "sendmsg"};
// splice moves between a pipe and a file or socket, either way.
constexpr std::string_view kSplice[] = {"read",     "readv",  "pread64", "write",    "writev",
                                        "pwrite64", "sendto", "sendmsg", "recvfrom", "recvmsg"};
constexpr std::string_view kCopy[] = {"read", "readv", "pread64", "write", "writev", "pwrite64"};
constexpr std::string_view kRead[] = {"read", "readv", "pread64", "recvfrom", "recvmsg"};

constexpr std::string_view kFs[] = {kCategoryFs};
constexpr std::string_view kRand[] = {kCategoryRand};
constexpr std::string_view kClock[] = {kCategoryClock};
constexpr std::string_view kNet[] = {kCategoryDns, kCategoryNetwork};
constexpr std::string_view kRaw[] = {kCategoryNetwork};

// Sorted by name.
constexpr ObservedEntry kEntries[] = {
    {"clock_gettime", "clock_gettime", TrapWhen::Always, {}, kClock},
    {"connect", "connect", TrapWhen::Always, {}, kNet},
    {"copy_file_range", "copy_file_range", TrapWhen::Always, kCopy, kFs, kRead},
    {"getrandom", "getrandom", TrapWhen::Always, {}, kRand},
    {"gettimeofday", "gettimeofday", TrapWhen::Always, {}, kClock},
    {"io_uring_enter", "io_uring_enter", TrapWhen::Always, kAll, kFs},
    {"io_uring_register", "io_uring_register", TrapWhen::Always, kAll, kFs},
    {"io_uring_setup", "io_uring_setup", TrapWhen::Always, kAll, kFs},
    {"mmap[shared-write]", "mmap", TrapWhen::SharedWritableFileMap, kWrite, kFs},
    {"msync", "msync", TrapWhen::Always, kSync, kFs},
    {"open[/dev/random,/dev/urandom]", "open", TrapWhen::Always, {}, kRand},
    {"sendfile", "sendfile", TrapWhen::Always, kSendfile, kFs, kRead},
    {"sendto[addressed]", "sendto", TrapWhen::AddressedSend, {}, kNet},
    {"socket[raw]", "socket", TrapWhen::RawSocket, {}, kRaw},
    {"splice", "splice", TrapWhen::Always, kSplice, kFs, kRead},
    {"sync_file_range", "sync_file_range", TrapWhen::Always, kSync, kFs},
    {"syncfs", "syncfs", TrapWhen::Always, kSync, kFs},
    {"time", "time", TrapWhen::Always, {}, kClock},
};

} // namespace

std::span<const ObservedEntry> observedEntries() {
  return kEntries;
}

const ObservedEntry *findObservedEntry(std::string_view name) {
  for (const ObservedEntry &e : kEntries)
    if (e.name == name)
      return &e;
  return nullptr;
}

bool inFamilies(std::string_view syscall, std::span<const std::string_view> keywords) {
  for (std::string_view k : keywords) {
    if (k == syscall)
      return true;
    std::span<const std::string_view> family = syscallFamily(k);
    if (std::find(family.begin(), family.end(), syscall) != family.end())
      return true;
  }
  return false;
}

std::vector<std::string> observedFor(const std::vector<std::string> &traps, bool determinism) {
  std::set<std::string_view> out;
  for (const ObservedEntry &e : kEntries) {
    bool bypassed = std::any_of(traps.begin(), traps.end(),
                                [&](const std::string &t) { return inFamilies(t, e.bypasses); });
    if (determinism || bypassed)
      out.insert(e.name);
  }
  return {out.begin(), out.end()};
}

} // namespace fbc::ir
