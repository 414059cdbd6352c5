// The values of the temporal builtins (ir/builtins/temporal.cpp): matcher
// (match.*), monitor, and the eventually()/always() expectations. Each
// carries the IR it stands for (ir/spec.h "temporal").
#pragma once

#include "ir/builtins/call_site.h"
#include "ir/builtins/values.h"

namespace fbc::star {
class Interpreter;
}

namespace fbc::ir::builtins {

// Binds the `match` namespace (match.event/any/all/never).
void installTemporal(star::Interpreter &interp);

class MatcherValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "matcher";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  Matcher data;
};

class MonitorValue final : public SpecValue {
public:
  static constexpr std::string_view kTypeName = "monitor";
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return kTypeName; }
  void repr(star::Printer &p) const override;

  Monitor data;
  // Its index in SpecBuilder::monitors (declared while the spec loads);
  // -1 for one made in a test body.
  int64_t index = -1;
};

// eventually(...) / always(...): its type() is "eventually" or "always",
// so it has no kTypeName and valueAs<> does not apply: temporalValueOf().
class TemporalValue final : public SpecValue {
public:
  static constexpr bool kNeedsDestroy = true;
  std::string_view typeName() const override { return temporalKindName(data.kind); }
  void repr(star::Printer &p) const override;

  Temporal data;
};

// `v` as a temporal value (typeName() "eventually" or "always"), or null.
TemporalValue *temporalValueOf(star::Value v);

// A matcher argument (on=, anchor=, ignore=, await_event's): a matcher
// value or a callable (a Predicate matcher); null when `v` is neither.
std::shared_ptr<Matcher> matcherOf(star::Value v);

// monitors=[...] of fault_assumption / fault_scenario / fault_matrix: each
// element a monitor declared at load time, claimed (no longer spec-wide);
// its index in Spec::monitors. `prefix` starts the messages
// ("fault_scenario()").
std::vector<uint32_t> claimMonitors(const CallSite &site, star::Value v, const std::string &prefix);

// test(expect=) / test(terminate_when=): an eventually()/always() value.
std::shared_ptr<const Temporal> temporalArg(const CallSite &site, star::Value v,
                                            std::string_view test, std::string_view key);

// Whether `a` holds for `choices` (the choose() axis -> option dict; a bool
// assume is its own value): its predicate's truth, or false with `error` =
// "assume(name) raised: ..." when it raises. At load (top-level assume())
// and before a test's body (test(assume=)).
bool assumeHolds(star::Thread &t, const Assume &a, star::Value choices, std::string &error);

// test(assume=[...]): callables or bools.
std::vector<Assume> assumeList(const CallSite &site, star::Value v, std::string_view test);

} // namespace fbc::ir::builtins
