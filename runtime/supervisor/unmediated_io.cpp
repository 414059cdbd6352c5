// Unmediated I/O at run time: see unmediated_io.h.
#include "runtime/supervisor/unmediated_io.h"

#include "backend/rule_lower.h"
#include "ir/quote.h"
#include "ir/spec.h"
#include "runtime/os/syscalls.h"
#include "runtime/os/target_memory.h"

#include <sys/mman.h>
#include <sys/socket.h>

#include <algorithm>

namespace fbc::rt {
namespace {

// The filter's form of a TrapWhen (the kernel checks these before the call
// reaches us) ...
std::vector<std::vector<ArgTest>> argTests(ir::TrapWhen w) {
  switch (w) {
  case ir::TrapWhen::Always:
    return {};
  case ir::TrapWhen::SharedWritableFileMap: // mmap(addr, len, prot, flags, fd, off)
    return {{{2, true, PROT_WRITE, PROT_WRITE}, {3, true, MAP_SHARED | MAP_ANONYMOUS, MAP_SHARED}}};
  case ir::TrapWhen::AddressedSend: // sendto(fd, buf, len, flags, addr, addrlen)
    return {{{4, false, ~uint64_t(0), 0}}};
  case ir::TrapWhen::RawSocket: // socket(domain, type, protocol)
    return {{{1, true, 0xf, SOCK_RAW}}, {{0, true, ~uint64_t(0), AF_PACKET}}};
  }
  return {};
}

// ... and the same test on a call's arguments, for a call the filter
// trapped anyway (a rule on mmap traps every mmap).
bool holds(ir::TrapWhen w, const __u64 *args) {
  for (const std::vector<ArgTest> &alt : argTests(w)) {
    bool all = true;
    for (const ArgTest &t : alt)
      all = all && (((args[t.arg] & t.mask) == t.value) == t.equal);
    if (all)
      return true;
  }
  return argTests(w).empty();
}

// The fd whose file a bypass entry writes or syncs (-1: none worth naming:
// an io_uring ring, msync's address), and for a transfer the fd it reads.
int bypassFdArg(std::string_view syscall) {
  if (syscall == "mmap")
    return 4;
  if (syscall == "splice" || syscall == "copy_file_range")
    return 2; // fd_out
  if (syscall == "sendfile" || syscall == "sync_file_range" || syscall == "syncfs")
    return 0; // out_fd, fd
  return -1;
}
int transferInArg(std::string_view syscall) {
  return syscall == "sendfile" ? 1 : 0; // in_fd, fd_in
}

std::string fdPath(const seccomp_notif &req, int arg) {
  std::string path;
  if (arg < 0 ||
      !readTargetFdPath(static_cast<pid_t>(req.pid), static_cast<int>(req.data.args[arg]), path))
    path.clear();
  return path;
}

using Fields = std::vector<std::pair<std::string, std::string>>;

Fields event(std::string_view category, int nr, const seccomp_notif &req) {
  return {{"category", std::string(category)},
          {"syscall", std::string(syscallName(nr))},
          {"pid", std::to_string(req.pid)}};
}

} // namespace

bool observedTraps(const std::vector<std::string> &names, ObservedTraps &out, std::string &error) {
  out = {};
  for (const std::string &name : names) {
    const ir::ObservedEntry *e = ir::findObservedEntry(name);
    if (!e) {
      error = "unknown observed entry " + ir::quote(name);
      return false;
    }
    // `open` stands for its family; a conditional entry is that one syscall
    // (sendto[addressed] checks sendto's own argument layout).
    for (int nr : backend::observedSyscalls(*e)) {
      out.entries.emplace_back(nr, e);
      if (e->when == ir::TrapWhen::Always)
        out.always.push_back(nr);
      else
        out.conditional.push_back({nr, argTests(e->when)});
    }
  }
  std::sort(out.always.begin(), out.always.end());
  out.always.erase(std::unique(out.always.begin(), out.always.end()), out.always.end());
  return true;
}

bool UnmediatedObserver::observes(int nr) const {
  return std::any_of(traps_.entries.begin(), traps_.entries.end(),
                     [&](const auto &p) { return p.first == nr; });
}

std::optional<Fields> UnmediatedObserver::classify(const seccomp_notif &req, SyscallFacts &facts,
                                                   const RuleTable &rules) const {
  int nr = req.data.nr;
  const __u64 *args = req.data.args;
  for (const auto &[entryNr, e] : traps_.entries) {
    if (entryNr != nr || !holds(e->when, args))
      continue;
    if (!e->bypasses.empty()) {
      std::string path = fdPath(req, bypassFdArg(e->syscall));
      // A mapping of an io_uring ring, a memfd or a device is memory, not a
      // file's I/O.
      if (e->syscall == "mmap" && (path.empty() || path[0] != '/' || path.starts_with("/memfd:") ||
                                   path.starts_with("/dev/")))
        continue;
      std::span<const std::string_view> bypassed = e->bypasses;
      // A transfer into a pipe reads its source (named instead) and writes
      // nothing a write rule could have seen.
      if (!e->bypassesIntoPipe.empty() && path.starts_with("pipe:")) {
        bypassed = e->bypassesIntoPipe;
        path = fdPath(req, transferInArg(e->syscall));
      }
      std::string rule = rules.faultRuleOn(service_, bypassed);
      if (rule.empty() && !detectAll_)
        continue;
      Fields f = event(ir::kCategoryFs, nr, req);
      if (!path.empty())
        f.emplace_back("detail", path);
      if (!rule.empty())
        f.emplace_back("bypasses", rule);
      return f;
    }
    std::string_view category = e->categories.front();
    if (category == ir::kCategoryRand && e->syscall == "open") {
      const std::string *path = facts.path();
      if (!path || (*path != "/dev/urandom" && *path != "/dev/random"))
        continue;
      Fields f = event(category, nr, req);
      f.emplace_back("detail", *path);
      return f;
    }
    if (e->syscall == "connect" || e->syscall == "sendto") {
      const Destination *d = facts.destination();
      // Unix sockets, netlink, an unreadable address: not the network.
      if (!d || !d->valid() || rules.declaredDestination(*d))
        continue;
      Fields f = event(d->port == 53 ? ir::kCategoryDns : ir::kCategoryNetwork, nr, req);
      f.emplace_back("detail", d->text());
      return f;
    }
    if (e->syscall == "socket") {
      Fields f = event(category, nr, req);
      f.emplace_back("detail", args[0] == AF_PACKET ? "AF_PACKET socket" : "SOCK_RAW socket");
      return f;
    }
    return event(category, nr, req);
  }
  return std::nullopt;
}

bool determinismInForce(const ir::Spec &spec) {
  return spec.determinism.explicitCall && spec.determinism.level == "L1";
}

std::optional<std::string> strictViolation(const ir::Spec &spec,
                                           const std::vector<TraceEvent> &events,
                                           const std::vector<std::string> &serviceNames) {
  const ir::Determinism &det = spec.determinism;
  if (!determinismInForce(spec) || !det.strict)
    return std::nullopt;
  auto listed = [](const std::vector<std::string> &l, const std::string &c) {
    return std::find(l.begin(), l.end(), c) != l.end();
  };
  for (const TraceEvent &e : events) {
    if (e.type != EventType::UnmediatedIo || e.service >= serviceNames.size())
      continue;
    const std::string &svc = serviceNames[e.service];
    std::string category = e.field("category");
    const ir::Service *s = spec.findService(svc);
    if (listed(det.allow, category) || (s && listed(s->nondeterministicOk, category)))
      continue;
    std::string reason = "strict determinism: unmediated_io[" + category + "] from service " +
                         ir::quote(svc) + " (syscall=" + e.field("syscall");
    if (std::string detail = e.field("detail"); !detail.empty())
      reason += ", detail=" + detail;
    reason += ") — add " + ir::quote(category) + " to determinism(allow=...) or service(" +
              ir::quote(svc) +
              ", nondeterministic_ok=[...]) to tolerate, or fix the underlying I/O leak";
    return reason;
  }
  return std::nullopt;
}

} // namespace fbc::rt
