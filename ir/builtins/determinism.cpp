// determinism(level=, runtime=, strict=, allow=): the spec's determinism
// contract (top level, at most once).
#include "frontend/eval/objects.h"
#include "frontend/eval/printer.h"
#include "ir/builtins/arg_util.h"
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
  Value strict;
  for (const star::Kwarg &kw : args.kwargs) {
    std::string_view k = kw.name->view();
    Value v = kw.value;
    const syntax::Expr *lit = site.keywordValue(k);
    Loc at = site.at(lit);
    auto *s = v.as<star::String>();
    if (k == "level") {
      std::string_view level = s ? s->view() : "";
      if (level == "L0" || level == "L1")
        d.level = std::string(level);
      else if (level == "L2" || level == "L3" || level == "L4" || level == "L5")
        site.fail(at, "determinism(): level=" + quote(level) +
                          " is reserved for a future release; supported levels: L0, L1");
      else
        site.fail(at, "determinism(): level= must be \"L0\" or \"L1\", got " + text(v));
    } else if (k == "runtime") {
      if (!s || (s->view() != "default" && s->view() != "gvisor"))
        site.fail(at, "determinism(): runtime= must be \"default\" or \"gvisor\", got " + text(v));
      d.runtime = std::string(s->view());
    } else if (k == "strict") {
      if (!v.as<star::Bool>())
        site.fail(at, "determinism(): strict= must be a bool, got " + typeOf(v));
      strict = v;
    } else if (k == "allow") {
      std::vector<Value> items;
      if (!listItems(v, items))
        site.fail(at, "determinism(): allow= must be a list of categories, got " + typeOf(v));
      for (size_t i = 0; i < items.size(); ++i) {
        Loc el = site.at(CallSite::element(lit, i));
        auto *c = items[i].as<star::String>();
        if (!c || !isDeterminismCategory(c->view()))
          site.fail(el, "determinism(): unknown allow category " + text(items[i]) +
                            " (categories: " + joinNames(determinismCategories()) + ")");
        d.allow.emplace_back(c->view());
      }
    } else {
      failUnknownKeyword(site, "determinism():", k, {"level", "runtime", "strict", "allow"});
    }
  }
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
