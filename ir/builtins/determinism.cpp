// determinism(level=, runtime=, strict=, allow=): the spec's determinism
// contract (top level, at most once).
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/quote.h"

#include <algorithm>

namespace fbc::ir::builtins {

using star::Value;

namespace {

std::string text(Value v) {
  if (auto *s = v.as<star::String>())
    return quote(s->view());
  return star::repr(v);
}

// determinism()'s keywords; strict= is checked against level= once both
// are read.
struct DeterminismArgs {
  Determinism &d;
  Value strict;
};

void readLevel(DeterminismArgs &a, const Arg &arg) {
  auto *s = arg.value.as<star::String>();
  std::string_view level = s ? s->view() : "";
  if (level == "L0" || level == "L1")
    a.d.level = std::string(level);
  else if (level == "L2" || level == "L3" || level == "L4" || level == "L5")
    arg.site().fail(arg.at(), "determinism(): level=" + quote(level) +
                                  " is reserved for a future release; supported levels: L0, L1");
  else
    arg.site().fail(arg.at(),
                    "determinism(): level= must be \"L0\" or \"L1\", got " + text(arg.value));
}

void readRuntime(DeterminismArgs &a, const Arg &arg) {
  auto *s = arg.value.as<star::String>();
  if (!s || (s->view() != "default" && s->view() != "gvisor"))
    arg.site().fail(arg.at(), "determinism(): runtime= must be \"default\" or \"gvisor\", got " +
                                  text(arg.value));
  a.d.runtime = std::string(s->view());
}

void readStrict(DeterminismArgs &a, const Arg &arg) {
  if (!arg.value.as<star::Bool>())
    arg.site().fail(arg.at(), "determinism(): strict= must be a bool, got " + typeOf(arg.value));
  a.strict = arg.value;
}

void readAllow(DeterminismArgs &a, const Arg &arg) {
  std::vector<Value> items;
  if (!listItems(arg.value, items))
    arg.site().fail(arg.at(),
                    "determinism(): allow= must be a list of categories, got " + typeOf(arg.value));
  for (size_t i = 0; i < items.size(); ++i) {
    Loc el = arg.site().at(CallSite::element(arg.expr, i));
    auto *c = items[i].as<star::String>();
    if (!c || !isDeterminismCategory(c->view()))
      arg.site().fail(el, "determinism(): unknown allow category " + text(items[i]) +
                              " (categories: " + joinNames(determinismCategories()) + ")");
    a.d.allow.emplace_back(c->view());
  }
}

constexpr Param<DeterminismArgs> kDeterminismParams[] = {
    {"level", readLevel},
    {"runtime", readRuntime},
    {"strict", readStrict},
    {"allow", readAllow},
};

} // namespace

Value determinismFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "determinism");
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)), "determinism() takes only keyword arguments");
  if (b.determinism)
    site.fail("determinism(): may only be called once per spec");
  Determinism d;
  d.explicitCall = true;
  d.loc = site.loc();
  DeterminismArgs read{d, {}};
  bindKeywords(BindCall(site, args, {"determinism()"}), kDeterminismParams, read);
  Value strict = read.strict;
  if (strict) {
    if (d.level == "L0")
      site.fail(site.at(site.keywordValue("strict")),
                "determinism(): strict= cannot be set at level L0 (L0 only fixes the plan; "
                "strictness applies from L1)");
    d.strict = strict.as<star::Bool>()->value;
  }
  b.determinism = std::move(d);
  return star::none();
}

} // namespace fbc::ir::builtins
