// The JSON report (`fbc run --format=json`): the reference's trace.json
// version 2 shape, each row with its events, and the fault matrix's cells.
// The text report and what both share: runtime/report/report.cpp.
#include "runtime/report/report.h"

#include "ir/json_writer.h"
#include "runtime/values/event_value.h"

#include <time.h>

#include <cstdio>
#include <map>

namespace fbc::rt {
namespace {

std::string rfc3339(int64_t ns) {
  time_t sec = static_cast<time_t>(ns / 1000000000);
  tm utc{};
  gmtime_r(&sec, &utc);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
  char out[96];
  std::snprintf(out, sizeof out, "%s.%09lldZ", buf, static_cast<long long>(ns % 1000000000));
  return out;
}

// "bypassed_rules": the reference's [{service, syscall, action, label?}];
// a protocol rule is {service, interface, rule}.
void writeBypassedRules(ir::JsonWriter &w, const TestOutcome &t) {
  w.key("bypassed_rules").beginArray();
  for (const FaultSummary *f : t.bypassedRules()) {
    w.beginObject();
    w.field("service", f->service);
    if (f->isProtocolRule()) {
      w.field("interface", f->interface);
      w.field("rule", f->rule);
      w.endObject();
      continue;
    }
    w.field("syscall", f->syscall);
    w.field("action", f->action);
    if (!f->label.empty())
      w.field("label", f->label);
    w.endObject();
  }
  w.endArray();
}

void writeEvent(ir::JsonWriter &w, const RunReport &r, const TestOutcome &t, const TraceEvent &e) {
  FlatEvent f = flattenEvent(e, r.serviceNames);
  w.beginObject();
  w.field("seq", f.seq);
  w.field("timestamp", rfc3339(t.startWallNs + e.timeNs));
  w.field("type", f.type);
  w.field("event_type", f.eventType);
  w.field("service", f.service);
  w.key("fields").beginObject();
  for (const auto &[k, v] : f.fields)
    w.field(k, v);
  w.endObject();
  w.endObject();
}

// The report's "matrix": one matrix object (the reference's shape); with
// several matrices their cells are concatenated in declaration order.
void writeReportMatrix(ir::JsonWriter &w, const RunReport &r) {
  std::map<uint32_t, MatrixView> ms = matrices(r);
  if (ms.empty())
    return;
  MatrixAxes axes;
  std::vector<JsonMatrixCell> cells;
  std::vector<std::string> outcomes; // the cells' outcome words, which they view
  for (const auto &[idx, m] : ms) {
    axes.emplace_back(&m.scenarios, &m.faults);
    for (const std::string &s : m.scenarios)
      for (const std::string &f : m.faults) {
        auto it = m.cells.find({s, f});
        if (it == m.cells.end())
          continue;
        const TestOutcome &t = *it->second;
        JsonMatrixCell c{s, f, {}, t.expectation, t.result == Result::Pass, t.durationMs, {}};
        outcomes.push_back(t.outcomeWord());
        if (t.faultBypassed)
          c.bypassedRules = [&t](ir::JsonWriter &w) { writeBypassedRules(w, t); };
        cells.push_back(std::move(c));
      }
  }
  for (size_t i = 0; i < cells.size(); ++i)
    cells[i].outcome = outcomes[i];
  writeJsonMatrix(w, axes, cells);
}

} // namespace

std::string formatJsonReport(const RunReport &r) {
  std::string out;
  ir::JsonWriter w(out, 2);
  w.beginObject();
  writeJsonReportHeader(w, {r.starFile, r.seed, r.durationMs, r.counts(), r.interrupted,
                            static_cast<uint64_t>(r.notRun)});
  w.key("tests").beginArray();
  for (const TestOutcome &t : r.tests) {
    w.beginObject();
    w.field("name", t.name);
    if (t.leaf) {
      w.field("leaf_id", t.leaf->id);
      if (!t.leaf->choices.empty()) {
        w.key("leaf_choices").beginObject();
        for (const auto &[k, v] : t.leaf->choices)
          w.field(k, v);
        w.endObject();
      }
      if (!t.leaf->choiceValues.empty()) {
        w.key("leaf_choice_values").beginObject();
        for (const auto &[k, v] : t.leaf->choiceValues)
          w.field(k, v);
        w.endObject();
      }
      if (!t.leaf->probability.empty()) {
        w.key("leaf_probability_outcomes").beginObject();
        for (const auto &[k, v] : t.leaf->probability) {
          w.key(k).beginArray();
          for (bool b : v)
            w.value(b);
          w.endArray();
        }
        w.endObject();
      }
      if (!t.leaf->interleavings.empty()) {
        w.key("leaf_interleavings").beginObject();
        for (const auto &[k, v] : t.leaf->interleavings)
          w.field(k, v);
        w.endObject();
      }
      if (!t.leaf->scheduleChoices.empty()) {
        w.field("leaf_schedule", t.leaf->scheduleChoices);
        w.key("leaf_released").beginArray();
        for (const std::string &c : t.leaf->schedule)
          w.value(c);
        w.endArray();
      }
    }
    if (t.coverage) {
      w.key("explore_coverage").beginObject();
      w.field("classes", t.coverage->classes);
      w.field("events", t.coverage->events);
      w.field("events_vary", t.coverage->eventsVary);
      w.field("complete", t.coverage->incomplete.empty());
      w.field("statement", t.coverage->statement());
      w.field("not_covered", ExploreCoverage::notCovered());
      w.endObject();
    }
    w.field("result", resultName(t.result));
    if (!t.reason.empty())
      w.field("reason", t.reason);
    if (std::optional<ir::DiagCode> code = rowCode(t))
      w.field("code", ir::codeName(*code));
    if (!t.traceback.empty()) {
      w.key("traceback").beginArray();
      for (const std::string &frame : t.traceback)
        w.value(frame);
      w.endArray();
    }
    w.field("seed", t.seed);
    if (t.runs) {
      w.key("runs").beginObject();
      w.field("run", int64_t(t.runs->run));
      w.field("of", int64_t(t.runs->of));
      w.field("passed_before", int64_t(t.runs->passedBefore));
      w.endObject();
    }
    w.field("duration_ms", t.durationMs);
    if (!t.returnValue.empty())
      w.field("return_value", t.returnValue);
    if (t.result == Result::Fail)
      w.field("replay_command", replayCommand(r, t));
    if (!t.expectation.empty())
      w.field("expectation", t.expectation);
    if (t.expectationViolated)
      w.field("expectation_violated", true);
    if (t.faultBypassed) {
      w.field("fault_bypassed", true);
      writeBypassedRules(w, t);
    }
    if (t.strictDeterminismViolation)
      w.field("strict_determinism_violation", true);
    if (t.matrix) {
      w.field("scenario", t.scenario);
      w.field("fault", t.fault);
      w.field("outcome", t.outcomeWord());
    }
    // Syscall rules; protocol rules are their proxy_fault_* events.
    w.key("faults").beginArray();
    for (const FaultSummary &f : t.faults) {
      if (f.isProtocolRule())
        continue;
      w.beginObject();
      w.field("service", f.service);
      w.field("syscall", f.syscall);
      w.field("action", f.action);
      if (!f.errnoName.empty())
        w.field("errno", f.errnoName);
      if (!f.delay.empty())
        w.field("delay", f.delay);
      if (!f.path.empty())
        w.field("path", f.path);
      w.field("hits", f.hits);
      if (!f.label.empty())
        w.field("label", f.label);
      w.endObject();
    }
    w.endArray();
    w.key("syscall_summary").beginObject();
    for (const auto &[svc, s] : t.syscallSummary) {
      w.key(svc).beginObject();
      w.field("total", s.total);
      w.field("faulted", s.faulted);
      w.key("breakdown").beginObject();
      for (const auto &[sc, n] : s.breakdown)
        w.field(sc, n);
      w.endObject();
      w.endObject();
    }
    w.endObject();
    // fbc run --record-ops only: what each service's calls were on.
    if (!t.operations.empty()) {
      w.key("operations").beginObject();
      for (const auto &[svc, ops] : t.operations) {
        w.key(svc).beginArray();
        for (const OperationCount &op : ops) {
          w.beginObject();
          w.field("syscall", op.syscall);
          w.field("target", op.target);
          w.field("calls", op.calls);
          w.endObject();
        }
        w.endArray();
      }
      w.endObject();
    }
    w.key("events").beginArray();
    for (const TraceEvent &e : t.events)
      writeEvent(w, r, t, e);
    w.endArray();
    w.endObject();
  }
  w.endArray();
  writeReportMatrix(w, r);
  w.endObject();
  out += '\n';
  return out;
}

void writeJsonReportHeader(ir::JsonWriter &w, const JsonReportHeader &h) {
  w.field("version", 2);
  w.field("star_file", h.starFile);
  w.field("seed", h.seed);
  w.field("duration_ms", h.durationMs);
  writeCountFields(w, h.counts);
  if (h.interrupted) {
    w.field("interrupted", true);
    w.field("not_run", h.notRun);
  }
}

void writeJsonMatrix(ir::JsonWriter &w, const MatrixAxes &axes,
                     const std::vector<JsonMatrixCell> &cells) {
  w.key("matrix").beginObject();
  std::vector<std::string> joined[2];
  for (const auto &[scenarios, faults] : axes)
    for (int k = 0; k < 2; ++k)
      for (const std::string &x : *(k == 0 ? scenarios : faults))
        if (std::find(joined[k].begin(), joined[k].end(), x) == joined[k].end())
          joined[k].push_back(x);
  for (int k = 0; k < 2; ++k) {
    w.key(k == 0 ? "scenarios" : "faults").beginArray();
    for (const std::string &x : joined[k])
      w.value(x);
    w.endArray();
  }
  uint64_t passed = 0;
  w.key("cells").beginArray();
  for (const JsonMatrixCell &c : cells) {
    passed += c.passed;
    w.beginObject();
    w.field("scenario", c.scenario);
    w.field("fault", c.fault);
    w.field("passed", c.passed);
    w.field("outcome", c.outcome);
    if (!c.expectation.empty())
      w.field("expectation", c.expectation);
    w.field("duration_ms", c.durationMs);
    if (c.bypassedRules)
      c.bypassedRules(w);
    w.endObject();
  }
  w.endArray();
  w.field("total", static_cast<uint64_t>(cells.size()));
  w.field("passed", passed);
  w.field("failed", static_cast<uint64_t>(cells.size()) - passed);
  w.endObject();
}

} // namespace fbc::rt
