// ir::LeafProgram: what `fbc run` executes, lowered from ir::Plan by
// backend/leaf_lower.h. Per test the ordered fan-out axes (choose axes,
// then probability sites, then interleaving sites, as in PlanTest::axes),
// the leaf count, and the mixed-radix decode of a leaf index (the first
// axis varies fastest). Leaf ids are "0" .. "N-1".
//
// The plan's count and the run's leaf count are the same number because
// both come from these axes: an axis whose size the plan cannot know (a
// computed choose() list, max_fires= or branch list) counts as 1 in the
// plan ("at least") and is sized by the run while it executes leaf 0
// (resize()); the remaining leaves then follow.
#pragma once

#include "ir/plan.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}
namespace fbc::frontend {
class SourceManager;
}

namespace fbc::ir {

// An axis of a test's leaves: the plan's axis it lowers (kind, key, call
// sites, options and their constants, max_fires, rule sites, branches,
// policy: a copy, so the leaf program stands alone and its text form
// parses back) and the size the leaves enumerate.
struct LeafAxis {
  PlanAxis plan;
  uint64_t size = 1;
  bool known = true; // false: sized while leaf 0 runs (resize())

  AxisKind kind() const { return plan.kind; }
  const std::string &name() const { return plan.name; }
  // Whether the call at `loc` is one of this axis's call sites (choose,
  // parallel: how the run finds a call's axis).
  bool isSite(const Loc &loc) const;
  // A choose axis's option `digit` as the plan renders it ("1000"); none
  // when the plan does not know the options.
  std::optional<std::string> optionValue(uint64_t digit) const {
    if (plan.kind != AxisKind::Choose || digit >= plan.values.size())
      return std::nullopt;
    return plan.values[digit];
  }
};

// One leaf: a digit per axis (parallel to LeafTest::axes).
struct LeafAssignment {
  uint64_t index = 0;
  std::vector<uint64_t> digits;
  std::string id() const { return std::to_string(index); }
};

// A syscall fault rule lowered for the run (backend/rule_lower.h): what
// the supervisor's rule table needs, resolved (a named op expanded to its
// syscalls, families to native numbers, the errno to its number).
struct LoweredRule {
  int service = -1;          // index in Spec::services
  std::string keyword;       // the syscall keyword ("write": a family; "fsync")
  std::vector<int> syscalls; // its native numbers, sorted
  FaultAction action = FaultAction::Deny;
  int errnoNumber = 0; // Deny
  int64_t delayNs = 0; // Delay
  double probability = 1;
  uint64_t leafBits = 0; // max_fires of a probability axis (ir::fansOutByProbability), else 0
  std::string label;
  std::string pathGlob;
  std::string siteKey; // ir::probabilitySiteKey(label, service, keyword as written)
  RuleSite site;       // where it comes into force (LeafTest::findAxis(RuleSite))
  std::string fault;   // the assumption it belongs to; "" for a fault() call's rules
};

struct LeafTest {
  const Test *test = nullptr;
  std::vector<LeafAxis> axes;
  // Per service (by index in Spec::services), sorted and unique: the
  // native syscall numbers every leaf's filter traps there (families
  // expanded): the syscalls the test's rules could name (fault and trace
  // calls reachable from its functions, its assumptions), and a
  // destination syscall (ir::isDestinationSyscall) any service traps. The
  // run traps these and nothing else (trapsFor()).
  std::vector<std::vector<int>> traps;
  // What only some leaves trap on top of `traps`: the leaves whose digit on
  // choose axis `axis` is `option` (a rule reached only through that option
  // of the choose() list, e.g. choose("rule", [deny_write, deny_fsync])).
  struct OptionTraps {
    size_t axis = 0;
    uint64_t option = 0;
    size_t service = 0;
    std::vector<int> syscalls; // sorted, unique, none of them in traps[service]
  };
  std::vector<OptionTraps> optionTraps; // by axis, option, service
  // Per service, sorted: the entries of ir/unmediated.h its filter also
  // traps, only to observe them (allowed; recorded as unmediated_io).
  std::vector<std::vector<std::string>> observes;
  // Per service, sorted: the interfaces a proxy stands in front of (the
  // test's protocol rules could target them; passes/trap_scan.h).
  std::vector<std::vector<std::string>> proxies;
  // What the test needs of the machine (ir/host_needs.h): every service's
  // needs (each test starts every service), then its reachable calls'. The
  // run checks them before the test's first leaf: one error row for the
  // test when something is missing.
  std::vector<HostNeed> needs;
  // fbc run --explore (LeafProgram::explore): per service, sorted, the
  // syscall numbers held while a parallel() call's branches run (also in
  // `traps`); empty everywhere when the test is not explored.
  std::vector<std::vector<int>> holds;
  // The test calls parallel(..., interleavings="dpor") (a planned site):
  // its release orders are explored by DPOR (runtime/explore/dpor.h),
  // whatever --explore says; `preemptions` bounds them when given.
  struct Dpor {
    std::optional<uint32_t> preemptions;
    bool operator==(const Dpor &) const = default;
  };
  std::optional<Dpor> dpor;
  // The rules of each `keyword = <fault>` of the fault(), fault_start()
  // and fault_all() calls the trap scan reads in the test's functions, per
  // service the call may target (every service when the target is not a
  // service global, as `traps` widens), sorted by site (at, service,
  // keyword): the keyword lowered (a family to its members' numbers, a
  // named op to its syscalls with its path and label), the fault's value
  // left out: it exists only when the call runs (a typed ir::Fault,
  // backend::bindFault). The run looks a call's rules up here by its site
  // (findCallRules); only a call the plan did not read (a keyword passed
  // through **kwargs, a function the scan does not reach) is lowered when
  // it runs.
  std::vector<LoweredRule> callRules;
  Count count; // product of the axis sizes; "at least" while an axis is unknown or explored

  bool fansOut() const { return !axes.empty(); }
  // Whether the run explores release orders: its leaves are schedules,
  // found while it runs (count "at least 1").
  bool explored() const;
  // Leaf `index` (< count.value): rem = index; digit = rem % size; rem /= size.
  LeafAssignment decode(uint64_t index) const;
  // The trap sets of leaf `a`, per service, sorted: `traps` with the
  // optionTraps its digits select.
  std::vector<std::vector<int>> trapsFor(const LeafAssignment &a) const;
  // The axis of `kind` with a call site at `loc` (choose, interleaving);
  // -1 when none.
  int findAxis(AxisKind kind, const Loc &loc) const;
  // The probability axis a rule in force at `site` belongs to
  // (PlanAxis::ruleSites; its key plays no part); -1 when none.
  int findAxis(const RuleSite &site) const;
  // The callRules of `keyword` on service `service` at the call whose '('
  // is at `at`; empty when the plan did not read that call.
  std::span<const LoweredRule> findCallRules(const Loc &at, int service,
                                             std::string_view keyword) const;
  // Sizes an unknown axis (at run time, during leaf 0) and recomputes count.
  void resize(size_t axis, uint64_t size);
  void recount();
};

// A protocol rule (an assumption's rules=, a fault(svc.iface, ...) call's)
// lowered for the run (backend/rule_lower.h): the rule as written (its
// display() is what events show) with its target matcher in the codec's
// form, and its probability site.
struct LoweredProxyRule {
  int service = -1;                  // index in Spec::services
  std::string interface;             // the interface's name
  const ProxyRule *source = nullptr; // as written, in the spec's IR
  std::string target;                // source->target(), ir::Protocol::normalizedTarget
  uint64_t leafBits = 0;             // max_fires of a probability axis, else 0
  std::string siteKey;               // ir::probabilitySiteKey(label, "svc.iface", action)
  RuleSite site;                     // rule: the rule's call, at: where it comes into force
  std::string fault;                 // the assumption it belongs to; "" for a fault() call's
  size_t index = 0;                  // its place in that assumption's rules= (or the call's)
};

// A fault_assumption lowered: its rules and those of the assumptions it
// composes (faults=), each once, in the order the run installs them.
struct LoweredAssumption {
  std::string name;
  std::vector<LoweredRule> rules;
  std::vector<LoweredProxyRule> proxyRules;
};

// fbc run --explore=all|sample (docs/run.md, "Exploring orderings"): the
// tests that call parallel() and fan out on nothing else hold the calls
// the reference's explore mode holds (kExploreHeld) on every service with
// a seccomp filter, and each leaf releases them in an order of its own.
struct ExploreOptions {
  enum class Policy { None, All, Sample };
  Policy policy = Policy::None;
  uint64_t budget = 0;               // at most this many leaves (schedules) per test
  int64_t settleNs = 2000000;        // the two reads of a quiescence check are this far apart
  int64_t quietBoundNs = 1000000000; // past this wait, release without quiescence
};
const char *explorePolicyName(ExploreOptions::Policy p); // "none", "all", "sample"
// --explore-budget's default: all 1000, sample 100 (the reference's runs).
// (and for a parallel(interleavings="dpor") test under any policy: 1000).
uint64_t defaultExploreBudget(ExploreOptions::Policy p);
// The syscall keywords explore mode holds: the reference's list.
inline constexpr const char *kExploreHeld[] = {"write", "read",   "connect",  "openat",
                                               "fsync", "sendto", "recvfrom", "writev"};

struct LeafProgram {
  const Spec *spec = nullptr;
  ExploreOptions explore;
  std::vector<LeafTest> tests; // parallel to Spec::tests
  Count total{0, true};
  // Every fault_assumption of the spec, lowered, in declaration order: what
  // a fault_scenario / fault_matrix cell and fault(<assumption>) install.
  std::vector<LoweredAssumption> assumptions;
  const LeafTest *find(std::string_view testName) const;
  const LoweredAssumption *findAssumption(std::string_view name) const;
};

// Probability site digit -> per-occurrence vector: occurrence k fires iff
// bit k of `digit` (occurrence 0 first).
std::vector<bool> probabilityVector(uint64_t digit, int64_t maxFires);
// The k-th lexicographic permutation of [0, n) (Lehmer decode); k >= n!
// gives the identity.
std::vector<uint32_t> launchOrder(uint64_t k, uint32_t n);
// A leaf as a run row reports it (leaf_choices, leaf_probability_outcomes,
// leaf_interleavings): what the label is made of. The HTML report rebuilds
// it from a bundle's JSON, so both go through leafLabel() below.
struct LeafFields {
  std::map<std::string, uint64_t> choices;              // axis -> option index
  std::map<std::string, std::string> choiceValues;      // axis -> the option ("1000")
  std::map<std::string, std::vector<bool>> probability; // site -> fired vector
  std::map<std::string, uint64_t> interleavings;        // "file:line" -> ordering
  // fbc run --explore: the index released at each step that had a choice,
  // "1.0.2" ("-": no step had one); "" for a leaf that is not explored.
  std::string schedule;
};
// A fired vector as the labels write it: "10" (occurrence 0 first).
std::string fireBits(const std::vector<bool> &v);
// "retries=1, wal[10], spec.star:7#0": choices (the option's value, its
// index where the value is not known), vectors, interleavings, each kind
// sorted by key, then "schedule=1.0" for an explored leaf; "" when there
// are no axes.
std::string leafLabel(const LeafFields &f);
std::string leafAxesLabel(const LeafTest &t, const LeafAssignment &a);
// "test_x [leaf 3 — retries=1]" ("test_x [leaf 0]" with an empty label): the
// display name of a leaf row in the text report, `fbc ir`, and the HTML report.
std::string leafDisplayName(const std::string &test, const std::string &id,
                            const std::string &label);

// The text form (ir/leaf_program_print.cpp, read back by leaf_program_parse.cpp), `fbc ir
// --stage=leaves`: every test's axes with all their plan fields, trap and observe sets, proxies,
// needs and count, then a view of one leaf (with `leaf`, that leaf's
// assignment; otherwise the last); it parses back to an equal program.
struct LeafPrintOptions {
  std::string test;                // "" = every test
  std::optional<std::string> leaf; // a leaf id
};
// Returns false (after writing an error to `err`) when the test or leaf
// does not exist.
bool printLeafProgramText(const LeafProgram &p, const LeafPrintOptions &opts, llvm::raw_ostream &os,
                          std::string &err);
// Reads the text form of a whole program (no --test filter) back, against
// the loaded spec whose tests and source files it names. Returns false
// with `err` ("line N: ...") on text it cannot read or that disagrees with
// itself (a count that is not its axes' product).
bool parseLeafProgramText(std::string_view text, const Spec &spec,
                          const frontend::SourceManager &sources, LeafProgram &out,
                          std::string &err);
// parseLeafProgramText() on the file at `path` (a regular file of at most
// 64 MiB); `err` starts with the path.
bool readLeafProgramFile(const std::string &path, const Spec &spec,
                         const frontend::SourceManager &sources, LeafProgram &out,
                         std::string &err);
// The first difference between two leaf programs ("test \"t\": axis 0
// sites"), "" when they are equal in everything they carry.
std::string leafProgramDifference(const LeafProgram &a, const LeafProgram &b);
// Whether two plan axes are equal in every field (a lowered axis is a copy
// of its plan axis: the pipeline verifier's test).
bool samePlanAxis(const PlanAxis &a, const PlanAxis &b);

} // namespace fbc::ir
