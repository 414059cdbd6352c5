// The HTML report's data: what the page shows, derived from the bundle's
// entries once, here, so the page script only lays it out (docs/report.md,
// "Data"). The derivations that matter:
//   - each tests-table row is a manifest row, paired with ITS trace.json
//     entry by (name, leaf_id) in order (the reference paired by name, so
//     every leaf row opened the last leaf's trace); a legacy trace without
//     leaf fields falls back to the k-th entry of that name;
//   - a row's display name and a trace's are built by the same formatter
//     (ir::leafDisplayName / ir::leafLabel), the trace's from its own leaf
//     fields, so the page can show which leaf a trace belongs to;
//   - a matrix cell points at the row whose trace entry has its scenario and
//     fault (not at a name guessed from a naming convention);
//   - the plan tree's axis lines are `fbc plan`'s own words
//     (backend::planAxisText);
//   - spec files and service logs go in as they are (the JSON writer turns
//     invalid UTF-8 into U+FFFD);
//   - traceback frames ("spec.star:26:9: in test_x") point at a spec file of
//     the snapshot and a line.
#include "backend/plan_emit.h"
#include "bundle/manifest.h"
#include "bundle/plan_reader.h"
#include "bundle/report_html.h"
#include "ir/json_writer.h"
#include "ir/leaf_program.h"
#include "runtime/trace/event_schema.h"

#include <simdjson.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <set>

namespace fbc::bundle {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", msg.c_str());
}

std::string str(element e, const char *key) {
  std::string_view v;
  if (e.type() == element_type::OBJECT && !e[key].get(v))
    return std::string(v);
  return "";
}

// A parsed JSON entry of the bundle; the parser owns the elements.
struct Doc {
  simdjson::dom::parser parser;
  element root;
  bool present = false;
};

llvm::Error parseEntry(const Contents &c, const char *name, Doc &doc) {
  const Entry *e = c.find(name);
  if (!e)
    return llvm::Error::success();
  simdjson::padded_string padded(e->data);
  // simdjson's elements point into the parser's buffers: keep the document.
  auto err = doc.parser.parse(padded).get(doc.root);
  if (err)
    return fail(std::string(name) + ": not valid JSON (" + simdjson::error_message(err) + ")");
  if (doc.root.type() != element_type::OBJECT)
    return fail(std::string(name) + ": not a JSON object");
  doc.present = true;
  return llvm::Error::success();
}

// Copies a JSON value through, members in their order.
void copyValue(ir::JsonWriter &w, element e) {
  switch (e.type()) {
  case element_type::OBJECT:
    w.beginObject();
    for (auto kv : object(e)) {
      w.key(kv.key);
      copyValue(w, kv.value);
    }
    w.endObject();
    break;
  case element_type::ARRAY:
    w.beginArray();
    for (element x : array(e))
      copyValue(w, x);
    w.endArray();
    break;
  case element_type::STRING:
    w.value(std::string_view(e));
    break;
  case element_type::INT64:
    w.value(int64_t(e));
    break;
  case element_type::UINT64:
    w.value(uint64_t(e));
    break;
  case element_type::DOUBLE:
    w.value(double(e));
    break;
  case element_type::BOOL:
    w.value(bool(e));
    break;
  case element_type::NULL_VALUE:
    w.null();
    break;
  }
}

// A JSON scalar as display text (env.json values, numbers in strings).
std::string scalarText(element e) {
  switch (e.type()) {
  case element_type::STRING:
    return std::string(std::string_view(e));
  case element_type::INT64:
    return std::to_string(int64_t(e));
  case element_type::UINT64:
    return std::to_string(uint64_t(e));
  case element_type::BOOL:
    return bool(e) ? "true" : "false";
  case element_type::NULL_VALUE:
    return "null";
  default: {
    std::string out;
    ir::JsonWriter w(out);
    copyValue(w, e);
    return out;
  }
  }
}

// The leaf fields of a trace.json entry, as the run writes them.
std::optional<std::string> traceDisplayName(element t) {
  std::string id = str(t, "leaf_id");
  std::string name = str(t, "name");
  element m;
  if (id.empty())
    return std::nullopt;
  ir::LeafFields f;
  if (!t["leaf_choices"].get(m) && m.type() == element_type::OBJECT)
    for (auto kv : object(m))
      if (uint64_t v; !kv.value.get(v))
        f.choices.emplace(std::string(kv.key), v);
  if (!t["leaf_choice_values"].get(m) && m.type() == element_type::OBJECT)
    for (auto kv : object(m))
      if (std::string_view v; !kv.value.get(v))
        f.choiceValues.emplace(std::string(kv.key), std::string(v));
  if (!t["leaf_probability_outcomes"].get(m) && m.type() == element_type::OBJECT)
    for (auto kv : object(m)) {
      std::vector<bool> bits;
      if (kv.value.type() == element_type::ARRAY)
        for (element b : array(kv.value))
          bits.push_back(b.type() == element_type::BOOL && bool(b));
      f.probability.emplace(std::string(kv.key), std::move(bits));
    }
  if (!t["leaf_interleavings"].get(m) && m.type() == element_type::OBJECT)
    for (auto kv : object(m))
      if (uint64_t v; !kv.value.get(v))
        f.interleavings.emplace(std::string(kv.key), v);
  if (std::string_view v; !t["leaf_schedule"].get(v))
    f.schedule = std::string(v);
  return ir::leafDisplayName(name, id, ir::leafLabel(f));
}

// ------------------------------------------------------------ spec files

struct SpecFile {
  std::string path; // without "spec/"
  const Entry *entry;
};

std::string basenameOf(const std::string &p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

// Which snapshot file a traceback's path names: the root spec (the path
// `fbc run` was given), the same relative path, a path ending in it, or the
// only file with that base name; -1 when none does.
int specIndexFor(const std::string &path, const std::vector<SpecFile> &specs, const Manifest &m) {
  if (!m.specEntry.empty() && (path == m.specRoot || basenameOf(path) == basenameOf(m.specRoot)))
    for (size_t i = 0; i < specs.size(); ++i)
      if ("spec/" + specs[i].path == m.specEntry)
        return int(i);
  for (size_t i = 0; i < specs.size(); ++i)
    if (path == specs[i].path ||
        (path.size() > specs[i].path.size() && path.ends_with("/" + specs[i].path)))
      return int(i);
  int found = -1;
  for (size_t i = 0; i < specs.size(); ++i)
    if (basenameOf(specs[i].path) == basenameOf(path)) {
      if (found >= 0)
        return -1;
      found = int(i);
    }
  return found;
}

// "spec.star:26:9: in test_x" -> {file index, line}; {-1, 0} for
// "<builtin>: in fault" and anything else.
std::pair<int, uint64_t> frameTarget(const std::string &frame, const std::vector<SpecFile> &specs,
                                     const Manifest &m) {
  size_t end = frame.find(": ");
  if (end == std::string::npos)
    return {-1, 0};
  std::string loc = frame.substr(0, end); // path:line:col
  size_t c2 = loc.rfind(':');
  if (c2 == std::string::npos || c2 == 0)
    return {-1, 0};
  size_t c1 = loc.rfind(':', c2 - 1);
  if (c1 == std::string::npos)
    return {-1, 0};
  std::string line = loc.substr(c1 + 1, c2 - c1 - 1);
  if (line.empty() || line.size() > 9 || line.find_first_not_of("0123456789") != std::string::npos)
    return {-1, 0};
  int idx = specIndexFor(loc.substr(0, c1), specs, m);
  return {idx, idx < 0 ? 0 : std::stoull(line)};
}

// A service log as `fbc run` writes it: each test's output under a line
// "==> <display name> <==". Returns (display name, text) sections in order;
// text before the first header (or a log without headers, a legacy one) is
// a section of test "". Only a header naming a row of the manifest counts,
// so a service printing such a line itself does not split its output.
std::vector<std::pair<std::string, std::string>>
logSections(std::string_view log, const std::set<std::string> &displays) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t pos = 0; pos < log.size();) {
    size_t nl = log.find('\n', pos);
    size_t end = nl == std::string_view::npos ? log.size() : nl + 1;
    std::string_view line = log.substr(pos, end - pos);
    std::string_view body = line.ends_with('\n') ? line.substr(0, line.size() - 1) : line;
    if (body.starts_with("==> ") && body.ends_with(" <==") && body.size() >= 8 &&
        displays.count(std::string(body.substr(4, body.size() - 8)))) {
      out.push_back({std::string(body.substr(4, body.size() - 8)), ""});
    } else {
      if (out.empty())
        out.push_back({"", ""});
      out.back().second.append(line);
    }
    pos = end;
  }
  return out;
}

// "kinds": how the page shows each event of trace entry `t`, in order
// (rt::reportKind: the event schema's classes, a syscall's deny or delay);
// "failed": the indices of the step replies that failed (not a success, an
// error, or a 5xx status). The page only lays these out.
// An event's "fields" object (the event itself when it has none: str() of
// a missing key is "").
element fieldsOf(element e) {
  element f;
  return e.type() == element_type::OBJECT && !e["fields"].get(f) ? f : e;
}

void writeEventKinds(ir::JsonWriter &w, element t) {
  element events;
  bool any = !t["events"].get(events) && events.type() == element_type::ARRAY;
  w.key("kinds").beginArray();
  if (any)
    for (element e : array(events))
      w.value(rt::reportKind(str(e, "type"), str(fieldsOf(e), "decision")));
  w.endArray();
  w.key("failed").beginArray();
  int64_t i = 0;
  if (any)
    for (element e : array(events)) {
      element f = fieldsOf(e);
      if (rt::reportKind(str(e, "type"), "") == "step" &&
          (str(f, "success") == "false" || !str(f, "error").empty() ||
           std::atoll(str(f, "status_code").c_str()) >= 500))
        w.value(i);
      ++i;
    }
  w.endArray();
}

// ------------------------------------------------------------ plan

// ir::PlanAxis from a plan.json axis, for backend::planAxisText.
ir::PlanAxis planAxis(const std::string &kind, const PlanJsonAxis &a) {
  ir::PlanAxis ax;
  ax.kind = kind == "probability"    ? ir::AxisKind::Probability
            : kind == "interleaving" ? ir::AxisKind::Interleaving
                                     : ir::AxisKind::Choose;
  ax.name = a.name;
  ax.values = a.values;
  ax.size = a.size;
  if (a.maxFires)
    ax.maxFires = *a.maxFires;
  ax.fault = a.fault;
  if (a.branches)
    ax.branches = *a.branches;
  ax.policy = a.policy;
  // The JSON says only "estimated"; a probability axis whose max_fires is
  // known but whose size is not is one too large for 64 bits.
  if (!ax.size && ax.kind == ir::AxisKind::Probability && ax.maxFires)
    ax.unknown = ir::UnknownReason::TooLarge;
  return ax;
}

void strings(ir::JsonWriter &w, const char *key, const std::vector<std::string> &values) {
  w.key(key).beginArray();
  for (const std::string &v : values)
    w.value(v);
  w.endArray();
}

void stringArray(ir::JsonWriter &w, element parent, const char *key) {
  element v;
  w.key(key).beginArray();
  if (!parent[key].get(v) && v.type() == element_type::ARRAY)
    for (element x : array(v))
      w.value(scalarText(x));
  w.endArray();
}

// parent[key] as a T, or `def` when absent or of another type.
template <typename T> T num(element parent, const char *key, T def) {
  T v;
  if (parent.type() != element_type::OBJECT || parent[key].get(v))
    return def;
  return v;
}

bool flag(element parent, const char *key) {
  bool b = false;
  return !parent[key].get(b) && b;
}

// One composition's lines as `fbc plan` prints them.
void writeCompositionLines(ir::JsonWriter &w, const PlanJsonComposition &c) {
  w.key("lines").beginArray();
  for (const PlanJsonAxis &a : c.axes) {
    if (c.kind != "fault_matrix") {
      w.value(backend::planAxisText(planAxis(c.kind, a)));
      continue;
    }
    std::string line = a.name + ": [";
    for (size_t k = 0; k < a.values.size(); ++k)
      line += (k ? ", " : "") + a.values[k];
    w.value(line + "]");
  }
  w.endArray();
}

void writePlanTest(ir::JsonWriter &w, const PlanJsonTest &t) {
  w.beginObject();
  w.field("name", t.name);
  w.field("kind", t.kind);
  w.field("instances", backend::planInstancesText(ir::Count{t.instances, !t.estimated}));
  w.key("compositions").beginArray();
  for (const PlanJsonComposition &c : t.compositions) {
    w.beginObject();
    w.field("kind", c.kind);
    writeCompositionLines(w, c);
    w.endObject();
  }
  w.endArray();
  strings(w, "faults", t.faults);
  strings(w, "matrix_cells", t.matrixCells);
  w.field("expect", t.expect == "(mixed)" ? "(mixed \u2014 per-cell overrides)" : t.expect);
  w.field("timeout", t.timeout);
  w.endObject();
}

void writeCoverage(ir::JsonWriter &w, const std::optional<PlanJsonCoverage> &cov) {
  if (!cov) {
    w.key("coverage").null();
    return;
  }
  w.key("coverage").beginObject();
  w.key("edges").beginArray();
  for (const PlanJsonEdge &e : cov->edges) {
    w.beginObject();
    w.field("from", e.from);
    w.field("to", e.to);
    w.field("protocol", e.protocol);
    w.field("via", e.via);
    strings(w, "fault_tests", e.faultTests);
    strings(w, "body_fault_tests", e.bodyFaultTests);
    w.field("covered", !e.faultTests.empty() || !e.bodyFaultTests.empty());
    w.endObject();
  }
  w.endArray();
  w.field("uncovered", cov->uncoveredEdges);
  strings(w, "covered_protocols", cov->coveredProtocols);
  strings(w, "uncovered_protocols", cov->uncoveredProtocols);
  w.endObject();
}

void writePlan(ir::JsonWriter &w, const std::optional<PlanJson> &plan) {
  if (!plan) {
    w.null();
    return;
  }
  const PlanJson &p = *plan;
  w.beginObject();
  w.field("spec_path", p.specPath);
  std::string det;
  if (p.determinism) {
    det = p.determinism->level;
    if (p.determinism->strict)
      det += " (strict)";
    if (!p.determinism->isExplicit)
      det += " \u2014 default; spec did not call determinism()";
  }
  w.field("determinism", det);
  ir::Count total{p.totalInstances, !p.totalEstimated};
  w.field("total", "Total: " + total.str() + " plan instance" + (total.value == 1 ? "" : "s"));
  w.field("estimated", !total.exact);
  strings(w, "services", p.services);
  w.key("tests").beginArray();
  for (const PlanJsonTest &t : p.tests)
    writePlanTest(w, t);
  w.endArray();
  writeCoverage(w, p.coverage);
  w.key("diagnostics").beginArray();
  for (const PlanJsonDiagnostic &d : p.diagnostics) {
    w.beginObject();
    w.field("severity", d.severity);
    w.field("code", d.code);
    w.field("message", d.message);
    w.field("location", d.location);
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

} // namespace

llvm::Expected<std::string> reportData(const Contents &c, const std::string &bundleName) {
  const Entry *me = c.find("manifest.json");
  if (!me)
    return fail("bundle has no manifest.json (not a .fb bundle?)");
  llvm::Expected<Manifest> parsed = parseManifest(me->data);
  if (!parsed)
    return parsed.takeError();
  const Manifest &m = *parsed;
  Doc trace, plan, env;
  if (auto err = parseEntry(c, "trace.json", trace))
    return err;
  if (auto err = parseEntry(c, "plan.json", plan))
    return err;
  std::optional<PlanJson> planJson;
  if (plan.present) {
    llvm::Expected<PlanJson> read = readPlanJson(plan.root);
    if (!read)
      return fail("plan.json: " + llvm::toString(read.takeError()));
    planJson = std::move(*read);
  }
  if (auto err = parseEntry(c, "env.json", env))
    return err;

  std::vector<SpecFile> specs;
  std::map<std::string, std::pair<const Entry *, const Entry *>> logs; // service -> out, err
  for (const Entry &e : c.entries) {
    if (e.name.starts_with("spec/"))
      specs.push_back({e.name.substr(5), &e});
    if (e.name.starts_with("services/")) {
      std::string rest = e.name.substr(9);
      if (rest.ends_with(".stdout"))
        logs[rest.substr(0, rest.size() - 7)].first = &e;
      else if (rest.ends_with(".stderr"))
        logs[rest.substr(0, rest.size() - 7)].second = &e;
    }
  }

  // trace.json's tests, and the manifest row each belongs to.
  std::vector<element> traces;
  element ttests;
  if (trace.present && !trace.root["tests"].get(ttests) && ttests.type() == element_type::ARRAY)
    for (element t : array(ttests))
      if (t.type() == element_type::OBJECT)
        traces.push_back(t);
  std::vector<int> rowTrace(m.tests.size(), -1);
  std::vector<bool> taken(traces.size(), false);
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> byKey;
  for (size_t i = 0; i < traces.size(); ++i)
    byKey[{str(traces[i], "name"), str(traces[i], "leaf_id")}].push_back(i);
  std::map<std::pair<std::string, std::string>, size_t> used;
  for (size_t r = 0; r < m.tests.size(); ++r) {
    std::pair<std::string, std::string> key{m.tests[r].name, m.tests[r].leafId.value_or("")};
    auto it = byKey.find(key);
    size_t &k = used[key];
    if (it != byKey.end() && k < it->second.size()) {
      rowTrace[r] = int(it->second[k++]);
      taken[size_t(rowTrace[r])] = true;
    }
  }
  // A legacy trace has no leaf fields: the k-th untaken entry of the name.
  for (size_t r = 0; r < m.tests.size(); ++r)
    if (rowTrace[r] < 0)
      for (size_t i = 0; i < traces.size(); ++i)
        if (!taken[i] && str(traces[i], "name") == m.tests[r].name) {
          rowTrace[r] = int(i);
          taken[i] = true;
          break;
        }

  std::string out;
  ir::JsonWriter w(out);
  w.beginObject();

  w.key("run").beginObject();
  w.field("bundle", bundleName);
  w.field("producer", m.producer);
  w.field("version", m.version);
  w.field("run_id", m.runId);
  w.field("created_at", m.createdAt);
  w.field("seed", std::to_string(m.seed)); // a string: JS numbers stop at 2^53
  w.field("spec_root", m.specRoot);
  w.field("interrupted", m.interrupted);
  w.field("legacy", c.legacy);
  w.endObject();

  // The header's counts, as parseManifest() tallies them from the rows.
  writeSummary(w, m.summary);

  w.key("env").beginArray();
  if (env.present)
    for (auto kv : object(env.root)) {
      w.beginArray();
      w.value(kv.key);
      w.value(scalarText(kv.value));
      w.endArray();
    }
  w.endArray();

  w.key("rows").beginArray();
  for (size_t r = 0; r < m.tests.size(); ++r) {
    const TestRow &t = m.tests[r];
    w.beginObject();
    w.field("display", t.displayName());
    w.field("name", t.name);
    if (t.leafId)
      w.field("leaf_id", *t.leafId);
    w.field("outcome", t.outcome);
    w.field("duration_ms", t.durationMs);
    w.field("expectation", t.expectation);
    w.field("reason", t.reason);
    w.field("trace", int64_t(rowTrace[r]));
    w.endObject();
  }
  w.endArray();

  w.key("traces").beginArray();
  for (element t : traces) {
    w.beginObject();
    w.field("display", traceDisplayName(t).value_or(str(t, "name")));
    w.key("frames").beginArray();
    element tb;
    if (!t["traceback"].get(tb) && tb.type() == element_type::ARRAY)
      for (element f : array(tb)) {
        std::string text = scalarText(f);
        auto [idx, line] = frameTarget(text, specs, m);
        w.beginObject();
        w.field("text", text);
        w.field("spec", int64_t(idx));
        w.field("line", line);
        w.endObject();
      }
    w.endArray();
    writeEventKinds(w, t);
    w.key("entry");
    copyValue(w, t);
    w.endObject();
  }
  w.endArray();

  element mx;
  if (trace.present && !trace.root["matrix"].get(mx) && mx.type() == element_type::OBJECT) {
    w.key("matrix").beginObject();
    stringArray(w, mx, "scenarios");
    stringArray(w, mx, "faults");
    w.key("cells").beginArray();
    element cells;
    if (!mx["cells"].get(cells) && cells.type() == element_type::ARRAY)
      for (element cell : array(cells)) {
        std::string sc = str(cell, "scenario"), fa = str(cell, "fault");
        // The row whose trace entry is this cell's run.
        int64_t row = -1;
        for (size_t r = 0; r < m.tests.size() && row < 0; ++r)
          if (rowTrace[r] >= 0 && str(traces[size_t(rowTrace[r])], "scenario") == sc &&
              str(traces[size_t(rowTrace[r])], "fault") == fa)
            row = int64_t(r);
        // A legacy trace entry has no scenario/fault: its cell's name.
        for (size_t r = 0; r < m.tests.size() && row < 0; ++r)
          if (m.tests[r].name == "test_matrix_" + sc + "_" + fa)
            row = int64_t(r);
        w.beginObject();
        w.field("scenario", sc);
        w.field("fault", fa);
        std::string outcome = str(cell, "outcome");
        if (outcome.empty())
          outcome = flag(cell, "passed") ? "passed" : "failed";
        w.field("outcome", outcome);
        w.field("expectation", str(cell, "expectation"));
        w.field("duration_ms", num<int64_t>(cell, "duration_ms", 0));
        w.field("row", row);
        w.endObject();
      }
    w.endArray();
    w.endObject();
  } else {
    w.key("matrix").null();
  }

  w.key("plan");
  writePlan(w, planJson);

  w.key("specs").beginArray();
  for (const SpecFile &s : specs) {
    w.beginObject();
    w.field("path", s.path);
    w.field("text", s.entry->data);
    w.endObject();
  }
  w.endArray();

  std::set<std::string> displays;
  for (const TestRow &t : m.tests)
    displays.insert(t.displayName());
  w.key("services").beginArray();
  for (const auto &[name, pair] : logs) {
    w.beginObject();
    w.field("name", name);
    for (auto [key, entry] : {std::pair{"stdout", pair.first}, std::pair{"stderr", pair.second}}) {
      w.key(key).beginArray();
      for (const auto &[test, text] : logSections(entry ? entry->data : "", displays)) {
        w.beginArray();
        w.value(test);
        w.value(text);
        w.endArray();
      }
      w.endArray();
    }
    w.endObject();
  }
  w.endArray();

  w.endObject();
  return out;
}

} // namespace fbc::bundle
