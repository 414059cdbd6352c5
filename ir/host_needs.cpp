// The host-need table: see host_needs.h.
#include "ir/host_needs.h"

#include "ir/quote.h"

#include <algorithm>
#include <array>

namespace fbc::ir {

namespace {

HostNeed gvisor(std::string_view builtin, std::string_view what) {
  HostNeed n;
  n.feature = HostFeature::Gvisor;
  n.subject = std::string(builtin) + "()";
  n.what = std::string(what);
  return n;
}

// Sorted by name. The packet layer, partitions and file watches act in the
// reference's packet gateway and container sandbox, which run under gVisor.
const std::array<std::pair<std::string_view, HostNeed>, 16> &callNeeds() {
  static const std::array<std::pair<std::string_view, HostNeed>, 16> table = [] {
    constexpr std::string_view packet = "packet faults need the gVisor runtime";
    constexpr std::string_view shaper = "link shapers need the gVisor runtime";
    constexpr std::string_view partition = "network partitions need the gVisor runtime";
    constexpr std::string_view watch =
        "file watches need container services under the gVisor runtime";
    std::array<std::pair<std::string_view, HostNeed>, 16> t = {{
        {"bandwidth", gvisor("bandwidth", shaper)},
        {"mtu", gvisor("mtu", shaper)},
        {"packet_corrupt", gvisor("packet_corrupt", packet)},
        {"packet_delay", gvisor("packet_delay", packet)},
        {"packet_drop", gvisor("packet_drop", packet)},
        {"packet_duplicate", gvisor("packet_duplicate", packet)},
        {"packet_pass", gvisor("packet_pass", packet)},
        {"packet_reorder", gvisor("packet_reorder", packet)},
        {"packet_reset", gvisor("packet_reset", packet)},
        {"packet_window", gvisor("packet_window", packet)},
        {"partition", gvisor("partition", partition)},
        {"partition_start", gvisor("partition_start", partition)},
        {"partition_stop", gvisor("partition_stop", partition)},
        {"watch", gvisor("watch", watch)},
        {"watch_start", gvisor("watch_start", watch)},
        {"watch_stop", gvisor("watch_stop", watch)},
    }};
    return t;
  }();
  return table;
}

} // namespace

const char *hostFeatureName(HostFeature f) {
  switch (f) {
  case HostFeature::ContainerRuntime:
    return "container runtime";
  case HostFeature::Gvisor:
    return "gvisor";
  case HostFeature::Unbuilt:
    return "unbuilt";
  }
  return "unbuilt";
}

const HostNeed *callNeed(std::string_view builtin) {
  const auto &t = callNeeds();
  auto it = std::lower_bound(t.begin(), t.end(), builtin,
                             [](const auto &e, std::string_view n) { return e.first < n; });
  return it != t.end() && it->first == builtin ? &it->second : nullptr;
}

std::optional<HostNeed> proxyRuleNeed(const ProxyRule &r, const std::string &service,
                                      const Interface &iface) {
  std::string gap = proxyRuleGap(r, iface.protocol);
  if (gap.empty())
    return std::nullopt;
  HostNeed n;
  n.feature = HostFeature::Unbuilt;
  n.subject = "interface " + quote(service + "." + iface.name);
  // One reason per interface, whichever of its rules the test installs.
  n.what = iface.protocol + " rules that match or answer its messages need a proxy that speaks " +
           iface.protocol + ", which fbc does not have (it relays " + iface.protocol +
           " as TCP; a plain delay() or drop() of the stream runs)";
  n.loc = r.loc;
  return n;
}

std::string hostNeedReason(const HostNeed &n, std::string_view why) {
  std::string out = n.subject + ": " + n.what;
  if (!why.empty())
    out.append(" (").append(why).append(")");
  return out;
}

std::string remoteSyscallRefusal(std::string_view who, const Service &s, std::string_view keyword) {
  std::string iface = s.name + "." + (s.interfaces.empty() ? "<iface>" : s.interfaces[0].name);
  return std::string(who) + ": service " + quote(s.name) + " is remote (" + s.remoteSource() +
         "); syscall-level faults are not available on remote services: " + std::string(keyword) +
         "= needs the service's process, which fbc does not run. Fault its interface with a "
         "protocol rule instead (rules= with target=" +
         iface + ", or fault(" + iface +
         ", error(...), run=...)), or declare it with mock_service()";
}

std::string wrongRuntimeReason(const HostNeed &n, std::string_view runtime) {
  // The reference's three refusals: file watches need its filesystem
  // observation, shapers and packet rules its packet gateway; a partition
  // says why it is not a connect() deny instead.
  bool watch = n.subject.rfind("watch", 0) == 0;
  bool shaper = n.subject == "bandwidth()" || n.subject == "mtu()";
  std::string out = n.subject +
                    (watch ? " needs filesystem observation" : " needs the packet gateway") +
                    ", but this spec runs on runtime=\"" + std::string(runtime) +
                    "\"; add determinism(runtime=\"gvisor\") at the top of the spec";
  if (watch || shaper)
    return out;
  out += ".";
  if (n.subject.rfind("partition", 0) == 0)
    out += " It is not silently downgraded to a connect() deny: that only blocks connection "
           "*setup*, so against any service that pools connections (Raft, etcd, Cassandra, "
           "every gossip protocol) it does nothing at all while the test still passes";
  return out;
}

} // namespace fbc::ir
