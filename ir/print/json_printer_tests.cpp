// The JSON form of ir::Spec, second half: fault assumptions, matrices and
// their cells, tests, and what they check (monitors, assume, temporal
// properties, expectations).
#include "ir/print/json_printer_impl.h"

namespace fbc::ir::json_detail {

void JsonPrinter::matcher(const Matcher &m) {
  w_.beginObject();
  w_.field("display", m.display());
  loc("loc", m.loc);
  w_.endObject();
}

void JsonPrinter::monitor(const Monitor &m) {
  w_.beginObject();
  w_.field("name", m.name);
  loc("loc", m.loc);
  w_.key("on");
  matcher(m.on);
  w_.field("state_init", m.stateInitText);
  for (auto [k, f] : {std::pair<const char *, const FunctionRef *>{"update", m.update.get()},
                      {"check", m.check.get()}}) {
    w_.key(k);
    if (f)
      function(*f);
    else
      w_.null();
  }
  w_.field("scope", m.claimed ? "claimed" : "spec");
  w_.endObject();
}

void JsonPrinter::assume(const Assume &a) {
  w_.beginObject(/*inlined=*/true);
  w_.field("name", a.name);
  if (a.constant)
    w_.field("constant", a.value);
  loc("loc", a.loc);
  w_.endObject();
}

void JsonPrinter::temporal(std::string_view key, const std::shared_ptr<const Temporal> &x) {
  w_.key(key);
  if (!x) {
    w_.null();
    return;
  }
  w_.beginObject();
  w_.field("kind", temporalKindName(x->kind));
  w_.field("name", x->name());
  w_.field("display", x->display());
  w_.key("predicate");
  function(x->pred);
  loc("loc", x->loc);
  w_.endObject();
}

void JsonPrinter::expect(std::string_view key, const std::shared_ptr<const Expect> &e) {
  expect(key, e.get());
}

void JsonPrinter::expect(std::string_view key, const Expect *e) {
  w_.key(key);
  if (!e) {
    w_.null();
    return;
  }
  static const char *kinds[] = {"function", "success", "error_within", "hang"};
  w_.beginObject();
  w_.field("kind", kinds[static_cast<int>(e->kind)]);
  w_.field("name", e->name);
  if (e->kind == ExpectKind::ErrorWithin)
    w_.field("within_ms", e->withinMs);
  else
    w_.nullField("within_ms");
  loc("loc", e->kind == ExpectKind::Function ? e->fn.loc : e->loc);
  w_.endObject();
}

void JsonPrinter::cellFields(const MatrixCell &c) {
  w_.field("scenario", c.scenario);
  w_.field("fault", c.fault);
}

void JsonPrinter::fault(const Fault &f) {
  w_.field("action", faultActionName(f.action));
  optionalString("errno", f.errnoName);
  duration("delay",
           f.action == FaultAction::Delay ? std::optional<int64_t>(f.delayNs) : std::nullopt);
  w_.field("probability", f.probability);
  if (f.maxFires > 0)
    w_.field("max_fires", f.maxFires);
  else
    w_.nullField("max_fires");
  if (f.mode == FaultMode::None)
    w_.nullField("mode");
  else
    w_.field("mode", faultModeName(f.mode));
  optionalString("label", f.label);
  optionalString("path", f.path);
  loc("fault_loc", f.loc);
}

void JsonPrinter::assumption(const FaultAssumption &a) {
  w_.beginObject();
  w_.field("name", a.name);
  loc("loc", a.loc);
  w_.key("target");
  if (a.target.valid()) {
    w_.beginObject();
    w_.field("service", a.target.service);
    optionalString("interface", a.target.interface);
    w_.endObject();
  } else {
    w_.null();
  }
  optionalString("description", a.description);
  w_.key("rules");
  w_.beginArray();
  for (const FaultRule &r : a.rules) {
    w_.beginObject();
    w_.field("keyword", r.keyword);
    optionalString("op", r.op);
    strings("syscalls", r.syscalls);
    fault(r.fault);
    loc("loc", r.loc);
    w_.endObject();
  }
  w_.endArray();
  if (!a.proxyRules.empty()) {
    w_.key("proxy_rules");
    w_.beginArray();
    for (const ProxyRule &r : a.proxyRules) {
      w_.beginObject();
      w_.field("action", proxyActionName(r.action));
      w_.field("rule", r.display());
      loc("loc", r.loc);
      w_.endObject();
    }
    w_.endArray();
  }
  if (!a.packetRules.empty()) {
    w_.key("packet_rules");
    w_.beginArray();
    for (const PacketRule &r : a.packetRules) {
      w_.beginObject();
      w_.field("builtin", r.builtin);
      w_.field("rule", r.display());
      loc("loc", r.loc);
      w_.endObject();
    }
    w_.endArray();
  }
  strings("faults", a.faults);
  if (!a.monitors.empty())
    indices("monitors", a.monitors);
  w_.endObject();
}

void JsonPrinter::matrix(const Matrix &m) {
  w_.beginObject();
  w_.field("index", int64_t(m.index));
  loc("loc", m.loc);
  w_.key("scenarios");
  w_.beginArray();
  for (const FunctionRef &f : m.scenarios)
    function(f);
  w_.endArray();
  strings("faults", m.faults);
  expect("default_expect", m.defaultExpect);
  w_.key("overrides");
  w_.beginArray();
  for (const MatrixOverride &o : m.overrides) {
    w_.beginObject();
    cellFields(o.cell);
    expect("expect", o.expect);
    loc("loc", o.cell.loc);
    w_.endObject();
  }
  w_.endArray();
  w_.key("exclude");
  w_.beginArray();
  for (const MatrixCell &c : m.exclude) {
    w_.beginObject();
    cellFields(c);
    loc("loc", c.loc);
    w_.endObject();
  }
  w_.endArray();
  w_.field("require_faults_fire", m.requireFaultsFire);
  if (!m.monitors.empty())
    indices("monitors", m.monitors);
  w_.endObject();
}

void JsonPrinter::test(const Test &t) {
  w_.beginObject();
  w_.field("name", t.name);
  w_.field("kind", testKindName(t.kind));
  loc("loc", t.loc);
  w_.key("body");
  function(t.body);
  w_.key("setup");
  if (t.setup)
    function(*t.setup);
  else
    w_.null();
  strings("faults", t.faults);
  expect("expect", t.expect);
  duration("timeout", t.timeoutNs);
  if (t.matrix) {
    w_.field("matrix", int64_t(*t.matrix));
    w_.key("cell");
    w_.beginObject(/*inlined=*/true);
    cellFields(t.cell());
    w_.endObject();
  } else {
    w_.nullField("matrix");
    w_.nullField("cell");
  }
  w_.field("require_faults_fire", t.requireFaultsFire);
  if (const TestTemporal *x = t.temporal.get()) { // left out when none
    w_.key("temporal");
    w_.beginObject();
    indices("monitors", x->monitors);
    temporal("expect", x->expect);
    temporal("terminate_when", x->terminateWhen);
    w_.key("assume");
    w_.beginArray();
    for (const Assume &a : x->assumes)
      assume(a);
    w_.endArray();
    w_.endObject();
  }
  w_.endObject();
}

} // namespace fbc::ir::json_detail
