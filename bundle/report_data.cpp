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
#include "bundle/manifest.h"
#include "bundle/plan_reader.h"
#include "bundle/report_bounds.h"
#include "bundle/report_cause.h"
#include "bundle/report_html.h"

#include "bundle/report_plan.h"
#include "bundle/report_schedule.h"
#include "bundle/report_specs.h"
#include "ir/diagnostic_codes.h"
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

std::string_view view(element e, const char *key) {
  return stringAt(e, key);
}

std::string str(element e, const char *key) {
  return std::string(view(e, key));
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

// A JSON scalar as display text (env.json values, numbers in strings),
// clipped; an array or object as its (bounded) JSON.
std::string scalarText(ReportBudget &b, element e) {
  switch (e.type()) {
  case element_type::STRING:
    return b.clip(std::string_view(e));
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
    b.copy(w, e);
    return b.clip(out);
  }
  }
}

// "<key> elements not shown (the page shows the first N)".
std::string listWhat(const char *key, size_t max) {
  return std::string(key) + " elements not shown (the page shows the first " + std::to_string(max) +
         ")";
}

std::string leafFieldsWhat(const ReportLimits &l) {
  return "leaf fields not shown in labels (a label shows the first " +
         std::to_string(l.maxLeafFields) + " of each kind)";
}

// The leaf fields of a trace.json entry, as the run writes them; each map
// keeps its first maxLeafFields members (the label is cut, and says so).
std::optional<std::string> traceDisplayName(ReportBudget &b, element t) {
  std::string id = str(t, "leaf_id");
  std::string name = str(t, "name");
  if (id.empty())
    return std::nullopt;
  size_t max = b.limits().maxLeafFields;
  uint64_t dropped = 0;
  // Calls `add(key, value)` for the first `max` members of t[key].
  auto members = [&](const char *key, auto add) {
    element m;
    if (t[key].get(m) || m.type() != element_type::OBJECT)
      return;
    size_t n = 0;
    for (auto kv : object(m))
      if (n++ < max)
        add(std::string(kv.key), kv.value);
      else
        ++dropped;
  };
  ir::LeafFields f;
  members("leaf_choices", [&](std::string k, element v) {
    if (uint64_t x; !v.get(x))
      f.choices.emplace(std::move(k), x);
  });
  members("leaf_choice_values", [&](std::string k, element v) {
    if (std::string_view x; !v.get(x))
      f.choiceValues.emplace(std::move(k), std::string(x));
  });
  members("leaf_probability_outcomes", [&](std::string k, element v) {
    std::vector<bool> bits;
    if (v.type() == element_type::ARRAY)
      for (element bit : array(v))
        if (bits.size() < 64) // max_fires is at most 63: no more bits mean anything
          bits.push_back(bit.type() == element_type::BOOL && bool(bit));
    f.probability.emplace(std::move(k), std::move(bits));
  });
  members("leaf_interleavings", [&](std::string k, element v) {
    if (uint64_t x; !v.get(x))
      f.interleavings.emplace(std::move(k), x);
  });
  if (std::string_view v; !t["leaf_schedule"].get(v))
    f.schedule = std::string(v);
  b.cut(leafFieldsWhat(b.limits()), dropped);
  return ir::leafDisplayName(name, id, ir::leafLabel(f));
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

// ------------------------------------------------------------ JSON helpers

bool flag(element parent, const char *key) {
  bool b = false;
  return !parent[key].get(b) && b;
}

// The array parent[key] as display strings, bounded.
void stringArray(ReportBudget &b, ir::JsonWriter &w, element parent, const char *key) {
  element v;
  w.key(key).beginArray();
  if (parent.type() == element_type::OBJECT && !parent[key].get(v) &&
      v.type() == element_type::ARRAY)
    b.each(array(v), b.limits().maxItems, listWhat(key, b.limits().maxItems),
           [&](element x) { w.value(scalarText(b, x)); });
  w.endArray();
}

// parent[key] as a T, or `def` when absent or of another type.
template <typename T> T num(element parent, const char *key, T def) {
  T v;
  if (parent.type() != element_type::OBJECT || parent[key].get(v))
    return def;
  return v;
}

// The array parent[key], each element through `f`, bounded; nothing when
// it is not an array.
template <typename F>
void eachOf(ReportBudget &b, element parent, const char *key, size_t max, F f) {
  element v;
  if (parent.type() == element_type::OBJECT && !parent[key].get(v) &&
      v.type() == element_type::ARRAY)
    b.each(array(v), max, listWhat(key, max), f);
}

// "kinds": how the page shows each event of trace entry `t` the page keeps
// (its first maxItems, as ReportBudget::copy keeps them), in order
// (rt::reportKind: the event schema's classes, a syscall's deny or delay);
// "failed": the indices of the step replies that failed (not a success, an
// error, or a 5xx status). The page only lays these out.
void writeEventKinds(ReportBudget &b, ir::JsonWriter &w, element t) {
  std::vector<element> events = keptEvents(b.limits(), t);
  w.key("kinds").beginArray();
  for (element e : events)
    w.value(rt::reportKind(str(e, "type"), str(eventFields(e), "decision")));
  w.endArray();
  w.key("failed").beginArray();
  for (size_t i = 0; i < events.size(); ++i) {
    element f = eventFields(events[i]);
    if (rt::reportKind(str(events[i], "type"), "") == "step" &&
        (str(f, "success") == "false" || !str(f, "error").empty() ||
         std::atoll(str(f, "status_code").c_str()) >= 500))
      w.value(int64_t(i));
  }
  w.endArray();
}

} // namespace

namespace {

// trace.json's entries (the first maxRows objects of its "tests") and the
// manifest row each belongs to: by (name, leaf_id) in order, and a row left
// without one (a legacy trace has no leaf fields) takes the first untaken
// entry of its name.
struct TracePairing {
  std::vector<element> traces;
  std::vector<int> rowTrace; // per kept row: an index into traces, or -1
  std::vector<bool> taken;   // per trace: some row pairs with it
};

TracePairing pairTraces(ReportBudget &b, const Doc &trace, const Manifest &m) {
  TracePairing p;
  element ttests;
  if (trace.present && !trace.root["tests"].get(ttests) && ttests.type() == element_type::ARRAY) {
    size_t total = 0;
    for (element t : array(ttests))
      if (t.type() == element_type::OBJECT && total++ < b.limits().maxRows)
        p.traces.push_back(t);
    b.cut("trace.json entries not read (the page reads the first " +
              std::to_string(b.limits().maxRows) + ")",
          total - p.traces.size());
  }
  p.rowTrace.assign(m.tests.size(), -1);
  p.taken.assign(p.traces.size(), false);
  std::map<std::pair<std::string_view, std::string_view>, std::vector<size_t>> byKey;
  std::map<std::string_view, std::vector<size_t>> byName;
  for (size_t i = 0; i < p.traces.size(); ++i) {
    byKey[{view(p.traces[i], "name"), view(p.traces[i], "leaf_id")}].push_back(i);
    byName[view(p.traces[i], "name")].push_back(i);
  }
  std::map<std::pair<std::string_view, std::string_view>, size_t> used;
  for (size_t r = 0; r < m.tests.size(); ++r) {
    const TestRow &row = m.tests[r];
    std::pair<std::string_view, std::string_view> key{
        row.name, row.leafId ? std::string_view(*row.leafId) : std::string_view()};
    auto it = byKey.find(key);
    size_t &k = used[key];
    if (it != byKey.end() && k < it->second.size()) {
      p.rowTrace[r] = int(it->second[k++]);
      p.taken[size_t(p.rowTrace[r])] = true;
    }
  }
  std::map<std::string_view, size_t> cursor; // per name: its entries before it are taken
  for (size_t r = 0; r < m.tests.size(); ++r) {
    auto it = byName.find(m.tests[r].name);
    if (p.rowTrace[r] >= 0 || it == byName.end())
      continue;
    size_t &k = cursor[it->first];
    while (k < it->second.size() && p.taken[it->second[k]])
      ++k;
    if (k < it->second.size()) {
      p.rowTrace[r] = int(it->second[k]);
      p.taken[it->second[k]] = true;
    }
  }
  return p;
}

void writeRun(ReportBudget &b, ir::JsonWriter &w, const Manifest &m, const Contents &c,
              const std::string &bundleName) {
  w.key("run").beginObject();
  w.field("bundle", b.clip(bundleName));
  w.field("producer", b.clip(m.producer));
  w.field("version", b.clip(m.version));
  w.field("run_id", b.clip(m.runId));
  w.field("created_at", b.clip(m.createdAt));
  w.field("seed", std::to_string(m.seed)); // a string: JS numbers stop at 2^53
  w.field("spec_root", b.clip(m.specRoot));
  w.field("interrupted", m.interrupted);
  w.field("legacy", c.legacy);
  w.endObject();
}

void writeEnv(ReportBudget &b, ir::JsonWriter &w, const Doc &env) {
  w.key("env").beginArray();
  if (env.present) {
    size_t n = 0, total = 0;
    for (auto kv : object(env.root)) {
      if (total++ >= b.limits().maxItems || !b.room())
        continue;
      ++n;
      w.beginArray();
      w.value(b.clip(kv.key));
      w.value(scalarText(b, kv.value));
      w.endArray();
    }
    if (n < total)
      b.cut(n >= b.limits().maxItems ? listWhat("env.json", b.limits().maxItems) : b.itemsWhat(),
            total - n);
  }
  w.endArray();
}

void writeRows(ReportBudget &b, ir::JsonWriter &w, const Manifest &m, const TracePairing &p) {
  w.key("rows").beginArray();
  for (size_t r = 0; r < m.tests.size(); ++r) {
    if (!b.room()) {
      b.cutItems(m.tests.size() - r);
      break;
    }
    const TestRow &t = m.tests[r];
    w.beginObject();
    w.field("display", b.clip(t.displayName()));
    w.field("name", b.clip(t.name));
    if (t.leafId)
      w.field("leaf_id", b.clip(*t.leafId));
    w.field("outcome", b.clip(t.outcome));
    w.field("duration_ms", t.durationMs);
    w.field("expectation", b.clip(t.expectation));
    w.field("reason", b.clip(t.reason));
    if (!t.code.empty()) {
      // The code as the bundle has it; its suggestion from this fbc's table
      // (none for a code it does not know).
      w.field("code", b.clip(t.code));
      if (const ir::DiagCodeInfo *info = ir::findDiagCode(t.code))
        w.field("suggestion", info->suggestion);
    }
    w.field("trace", int64_t(p.rowTrace[r]));
    w.endObject();
  }
  w.endArray();
}

// The paired trace entries at their indices (an entry no row pairs with is
// null: nothing on the page can open it); once the budget is spent, null.
void writeTraces(ReportBudget &b, ir::JsonWriter &w, const TracePairing &p, const SpecIndex &specs,
                 const Manifest &m) {
  w.key("traces").beginArray();
  uint64_t left = 0;
  for (size_t i = 0; i < p.traces.size(); ++i) {
    element t = p.traces[i];
    if (!p.taken[i] || !b.room()) {
      left += p.taken[i];
      w.null();
      continue;
    }
    w.beginObject();
    w.field("display", b.clip(traceDisplayName(b, t).value_or(str(t, "name"))));
    w.key("frames").beginArray();
    eachOf(b, t, "traceback", b.limits().maxItems, [&](element f) {
      std::string text = scalarText(b, f);
      auto [idx, line] = frameTarget(text, specs, m);
      w.beginObject();
      w.field("text", text);
      w.field("spec", int64_t(idx));
      w.field("line", line);
      w.endObject();
    });
    w.endArray();
    writeEventKinds(b, w, t);
    writeCause(b, w, t);
    writeSchedule(b, w, t);
    w.key("entry");
    b.copy(w, t);
    w.endObject();
  }
  b.cutItems(left);
  w.endArray();
}

void writeMatrix(ReportBudget &b, ir::JsonWriter &w, const Doc &trace, const Manifest &m,
                 const TracePairing &p) {
  element mx;
  if (!trace.present || trace.root["matrix"].get(mx) || mx.type() != element_type::OBJECT) {
    w.key("matrix").null();
    return;
  }
  // The row whose trace entry is a cell's run; else (a legacy trace entry
  // has no scenario/fault) the row of its cell's name.
  std::map<std::pair<std::string_view, std::string_view>, int64_t> byCell;
  std::map<std::string_view, int64_t> byName;
  for (size_t r = 0; r < m.tests.size(); ++r) {
    if (p.rowTrace[r] >= 0) {
      element t = p.traces[size_t(p.rowTrace[r])];
      byCell.emplace(std::pair{view(t, "scenario"), view(t, "fault")}, int64_t(r));
    }
    byName.emplace(m.tests[r].name, int64_t(r));
  }
  w.key("matrix").beginObject();
  stringArray(b, w, mx, "scenarios");
  stringArray(b, w, mx, "faults");
  w.key("cells").beginArray();
  eachOf(b, mx, "cells", b.limits().maxRows, [&](element cell) {
    std::string_view sc = view(cell, "scenario"), fa = view(cell, "fault");
    int64_t row = -1;
    if (auto it = byCell.find({sc, fa}); it != byCell.end())
      row = it->second;
    else if (auto n = byName.find("test_matrix_" + std::string(sc) + "_" + std::string(fa));
             n != byName.end())
      row = n->second;
    w.beginObject();
    w.field("scenario", b.clip(sc));
    w.field("fault", b.clip(fa));
    std::string outcome = b.clip(view(cell, "outcome"));
    if (outcome.empty())
      outcome = flag(cell, "passed") ? "passed" : "failed";
    w.field("outcome", outcome);
    w.field("expectation", b.clip(view(cell, "expectation")));
    w.field("duration_ms", num<int64_t>(cell, "duration_ms", 0));
    w.field("row", row);
    w.endObject();
  });
  w.endArray();
  w.endObject();
}

std::string textWhat(const ReportLimits &l) {
  return "spec files and service logs cut to " + std::to_string(l.maxText) + " bytes";
}

void writeSpecs(ReportBudget &b, ir::JsonWriter &w, const SpecIndex &specs) {
  w.key("specs").beginArray();
  for (size_t i = 0; i < specs.files.size(); ++i) {
    if (i >= b.limits().maxItems || !b.room()) {
      b.cut(i >= b.limits().maxItems ? listWhat("spec file", b.limits().maxItems) : b.itemsWhat(),
            specs.files.size() - i);
      break;
    }
    w.beginObject();
    w.field("path", b.clip(specs.files[i].path));
    w.field("text", b.clip(specs.files[i].entry->data, b.limits().maxText, textWhat(b.limits())));
    w.endObject();
  }
  w.endArray();
}

void writeServices(ReportBudget &b, ir::JsonWriter &w, const Contents &c, const Manifest &m) {
  std::map<std::string, std::pair<const Entry *, const Entry *>> logs; // service -> out, err
  for (const Entry &e : c.entries)
    if (e.name.starts_with("services/")) {
      std::string rest = e.name.substr(9);
      if (rest.ends_with(".stdout"))
        logs[rest.substr(0, rest.size() - 7)].first = &e;
      else if (rest.ends_with(".stderr"))
        logs[rest.substr(0, rest.size() - 7)].second = &e;
    }
  std::set<std::string> displays;
  for (const TestRow &t : m.tests)
    displays.insert(t.displayName());
  w.key("services").beginArray();
  size_t i = 0;
  for (const auto &[name, pair] : logs) {
    if (i >= b.limits().maxItems || !b.room()) {
      b.cut(i >= b.limits().maxItems ? listWhat("service log", b.limits().maxItems) : b.itemsWhat(),
            logs.size() - i);
      break;
    }
    ++i;
    w.beginObject();
    w.field("name", b.clip(name));
    for (auto [key, entry] : {std::pair{"stdout", pair.first}, std::pair{"stderr", pair.second}}) {
      std::string text =
          entry ? b.clip(entry->data, b.limits().maxText, textWhat(b.limits())) : std::string();
      w.key(key).beginArray();
      for (const auto &[test, part] : logSections(text, displays)) {
        w.beginArray();
        w.value(test);
        w.value(part);
        w.endArray();
      }
      w.endArray();
    }
    w.endObject();
  }
  w.endArray();
}

} // namespace

llvm::Expected<std::string> reportData(const Contents &c, const std::string &bundleName,
                                       const ReportLimits &limits, std::vector<std::string> *cuts) {
  const Entry *me = c.find("manifest.json");
  if (!me)
    return fail("bundle has no manifest.json (not a .fb bundle?)");
  // Only the rows the page can show are kept (each costs far more memory
  // than its JSON); the counts still come from every row.
  llvm::Expected<Manifest> parsed =
      parseManifest(me->data, ManifestLimits{limits.maxRows, limits.maxLeafFields});
  if (!parsed)
    return parsed.takeError();
  const Manifest &m = *parsed;
  Doc trace, plan, env;
  for (auto [name, doc] :
       {std::pair{"trace.json", &trace}, {"plan.json", &plan}, {"env.json", &env}})
    if (auto err = parseEntry(c, name, *doc))
      return err;

  std::string out;
  ReportBudget b(out, limits);
  b.cut("tests-table rows not shown (the page shows the first " + std::to_string(limits.maxRows) +
            ")",
        m.rowsNotKept);
  b.cut(leafFieldsWhat(limits), m.leafFieldsNotKept);
  SpecIndex specs;
  for (const Entry &e : c.entries)
    if (e.name.starts_with("spec/"))
      specs.add({e.name.substr(5), &e}, m);
  TracePairing pairing = pairTraces(b, trace, m);
  std::optional<PlanJson> planJson;
  if (plan.present) {
    llvm::Expected<PlanJson> read = readPlanJson(plan.root, reportPlanLimits(limits));
    if (!read)
      return fail("plan.json: " + llvm::toString(read.takeError()));
    planJson = std::move(*read);
  }

  ir::JsonWriter w(out);
  w.beginObject();
  writeRun(b, w, m, c, bundleName);
  // The header's counts, as parseManifest() tallies them from every row.
  writeSummary(w, m.summary);
  writeEnv(b, w, env);
  writeRows(b, w, m, pairing);
  writeTraces(b, w, pairing, specs, m);
  writeMatrix(b, w, trace, m, pairing);
  w.key("plan");
  writeReportPlan(b, w, planJson ? &*planJson : nullptr);
  writeSpecs(b, w, specs);
  writeServices(b, w, c, m);
  // What was cut, for the page's banner: written last, when it is known.
  std::vector<std::string> notices = b.notices();
  w.key("cuts").beginArray();
  for (const std::string &n : notices)
    w.value(n);
  w.endArray();
  w.endObject();
  if (cuts)
    *cuts = std::move(notices);
  return out;
}

} // namespace fbc::bundle
