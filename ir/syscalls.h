// Syscall keywords of fault rules and their families, and the errno names
// deny() accepts (the engine reference's tables, §2.3 and §7). The one copy
// of each: the spec builtins, `fbc ir` and the runtime all read these.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <span>
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

// The one syscall-family table: what `fbc ir` prints for a rule and what the
// runtime's seccomp filter traps for it. A keyword stands for every syscall
// the same C library call can reach, so a fault on it has no silent gap:
//   write    -> write, writev, pwrite64, pwritev, pwritev2
//   read     -> read, readv, pread64, preadv, preadv2
//   open     -> open, openat, openat2, creat
//   fsync    -> fsync, fdatasync
//   sendto   -> sendto, sendmsg, sendmmsg
//   recvfrom -> recvfrom, recvmsg, recvmmsg
// The reference engine's families stop at the first three members of each
// (a `write` fault that a pwritev() slips past); ours do not. Empty for a
// keyword that is not a family.
std::span<const std::string_view> syscallFamily(std::string_view keyword);
// The family's members, or the keyword itself when it is not a family.
// Names, not numbers: members missing on this architecture (`open` and
// `creat` on arm64) are listed and skipped by the filter.
std::vector<std::string> expandSyscallFamily(std::string_view keyword);

// Numbers on the native architecture, through libseccomp (the kernel
// headers it was built with, not a hand-written table): the leaf program's
// trap sets are these (backend/leaf_lower.h), the seccomp filter installs
// them as they are.
// -1 when the name is not a syscall of the native architecture.
int syscallNumber(std::string_view name);
// The name of a native syscall number; "syscall_<n>" when it has none.
std::string syscallNameOf(int nr);
// What a rule on `keyword` traps: its family's members (those this
// architecture has, in the family's order), else the name's own number;
// empty when neither names a native syscall.
std::vector<int> syscallNumbers(std::string_view keyword);
// connect, sendto, sendmsg, sendmmsg: the calls that carry a destination
// address. A rule on one of them on a service must see the other
// services' calls too (they may address its ports), so every service traps
// it (the lowering widens the trap sets accordingly).
bool isDestinationSyscall(std::string_view name);
// "write,writev,pwrite64,pwritev,pwritev2": the names of syscallNumbers(),
// comma-joined in the family's order; what a rule's fault_applied event and
// the text report print as its filter. Empty when it names no native syscall.
std::string syscallFilterText(std::string_view keyword);

struct ErrnoInfo {
  std::string_view name; // "ECONNREFUSED"
  int number;            // Linux value (same on amd64 and arm64)
  std::string_view text; // Go's strerror, used in trace decisions
};

// The supported errnos, sorted by name.
llvm::ArrayRef<ErrnoInfo> errnoTable();
// Case-insensitive lookup; null if unsupported.
const ErrnoInfo *findErrno(std::string_view name);
// Lookup by number (the runtime's trace and report); null if unsupported.
const ErrnoInfo *findErrnoNumber(int number);
// "EACCES, EADDRINUSE, ..." (sorted), for the unknown-errno message.
std::string supportedErrnoList();
// deny()'s message for an errno it does not know, with the nearest name
// ("did you mean") and the supported list: the builtin and `fbc check`
// say the same.
std::string unknownErrnoMessage(std::string_view name);
// fault()/fault_start()/fault_all()'s message for a keyword that is
// neither a syscall keyword nor one of the service's named `ops`.
std::string unknownFaultKeywordMessage(std::string_view who, std::string_view key,
                                       std::string_view service, llvm::ArrayRef<std::string> ops);
// "write, read, connect, ...": the syscall keywords a fault or a trace
// takes, as the messages list them (without the "open" alias).
std::string syscallKeywordList();
// trace()/trace_start()'s message for a syscalls= element that is no
// syscall keyword, with the nearest one ("did you mean"): the run and
// `fbc check` say the same.
std::string unknownTraceSyscallMessage(std::string_view who, std::string_view name);

} // namespace fbc::ir
