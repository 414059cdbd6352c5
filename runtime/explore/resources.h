// What a held call touches, for DPOR's independence relation
// (runtime/explore/dpor.h): the resources the kernel can name for it at the
// moment it is held. Two calls of different threads are independent only
// when both are known and share no resource; anything fbc cannot name (a
// unix socket, an eventfd, a call without a file descriptor or path) is
// unknown, and an unknown call is dependent with every call.
//
// Resources, as keys:
//   "file:<dev>:<ino>"   a file or device (by inode), "path:<abs>" its path
//                        (open/openat name a path; an fd call names both)
//   "pipe:[<ino>]"       a pipe (both ends share the inode)
//   "tcp:<a>|<b>"        a TCP connection, its two endpoints sorted (the
//                        client's and the server's calls share it)
//   "tcp-accept:<port>"  a connect() to a port (two connects race for the
//                        accept order)
//   "udp:<port>"         a UDP socket's local, peer or destination port
//                        (ports only: 0.0.0.0 and 127.0.0.1 are one port)
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fbc::rt::explore {

struct Access {
  bool known = false;            // false: dependent with every call
  std::vector<std::string> keys; // sorted, unique
  // "file:2049:1234 path:/x/counter.txt" or "unknown": for messages.
  std::string str() const;
};

// Whether two calls of different threads may not commute: either is
// unknown, or they share a resource.
bool dependent(const Access &a, const Access &b);

// Reads what the held call of thread `tid` (syscall `nr`, arguments
// `args`) touches, from /proc and the thread's memory.
Access accessOf(pid_t tid, int nr, const uint64_t (&args)[6]);

} // namespace fbc::rt::explore
