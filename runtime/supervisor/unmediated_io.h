// Unmediated I/O at run time: the observed entries of a service's filter
// (ir/unmediated.h, from the leaf program) as syscall numbers and argument
// conditions, the classification of one trapped call into an
// `unmediated_io` event, and the strict-determinism check of a finished
// test (the reference's strict_determinism_violation).
//
// An observed call is always allowed: the event is an observation. A call
// that a rule also traps is decided by the rules first, then observed (a
// denied connect to an undeclared port is still unmediated_io).
#pragma once

#include "ir/spec.h"
#include "ir/unmediated.h"
#include "runtime/os/seccomp_filter.h"
#include "runtime/rules/rules.h"
#include "runtime/trace/trace.h"

#include <linux/seccomp.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

// What one service's filter observes.
struct ObservedTraps {
  // Per syscall number, the entries observed on it (a handful per service).
  std::vector<std::pair<int, const ir::ObservedEntry *>> entries;
  std::vector<int> always;                  // trapped on every call
  std::vector<ConditionalTrap> conditional; // trapped on some calls, by argument
  bool empty() const { return entries.empty(); }
};

// LeafTest::observes of one service as numbers and conditions. Entries whose
// syscalls this architecture lacks (`time` on arm64) are skipped; an unknown
// name is an error.
bool observedTraps(const std::vector<std::string> &names, ObservedTraps &out, std::string &error);

// Classifies trapped calls of one service.
class UnmediatedObserver {
public:
  // `detectAll`: determinism() is in force (every entry records); otherwise
  // a bypass records only while a fault rule on a family it bypasses is in
  // force on the service.
  UnmediatedObserver(ObservedTraps traps, ServiceId service, bool detectAll)
      : traps_(std::move(traps)), service_(service), detectAll_(detectAll) {}

  bool observes(int nr) const;
  // The event's fields (category, syscall, pid, detail?, bypasses?), or
  // nullopt when the call is not unmediated I/O (a connect to a declared
  // port, an open of another file, a bypass with no rule in force).
  std::optional<std::vector<std::pair<std::string, std::string>>>
  classify(const seccomp_notif &req, SyscallFacts &facts, const RuleTable &rules) const;

private:
  ObservedTraps traps_;
  ServiceId service_;
  bool detectAll_;
};

// determinism() at level L1: the run observes every unmediated source.
bool determinismInForce(const ir::Spec &spec);

// Under strict L1 determinism: the first unmediated_io event whose category
// neither determinism(allow=) nor its service's nondeterministic_ok= lists,
// as the failure reason; nullopt when there is none (or no strict mode).
std::optional<std::string> strictViolation(const ir::Spec &spec,
                                           const std::vector<TraceEvent> &events,
                                           const std::vector<std::string> &serviceNames);

} // namespace fbc::rt
