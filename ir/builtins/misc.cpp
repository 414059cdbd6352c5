// choose() and duration() at load time, and the body-time builtins' load-time
// stand-ins.
#include "frontend/lib/objects.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/duration.h"
#include "ir/quote.h"

namespace fbc::ir::builtins {

using star::Value;

// choose(options) / choose("name", options): at load time there is no leaf
// to pin an option, so it returns the first (the reference does the same;
// top-level choices never fan out). In a test body the runtime (a
// BodyRuntime) returns the running leaf's option.
Value chooseFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (!args.kwargs.empty())
    site.fail(site.at(site.keyword(args.kwargs[0].name->view())),
              "choose() takes only positional arguments");
  Value options;
  if (args.positional.size() == 1) {
    options = args.positional[0];
    if (!options.as<star::List>())
      site.fail(site.at(site.positional(0)),
                "choose(options): options must be a list, got " + typeOf(options));
  } else if (args.positional.size() == 2) {
    if (!args.positional[0].as<star::String>())
      site.fail(site.at(site.positional(0)),
                "choose(name, options): name must be a string, got " + typeOf(args.positional[0]));
    options = args.positional[1];
    if (!options.as<star::List>())
      site.fail(site.at(site.positional(1)),
                "choose(name, options): options must be a list, got " + typeOf(options));
  } else {
    site.fail("choose() takes 1 or 2 arguments (options) or (name, options); got " +
              std::to_string(args.positional.size()));
  }
  auto *list = options.as<star::List>();
  if (list->elems.empty())
    site.fail(site.at(site.positional(args.positional.size() - 1)),
              "choose(): options list must be non-empty");
  // In a test body the runtime picks the running leaf's option.
  SpecBuilder &b = SpecBuilder::of(t);
  if (b.body && b.finished)
    return b.body->callBuiltin(t, "choose", args);
  if (args.positional.size() == 2)
    b.loadChoices.emplace_back(std::string(args.positional[0].as<star::String>()->view()),
                               list->elems.front());
  return list->elems.front();
}

// duration("200ms") -> 200000000 (nanoseconds, an int).
Value durationFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  if (args.positional.size() != 1 || !args.kwargs.empty())
    site.fail("duration: got " + std::to_string(args.positional.size() + args.kwargs.size()) +
              " arguments, want 1");
  auto *s = args.positional[0].as<star::String>();
  if (!s)
    site.fail(site.at(site.positional(0)),
              "duration: for parameter 1: got " + typeOf(args.positional[0]) + ", want string");
  std::string error;
  std::optional<int64_t> d = parseDuration(s->view(), error);
  if (!d)
    site.fail(site.at(site.positional(0)),
              "duration() bad duration " + quote(s->view()) + ": " + error);
  if (!Value::fitsSmall(*d))
    site.fail(site.at(site.positional(0)),
              "duration() bad duration " + quote(s->view()) + ": out of range");
  return Value::small(*d);
}

// fault(), parallel(), assert_eq(), events(), ... run against live services;
// the runtime binds them. While the spec loads there is nothing to act on.
Value bodyOnlyFn(star::Thread &t, Value, const star::Args &args) {
  std::string name = t.top && t.top->name ? t.top->name : "this builtin";
  if (t.userData)
    if (BodyRuntime *body = SpecBuilder::of(t).body)
      return body->callBuiltin(t, name, args);
  // nondet() with no arguments is sugar for choose([True, False]); at load
  // time, like choose(), it returns the first option.
  if (name == "nondet" && args.positional.empty() && args.kwargs.empty())
    return star::trueValue();
  t.fail(name + "() can only be called inside a test body");
}

} // namespace fbc::ir::builtins
