// /proc/<pid>/net sockets: see proc_net.h.
#include "runtime/os/proc_net.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fbc::rt {

bool ProcSocket::loopback() const {
  return localIp == "0100007F" || localIp == "00000000000000000000000001000000";
}

std::vector<ProcSocket> procNetSockets(const std::string &proc, const char *file) {
  std::vector<ProcSocket> out;
  std::ifstream in(proc + "/net/" + file);
  std::string line;
  std::getline(in, line); // the header
  while (std::getline(in, line)) {
    // "  0: 0100007F:18EB 00000000:0000 0A ...": slot, local address, remote, state
    std::istringstream fields(line);
    std::string slot, local, remote, state;
    fields >> slot >> local >> remote >> state;
    size_t colon = local.find(':');
    if (colon == std::string::npos || state.empty())
      continue;
    ProcSocket s;
    s.localIp = local.substr(0, colon);
    s.localPort = static_cast<uint16_t>(std::strtoul(local.c_str() + colon + 1, nullptr, 16));
    s.state = static_cast<uint8_t>(std::strtoul(state.c_str(), nullptr, 16));
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace fbc::rt
