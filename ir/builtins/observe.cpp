// Log observation at load time: observe.stdout(decoder=), observe.stderr(
// decoder=), decoder("json" | "logfmt" | "regex", pattern=), the
// service(observe=[...]) list, and the reference's removed top-level names
// (stdout, stderr, json_decoder, logfmt_decoder, regex_decoder). What the
// run does with the lines is runtime/trace/log_observe.
#include "frontend/lib/objects.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"
#include "ir/quote.h"

#include <re2/re2.h>

namespace fbc::ir::builtins {

using star::Value;

namespace {

void readDecoder(ObserveSource &src, const Arg &arg) {
  if (isNone(arg.value))
    return;
  auto *d = valueAs<DecoderValue>(arg.value);
  if (!d)
    arg.site().fail(arg.at(), "observe." + src.stream +
                                  "(): decoder= must be a decoder(\"json\" | \"logfmt\" | "
                                  "\"regex\", ...) value, got " +
                                  typeOf(arg.value));
  src.decoder = d->name;
  src.pattern = d->pattern;
}

constexpr Param<ObserveSource> kSourceParams[] = {{"decoder", readDecoder}};

void readPattern(DecoderValue &d, const Arg &arg) {
  auto *p = arg.value.as<star::String>();
  if (!p)
    arg.site().fail(arg.at(),
                    "decoder(\"regex\"): pattern= must be a string, got " + typeOf(arg.value));
  d.pattern = std::string(p->view());
}

constexpr Param<DecoderValue> kRegexParams[] = {
    {"pattern", readPattern, Required, "decoder(\"regex\", pattern=...): requires pattern= kwarg"}};

Value observeSource(star::Thread &t, const star::Args &args, const char *stream) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  std::string fn = std::string("observe.") + stream + "()";
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)), fn + " takes only keyword arguments (decoder=), got " +
                                               std::to_string(args.positional.size()) +
                                               " positional");
  auto *v = t.heap.make<ObserveSourceValue>();
  v->data.stream = stream;
  v->data.loc = site.loc();
  bindKeywords(BindCall(site, args, {fn}), kSourceParams, v->data);
  return Value::object(v);
}

// The reference's replacement for each removed name.
const char *replacementOf(std::string_view name) {
  if (name == "stdout")
    return "observe.stdout";
  if (name == "stderr")
    return "observe.stderr";
  if (name == "json_decoder")
    return "decoder(\"json\")";
  if (name == "logfmt_decoder")
    return "decoder(\"logfmt\")";
  return "decoder(\"regex\", pattern=...)";
}

} // namespace

Value observeStdoutFn(star::Thread &t, Value, const star::Args &args) {
  return observeSource(t, args, "stdout");
}

Value observeStderrFn(star::Thread &t, Value, const star::Args &args) {
  return observeSource(t, args, "stderr");
}

// decoder(name, **params), with the reference's messages.
Value decoderFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  if (args.positional.size() != 1)
    site.fail("decoder(name, ...): takes exactly one positional argument (the decoder name)");
  auto *s = args.positional[0].as<star::String>();
  if (!s)
    site.fail(site.at(site.positional(0)),
              "decoder(name, ...): name must be a string, got " + typeOf(args.positional[0]));
  std::string name(s->view());
  auto *d = t.heap.make<DecoderValue>();
  d->name = name;
  if (name == "json" || name == "logfmt") {
    if (!args.kwargs.empty())
      site.fail(site.at(site.keyword(args.kwargs[0].name->view())),
                "decoder(" + quote(name) + "): takes no kwargs");
    return Value::object(d);
  }
  if (name != "regex")
    site.fail(site.at(site.positional(0)), "decoder(" + quote(name) +
                                               "): unknown decoder; known names: \"json\", "
                                               "\"logfmt\", \"regex\"");
  bindKeywords(BindCall(site, args, {"decoder(\"regex\")"}), kRegexParams, *d);
  // The reference compiles it when the service starts; fbc at load time.
  RE2::Options opts;
  opts.set_log_errors(false);
  RE2 re(d->pattern, opts);
  if (!re.ok())
    site.fail(site.at(site.keywordValue("pattern")),
              "decoder(\"regex\"): invalid pattern: " + re.error());
  if (re.NumberOfCapturingGroups() == 0 || re.NamedCapturingGroups().empty())
    site.fail(site.at(site.keywordValue("pattern")),
              "decoder(\"regex\"): pattern has no named group ((?P<name>...)): a matching "
              "line would have no fields");
  return Value::object(d);
}

// The names the reference removed in v0.17.0; its message names the
// replacement.
Value removedObserveFn(star::Thread &t, Value, const star::Args &) {
  std::string name = t.top && t.top->name ? t.top->name : "stdout";
  t.fail(name + "() was removed in v0.17.0 — use " + replacementOf(name) +
         " instead. It was deprecated in v0.13.0 (RFC-044) and warned on every run since");
}

void parseObserve(const CallSite &site, Service &svc, Value v) {
  const syntax::Expr *lit = site.keywordValue("observe");
  std::vector<Value> items;
  if (!listItems(v, items))
    site.fail(site.at(lit), "service() observe must be a list, got " + typeOf(v));
  for (size_t i = 0; i < items.size(); ++i) {
    Loc at = site.at(CallSite::element(lit, i));
    auto *src = valueAs<ObserveSourceValue>(items[i]);
    if (!src)
      site.fail(at, "service() observe items must be observe.stdout()/observe.stderr(), got " +
                        typeOf(items[i]));
    for (const ObserveSource &o : svc.observe)
      if (o.stream == src->data.stream)
        site.fail(at, "service(" + quote(svc.name) + "): observe= lists " + src->data.stream +
                          " twice (one decoder per stream)");
    svc.observe.push_back(src->data);
  }
}

} // namespace fbc::ir::builtins
