// Lowering of fault rules (issue #26: the runtime reads rules, it does not
// derive them): a `keyword = fault` on a service and a protocol rule on an
// interface, as the run installs them, and every fault_assumption of a spec
// with the assumptions it composes. A named op stands for its syscalls (labelled with the op's
// name; the fault's own path= wins over the op's); a family keyword for its
// members' native numbers; deny()'s errno is its number.
#pragma once

#include "ir/leaf_program.h"
#include "ir/spec.h"
#include "ir/unmediated.h"

#include <string>
#include <vector>

namespace fbc::backend {

// The rules a `keyword = <fault>` on spec.services[service] installs, the
// fault's value left out (ir::LeafTest::callRules): one per syscall of a
// named op (with the op's path and its name as label), else one for the
// keyword (a family: its members' numbers). `at`: ir::RuleSite::at.
void lowerKeyword(const ir::Spec &spec, int service, const std::string &keyword, const ir::Loc &at,
                  std::vector<ir::LoweredRule> &out);

// `shape` (lowerKeyword's) with fault `f`'s value: its action, errno
// number, delay, probability and leaf bits, its label= and path= over the
// op's, the probability site key, and the fault's call as the site's rule.
ir::LoweredRule bindFault(const ir::Spec &spec, const ir::LoweredRule &shape, const ir::Fault &f);

// The rules of `keyword = f` on spec.services[service] (lowerKeyword, then
// bindFault). `at` is where the
// rule is attached (ir::RuleSite::at): the fault() call, or the
// assumption's keyword argument.
void lowerKeywordRules(const ir::Spec &spec, int service, const std::string &keyword,
                       const ir::Fault &f, const ir::Loc &at, std::vector<ir::LoweredRule> &out);

// A protocol rule on interface `iface` of spec.services[service]: its
// target in the codec's form (ir::Protocol::normalizedTarget), its site
// (`at`: the fault() call, or the assumption) and probability site key.
ir::LoweredProxyRule lowerProxyRule(const ir::Spec &spec, int service, const ir::Interface &iface,
                                    const ir::ProxyRule &rule, const ir::Loc &at);

// Every assumption of the spec, lowered (ir::LeafProgram::assumptions). An
// assumption on a service the spec lacks (a remote's syscalls are refused at
// load) has no rules.
std::vector<ir::LoweredAssumption> lowerAssumptions(const ir::Spec &spec);

// The native numbers a rule on `keyword` traps, sorted (a family keyword:
// its members'); empty when it names no native syscall. For the rules a test
// body builds at run time from values (trace(syscalls=[...])), which no
// lowering could see; every other rule carries its numbers lowered.
std::vector<int> keywordSyscalls(std::string_view keyword);

// The native numbers an observed entry (the leaf program's `observes`)
// traps: an Always entry's keyword stands for its family, a conditional
// one is that one syscall (sendto[addressed] reads sendto's own arguments);
// empty when this architecture lacks it.
std::vector<int> observedSyscalls(const ir::ObservedEntry &entry);

} // namespace fbc::backend
