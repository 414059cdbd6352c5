// Owns `fbc merge`'s combination of shard bundles (see merge.h): rows put
// back in plan order, trace.json re-emitted through the writer that wrote
// it, services' output reordered by its per-row headers, and the plan's
// leaves that no shard ran.
#include "bundle/merge.h"

#include "backend/shard.h"
#include "bundle/run_bundle.h"
#include "bundle/trace_cut.h"
#include "ir/json_writer.h"
#include "runtime/report/junit.h"
#include "runtime/report/report.h"

#include <llvm/Support/Path.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace fbc::bundle {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string quoted(const std::string &path) {
  return "\"" + path + "\"";
}

std::string_view stringAt(element o, const char *key) {
  std::string_view v;
  return o[key].get(v) ? std::string_view() : v;
}

int64_t intAt(element o, const char *key) {
  int64_t v = 0;
  return o[key].get(v) ? 0 : v;
}

// One row of one input: where it goes in the plan, its manifest row and
// its trace.json object.
struct Row {
  size_t test = 0;   // index into the leaf program
  uint64_t leaf = 0; // 0 for a test without fan-out
  size_t input = 0;
  size_t index = 0; // the row's place in its input (its manifest and junit.xml)
  const TestRow *row = nullptr;
  element trace;
  bool operator<(const Row &o) const { return test != o.test ? test < o.test : leaf < o.leaf; }
};

// services/<name>.stdout|.stderr of one input split at its rows' headers
// (run_bundle.cpp writes "==> <display name> <==" before each row's part).
std::map<std::string, std::string> sections(const std::string &text,
                                            const std::set<std::string> &names) {
  std::map<std::string, std::string> out;
  std::string *current = nullptr;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view line(text.data() + at, end - at);
    if (line.starts_with("==> ") && line.ends_with(" <==\n")) {
      std::string name(line.substr(4, line.size() - 9));
      if (names.count(name)) {
        current = &out[name];
        current->append(line);
        at = end;
        continue;
      }
    }
    if (current)
      current->append(line);
    at = end;
  }
  return out;
}

// trace.json of the merged rows (runtime/report/report.cpp formatJsonReport's
// shape): the counts from the rows, the rows as the shards wrote them, the
// fault matrix rebuilt from its cells' rows.
std::string mergedTrace(const std::vector<Row> &rows, const std::vector<element> &traces,
                        const ir::LeafProgram &plan, bool interrupted, uint64_t notRun) {
  rt::ResultCounts counts;
  int64_t duration = 0;
  for (element t : traces)
    duration += intAt(t, "duration_ms");
  for (const Row &r : rows)
    counts.add(r.row->outcome);
  std::string out;
  ir::JsonWriter w(out, 2);
  w.beginObject();
  uint64_t seed = 0;
  if (traces.front()["seed"].get(seed))
    seed = 0;
  rt::writeJsonReportHeader(
      w, {stringAt(traces.front(), "star_file"), seed, duration, counts, interrupted, notRun});
  w.key("tests").beginArray();
  for (const Row &r : rows)
    rewriteJson(w, r.trace);
  w.endArray();

  // The matrix: per fault_matrix() in declaration order, its scenarios and
  // faults in the order their rows come, one cell per (scenario, fault) (the
  // last row of a cell that fans out).
  struct Matrix {
    std::vector<std::string> scenarios, faults;
    std::map<std::pair<std::string, std::string>, const Row *> cells;
  };
  std::map<uint32_t, Matrix> matrices;
  for (const Row &r : rows) {
    const ir::Test &t = *plan.tests[r.test].test;
    if (!t.matrix)
      continue;
    Matrix &m = matrices[*t.matrix];
    std::string s(stringAt(r.trace, "scenario")), f(stringAt(r.trace, "fault"));
    if (std::find(m.scenarios.begin(), m.scenarios.end(), s) == m.scenarios.end())
      m.scenarios.push_back(s);
    if (std::find(m.faults.begin(), m.faults.end(), f) == m.faults.end())
      m.faults.push_back(f);
    m.cells[{s, f}] = &r;
  }
  if (!matrices.empty()) {
    rt::MatrixAxes axes;
    std::vector<rt::JsonMatrixCell> cells;
    for (const auto &[idx, m] : matrices) {
      axes.emplace_back(&m.scenarios, &m.faults);
      for (const std::string &s : m.scenarios)
        for (const std::string &f : m.faults) {
          auto it = m.cells.find({s, f});
          if (it == m.cells.end())
            continue;
          element row = it->second->trace;
          rt::JsonMatrixCell c{s,
                               f,
                               stringAt(row, "outcome"),
                               stringAt(row, "expectation"),
                               stringAt(row, "result") == "pass",
                               intAt(row, "duration_ms"),
                               {}};
          if (element rules; !row["bypassed_rules"].get(rules))
            c.bypassedRules = [rules](ir::JsonWriter &w) {
              w.key("bypassed_rules");
              rewriteJson(w, rules);
            };
          cells.push_back(std::move(c));
        }
    }
    rt::writeJsonMatrix(w, axes, cells);
  }
  w.endObject();
  out += '\n';
  return out;
}

// junit.xml of the merged rows: each input's testcases (its junit.xml, one
// per manifest row, in the same order) in plan order, the counts taken
// again from them; the suite's time is the sum of the inputs' (the shards'
// wall times: how long the run took on one machine). "" with `why` when an
// input has no usable junit.xml.
std::string mergedJUnit(const std::vector<OpenedBundle> &inputs, const std::vector<Row> &rows,
                        const std::vector<element> &traces, std::string &why) {
  std::vector<std::vector<rt::JUnitCase>> cases;
  for (const OpenedBundle &b : inputs) {
    const Entry *e = b.contents.find("junit.xml");
    std::optional<std::vector<rt::JUnitCase>> parsed;
    if (e)
      parsed = rt::junitCasesOf(e->data);
    if (!parsed || parsed->size() != b.manifest.tests.size()) {
      why = "bundle " + quoted(b.path) +
            (!e ? " has no junit.xml (an older fbc wrote it, or its JUnit XML was over the entry "
                  "limit)"
                : ": its junit.xml does not hold one testcase per row");
      return "";
    }
    cases.push_back(std::move(*parsed));
  }
  rt::JUnitSuite suite;
  suite.name = std::string(stringAt(traces.front(), "star_file"));
  suite.seed = inputs.front().manifest.seed;
  for (element t : traces)
    suite.wallMs += intAt(t, "duration_ms");
  for (const OpenedBundle &b : inputs)
    suite.properties.emplace_back("merged_from", std::string(llvm::sys::path::filename(b.path)));
  std::vector<rt::JUnitCase> merged;
  for (const Row &r : rows)
    merged.push_back(std::move(cases[r.input][r.index]));
  return rt::junitDocument(suite, merged);
}

} // namespace

llvm::Expected<MergeResult> mergeBundles(const std::vector<OpenedBundle> &inputs,
                                         const ir::LeafProgram &plan, const MergeInfo &info) {
  if (inputs.empty())
    return fail("no bundles to merge");
  const OpenedBundle &first = inputs.front();
  for (const OpenedBundle &b : inputs)
    if (b.manifest.producer != "fbc")
      return fail("bundle " + quoted(b.path) +
                  " was written by the reference tool: only fbc's shard bundles merge");

  // One spec, one seed: otherwise the rows are not parts of one run.
  auto specEntries = [](const OpenedBundle &b) {
    std::vector<const Entry *> out;
    for (const Entry &e : b.contents.entries)
      if (e.name.starts_with("spec/"))
        out.push_back(&e);
    return out;
  };
  std::vector<const Entry *> spec = specEntries(first);
  for (const OpenedBundle &b : inputs) {
    if (b.manifest.requireFaultsFire != first.manifest.requireFaultsFire)
      return fail("bundles " + quoted(first.path) + " and " + quoted(b.path) +
                  " judged bypassed faults differently (one ran with --require-faults-fire): "
                  "run every shard with the same flags");
    if (b.manifest.seed != first.manifest.seed)
      return fail("bundles " + quoted(first.path) + " and " + quoted(b.path) +
                  " ran with different seeds (" + std::to_string(first.manifest.seed) + ", " +
                  std::to_string(b.manifest.seed) + "): run every shard with the same --seed");
    std::vector<const Entry *> other = specEntries(b);
    bool same = b.manifest.specRoot == first.manifest.specRoot && other.size() == spec.size();
    for (size_t i = 0; same && i < spec.size(); ++i)
      same = other[i]->name == spec[i]->name && other[i]->data == spec[i]->data;
    if (!same)
      return fail("bundles " + quoted(first.path) + " and " + quoted(b.path) +
                  " ran different specs (their spec_root or spec/ snapshots differ)");
  }

  std::map<std::string, size_t> testIndex;
  for (size_t i = 0; i < plan.tests.size(); ++i)
    testIndex.emplace(plan.tests[i].test->name, i);

  std::vector<std::unique_ptr<simdjson::dom::parser>> parsers;
  std::vector<element> traces;
  std::vector<Row> rows;
  for (size_t in = 0; in < inputs.size(); ++in) {
    const OpenedBundle &b = inputs[in];
    const Entry *trace = b.contents.find("trace.json");
    if (!trace)
      return fail("bundle " + quoted(b.path) + " has no trace.json");
    parsers.push_back(std::make_unique<simdjson::dom::parser>());
    element root;
    simdjson::dom::array tests;
    if (parsers.back()->parse(trace->data).get(root) || root["tests"].get(tests))
      return fail("bundle " + quoted(b.path) + ": trace.json is not a run report");
    traces.push_back(root);
    if (tests.size() != b.manifest.tests.size())
      return fail("bundle " + quoted(b.path) + ": trace.json has " + std::to_string(tests.size()) +
                  " rows, manifest.json " + std::to_string(b.manifest.tests.size()));
    size_t j = 0;
    for (element t : tests) {
      const TestRow &row = b.manifest.tests[j++];
      if (stringAt(t, "name") != row.name)
        return fail("bundle " + quoted(b.path) + ": trace.json and manifest.json list " +
                    "different rows");
      auto it = testIndex.find(row.name);
      if (it == testIndex.end())
        return fail("bundle " + quoted(b.path) + ": row " + quoted(row.displayName()) +
                    " is not a test of the spec");
      Row r{it->second, 0, in, j - 1, &row, t};
      if (row.leafId) {
        char *end = nullptr;
        r.leaf = std::strtoull(row.leafId->c_str(), &end, 10);
        if (row.leafId->empty() || *end)
          return fail("bundle " + quoted(b.path) + ": row " + quoted(row.name) + " has leaf_id " +
                      quoted(*row.leafId));
      }
      rows.push_back(r);
    }
  }
  std::stable_sort(rows.begin(), rows.end());
  for (size_t i = 1; i < rows.size(); ++i)
    if (!(rows[i - 1] < rows[i]))
      return fail(quoted(rows[i].row->displayName()) + " is in both " +
                  quoted(inputs[rows[i - 1].input].path) + " and " +
                  quoted(inputs[rows[i].input].path));

  MergeResult result;
  result.rows = rows.size();
  // The plan's leaves that no row stands for.
  size_t at = 0;
  for (size_t t = 0; t < plan.tests.size(); ++t) {
    const ir::LeafTest &lt = plan.tests[t];
    std::set<uint64_t> ran;
    for (; at < rows.size() && rows[at].test == t; ++at)
      ran.insert(rows[at].leaf);
    bool unknown =
        std::any_of(lt.axes.begin(), lt.axes.end(), [](const ir::LeafAxis &a) { return !a.known; });
    // Named as `fbc plan --shards` names the units; a test sized while its
    // leaf 0 runs is one unit (one shard runs all of it).
    backend::ShardUnit u;
    u.test = static_cast<uint32_t>(t);
    if (unknown || !lt.fansOut()) {
      u.wholeTest = unknown;
      if (ran.empty())
        result.notRun.push_back(backend::shardUnitName(plan, u));
    } else {
      for (u.leaf = 0; u.leaf < lt.count.value; ++u.leaf)
        if (!ran.count(u.leaf))
          result.notRun.push_back(backend::shardUnitName(plan, u));
    }
  }

  Manifest m;
  const Manifest &m0 = first.manifest;
  m.version = info.version;
  m.runId = info.runId;
  m.createdAt = m0.createdAt;
  m.seed = m0.seed;
  m.specRoot = m0.specRoot;
  m.specEntry = m0.specEntry;
  m.specDir = m0.specDir;
  m.requireFaultsFire = m0.requireFaultsFire;
  uint64_t notRun = 0;
  for (const OpenedBundle &b : inputs) {
    m.createdAt = std::min(m.createdAt, b.manifest.createdAt);
    m.interrupted |= b.manifest.interrupted;
    notRun += b.manifest.summary.notRun;
    m.mergedFrom.emplace_back(std::string(llvm::sys::path::filename(b.path)), b.manifest.runId);
    for (const auto &image : b.manifest.images) // each once, in shard order
      if (std::find(m.images.begin(), m.images.end(), image) == m.images.end())
        m.images.push_back(image);
  }
  for (const Row &r : rows)
    m.tests.push_back(*r.row);
  m.summary = summarize(m.tests, notRun);
  m.notRunLeaves = result.notRun;

  std::vector<Entry> &out = result.entries;
  if (const Entry *env = first.contents.find("env.json"))
    out.push_back(*env);
  // Shards each within the entry limit may merge past it: cut as a run's
  // own trace is (trace_cut.h).
  out.push_back(
      {"trace.json",
       cutTraceJson(mergedTrace(rows, traces, plan, m.interrupted, notRun), info.traceLimit),
       0644});
  if (const Entry *p = first.contents.find("plan.json"))
    out.push_back(*p);
  result.junit = mergedJUnit(inputs, rows, traces, result.junitMissing);
  if (!result.junit.empty() && result.junit.size() <= ReadLimits{}.maxEntryBytes)
    out.push_back({"junit.xml", result.junit, 0644});
  out.push_back({"replay.sh", replayScript(info.path), 0755});

  // Each service's output, its rows' parts in plan order.
  std::vector<std::set<std::string>> names(inputs.size());
  for (const Row &r : rows)
    names[r.input].insert(r.row->displayName());
  std::vector<std::string> outputs;
  for (const OpenedBundle &b : inputs)
    for (const Entry &e : b.contents.entries)
      if (e.name.starts_with("services/") &&
          std::find(outputs.begin(), outputs.end(), e.name) == outputs.end())
        outputs.push_back(e.name);
  for (const std::string &entry : outputs) {
    std::vector<std::map<std::string, std::string>> parts(inputs.size());
    for (size_t in = 0; in < inputs.size(); ++in)
      if (const Entry *e = inputs[in].contents.find(entry))
        parts[in] = sections(e->data, names[in]);
    std::string text;
    for (const Row &r : rows) {
      auto it = parts[r.input].find(r.row->displayName());
      if (it != parts[r.input].end())
        text += it->second;
    }
    out.push_back({entry, std::move(text), 0644});
  }
  for (const Entry *e : spec)
    out.push_back(*e);
  sealBundle(m, out);
  return result;
}

} // namespace fbc::bundle
