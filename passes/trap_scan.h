// Which syscalls a test could put a rule on, per service, read from the
// IR before anything runs, so that each service's seccomp filter traps
// exactly those (the lowering stores them in the leaf program; the run
// traps them and nothing else).
//
// Sources: the assumptions of a fault_scenario / matrix cell (with their
// composed faults=), and every fault() / fault_start() / fault_all() /
// trace() / trace_start() call reachable from the test's functions: the
// body (or scenario), its setup and expectation, the lambdas and nested
// defs inside them, and the root-file functions they name, transitively.
// A call's target is resolved by passes/fault_calls.h: a service gives its
// keywords (syscalls, or a named op's syscalls), a fault_assumption its
// rules. A target that cannot be resolved statically (a local variable, a
// parameter) is widened: its keywords go on every service, and an
// unresolved assumption stands for all of them.
//
// The options of a planned choose() (a literal list at a call site of one
// of the test's choose axes) are scanned one by one, so that a leaf traps
// what its own option can fault and not what the others can (per-leaf trap
// sets: ir::LeafTest::optionTraps).
#pragma once

#include "ir/spec.h"

#include <span>
#include <string>
#include <vector>

namespace fbc::passes {

// A planned choose() call of the test (a site of a LeafTest choose axis):
// where it is, the axis its digit comes from, how many options it has.
struct ChoiceSite {
  ir::Loc loc;
  size_t axis = 0;
  size_t options = 0;
};

struct TrapScan {
  // Per service (by index in spec.services): the syscall keywords and names
  // `t`'s rules could name there in every leaf, sorted and unique
  // (families unexpanded).
  std::vector<std::vector<std::string>> all;
  // Option `option` of the choose() list of axis `axis` (a literal list at
  // a planned site), scanned apart: what the leaves taking it add (by
  // service, as `all`; an element that is also reached elsewhere is in
  // `all` too).
  struct Option {
    size_t axis;
    uint64_t option;
    std::vector<std::vector<std::string>> traps;
  };
  std::vector<Option> options;
  // Per service: the interfaces `t`'s protocol rules could target (an
  // assumption's rules= on its interface, fault(svc.iface, <rule>, ...) and
  // fault_start(svc.iface, <rule>, ...) calls; an unresolved target widens
  // to every interface), sorted, in any leaf. The run puts a proxy in
  // front of each.
  std::vector<std::vector<std::string>> proxies;
  // What the test's reachable calls need of the machine (ir/host_needs.h:
  // packet_*(), partition(), watch(), ...), in the order found, each
  // (subject, what) once; in any leaf.
  std::vector<ir::HostNeed> needs;
  // Whether a parallel() or wait_*() call is reachable (fbc run --explore holds calls
  // while its branches run).
  bool parallel = false;
  // Per service: named by a reachable nondet(svc, ...) call (a global
  // holding the service): fbc run --explore holds none of its calls.
  std::vector<bool> nondet;
  // The services a fault(), fault_start() or fault_all() call of the test
  // installs a fault on, where the target is statically known (a service
  // global with rule keywords, one of its interfaces with protocol rules,
  // an assumption global: its composed targets), sorted; what the coverage
  // pass counts for a `def test_*` (never widened as `all` is).
  std::vector<std::string> faulted;
  // Each `keyword = <fault>` of a fault(), fault_start() or fault_all()
  // call, per service it may target (every service when the target is
  // not statically known, as `all` widens): the sites the lowering turns
  // into ir::LeafTest::callRules. Keywords that name neither an op of the
  // service nor a syscall are left out (the call fails when it runs).
  // Sorted by (file path, line, column, service, keyword), unique; in any
  // leaf (a planned choose() option's calls included).
  struct CallKeyword {
    ir::Loc at; // the call's '('
    size_t service = 0;
    std::string keyword;
  };
  std::vector<CallKeyword> callKeywords;
};

TrapScan scanTraps(const ir::Spec &spec, const ir::Test &t,
                   std::span<const ChoiceSite> choices = {});

} // namespace fbc::passes
