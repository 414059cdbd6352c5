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
//   "server:<port>/..."  what a request sent to a server touches
//                        (server_access.h): a Redis key, an SQL table, or
//                        "server:<port>/*", the whole server
//
// A TCP connection whose local port is not one of the spec's interface
// ports is a client's: each send on it also touches the server at the
// other end (two requests on two connections to one server can meet in
// it), read from the bytes as the protocol of the spec's interface on that
// port, the whole server for any other port; a send to fbc's proxy, which
// holds what it relays (ServerPort::relayHolds), touches only its
// connection: the request is a held message of its own. A receive touches
// only its connection: the reply was made when the request was sent, since
// the next release waits for the servers to be quiet. A connection whose
// local port is an interface port is the server's side: its calls touch
// the connection (a thread per connection serves only its own client).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
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
// unknown, or they share a resource (a "server:<port>/*" shares every
// resource of that server).
bool dependent(const Access &a, const Access &b);

// A port a client may send requests to: the server's own port (what its
// keys are named by: fbc's proxy port in front of an interface names the
// interface's port) and the interface's protocol ("redis", "postgres",
// "tcp", ...).
struct ServerPort {
  uint16_t server = 0;
  std::string protocol;
  // fbc's proxy on this port holds what it relays for the explorer
  // (runtime/proxy/proxy_hold.h): a send here reaches the server only as a
  // held message of its own, so it touches only its connection.
  bool relayHolds = false;
};
// The spec's interface ports, and the proxy's in front of them, by port.
using ServerPorts = std::map<uint16_t, ServerPort>;

// Reads what the held call of thread `tid` (syscall `nr`, arguments
// `args`) touches, from /proc and the thread's memory.
Access accessOf(pid_t tid, int nr, const uint64_t (&args)[6], const ServerPorts &servers);

} // namespace fbc::rt::explore
