// Syscall keywords of fault rules and their families, and the errno names
// deny() accepts (the engine reference's tables, §2.3 and §7).
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir {

// The keywords a fault rule may name, in the reference's order: the
// faultable syscalls (write read connect openat fsync sendto recvfrom writev
// readv close pwrite64 pread64 fdatasync sendmsg recvmsg) plus the `open`
// family.
llvm::ArrayRef<std::string_view> syscallKeywords();
bool isSyscallKeyword(std::string_view name);
// A keyword, or any other syscall name of this machine's architecture
// (libseccomp's table): what fault_assumption() and op() accept, as the
// reference does (`unlinkat=deny("EACCES")`). fault() takes keywords only.
bool isSyscallName(std::string_view name);

// The syscalls a keyword stands for: write -> write, writev, pwrite64;
// read -> read, readv, pread64; open -> open, openat; fsync -> fsync,
// fdatasync; sendto -> sendto, sendmsg; recvfrom -> recvfrom, recvmsg;
// any other keyword -> itself.
std::vector<std::string> expandSyscallFamily(std::string_view keyword);

struct ErrnoInfo {
  std::string_view name; // "ECONNREFUSED"
  int number;            // Linux value (same on amd64 and arm64)
  std::string_view text; // Go's strerror, used in trace decisions
};

// The supported errnos, sorted by name.
llvm::ArrayRef<ErrnoInfo> errnoTable();
// Case-insensitive lookup; null if unsupported.
const ErrnoInfo *findErrno(std::string_view name);
// "EACCES, EADDRINUSE, ..." (sorted), for the unknown-errno message.
std::string supportedErrnoList();

} // namespace fbc::ir
