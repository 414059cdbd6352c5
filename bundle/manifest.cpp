#include "bundle/manifest.h"

#include "ir/json_writer.h"

#include <simdjson.h>

#include <algorithm>
#include <map>

namespace fbc::bundle {
namespace {

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "manifest.json: " + msg);
}

using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

// Typed field readers: absent is fine (the default stays), a wrong type is
// an error naming the field.
struct Reader {
  std::string error;
  // Members kept per leaf_* map or leaf_released (ManifestLimits), and how
  // many were dropped past it.
  size_t maxMembers = SIZE_MAX;
  uint64_t dropped = 0;

  // `o[key]` into `out` when present; false (with `error`) on a wrong type.
  template <typename T> bool scalar(object o, const char *key, T &out, const char *what) {
    element e;
    if (o[key].get(e))
      return true;
    if (e.get(out)) {
      error = std::string("\"") + key + "\" is not " + what;
      return false;
    }
    return true;
  }
  bool str(object o, const char *key, std::string &out) {
    std::string_view v;
    if (!scalar(o, key, v, "a string"))
      return false;
    if (v.data())
      out = std::string(v);
    return true;
  }
  bool u64(object o, const char *key, uint64_t &out) {
    return scalar(o, key, out, "a non-negative integer");
  }
  bool i64(object o, const char *key, int64_t &out) { return scalar(o, key, out, "an integer"); }
  bool boolean(object o, const char *key, bool &out) { return scalar(o, key, out, "a boolean"); }
  // An object-valued field: each member through `value(name, element)`,
  // which returns false (after setting `error`) on a wrong type.
  template <typename F> bool members(object o, const char *key, F value) {
    element e;
    if (o[key].get(e))
      return true;
    object m;
    if (e.get(m)) {
      error = std::string("\"") + key + "\" is not an object";
      return false;
    }
    size_t kept = 0;
    for (auto kv : m)
      if (kept++ >= maxMembers)
        ++dropped;
      else if (!value(std::string(kv.key), kv.value)) {
        error = std::string("\"") + key + "\" " + error;
        return false;
      }
    return true;
  }
  bool indexMap(object o, const char *key, std::map<std::string, uint64_t> &out) {
    return members(o, key, [&](const std::string &k, element v) {
      if (v.get(out[k])) {
        error = "has a value that is not a non-negative integer";
        return false;
      }
      return true;
    });
  }
  bool stringMap(object o, const char *key, std::map<std::string, std::string> &out) {
    return members(o, key, [&](const std::string &k, element v) {
      std::string_view s;
      if (v.get(s)) {
        error = "has a value that is not a string";
        return false;
      }
      out[k] = std::string(s);
      return true;
    });
  }
  bool strings(object o, const char *key, std::vector<std::string> &out) {
    element e;
    if (o[key].get(e))
      return true;
    simdjson::dom::array a;
    if (e.get(a)) {
      error = std::string("\"") + key + "\" is not an array";
      return false;
    }
    for (element x : a) {
      std::string_view v;
      if (x.get(v)) {
        error = std::string("\"") + key + "\" has an element that is not a string";
        return false;
      }
      if (out.size() < maxMembers)
        out.emplace_back(v);
      else
        ++dropped;
    }
    return true;
  }
  bool vectorMap(object o, const char *key, std::map<std::string, std::vector<bool>> &out) {
    return members(o, key, [&](const std::string &k, element v) {
      simdjson::dom::array a;
      if (v.get(a)) {
        error = "has a value that is not an array";
        return false;
      }
      for (element b : a) {
        bool bit;
        if (b.get(bit)) {
          error = "has an element that is not a boolean";
          return false;
        }
        out[k].push_back(bit);
      }
      return true;
    });
  }
};

} // namespace

std::optional<uint64_t> parseLeafId(std::string_view s) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string_view::npos ||
      (s.size() > 1 && s[0] == '0'))
    return std::nullopt;
  uint64_t v = 0;
  for (char c : s)
    v = v * 10 + uint64_t(c - '0');
  return v;
}

std::optional<uint64_t> TestRow::leafIndex() const {
  return leafId ? parseLeafId(*leafId) : std::nullopt;
}

std::string TestRow::displayName() const {
  return leafId ? ir::leafDisplayName(name, *leafId, leafLabel()) : name;
}

Summary summarize(const std::vector<TestRow> &rows, uint64_t notRun) {
  Summary s;
  s.total = rows.size();
  s.notRun = notRun;
  for (const TestRow &r : rows)
    s.add(r.outcome);
  return s;
}

void writeSummary(ir::JsonWriter &w, const Summary &s) {
  w.key("summary").beginObject();
  w.field("total", s.total);
  w.field("passed", s.passed);
  w.field("failed", s.failed);
  w.field("errored", s.errored);
  w.field("inconclusive", s.inconclusive);
  w.field("halted", s.halted);
  w.field("expectation_violated", s.expectationViolated);
  w.field("fault_bypassed", s.faultBypassed);
  w.field("strict_determinism_violation", s.strictDeterminismViolation);
  w.field("not_run", s.notRun);
  w.endObject();
}

std::string formatManifestJson(const Manifest &m) {
  std::string out;
  ir::JsonWriter w(out, 2);
  w.beginObject();
  w.field("schema_version", m.schemaVersion);
  w.field(m.producer == "faultbox" ? "faultbox_version" : "fbc_version", m.version);
  w.field("run_id", m.runId);
  w.field("created_at", m.createdAt);
  w.field("seed", m.seed);
  w.field("spec_root", m.specRoot);
  if (!m.specEntry.empty())
    w.field("spec_entry", m.specEntry);
  if (!m.specDir.empty())
    w.field("spec_dir", m.specDir);
  w.field("interrupted", m.interrupted);
  bool scheduled = std::any_of(m.tests.begin(), m.tests.end(),
                               [](const TestRow &t) { return !t.leaf.schedule.empty(); });
  if (m.explore.policy != ir::ExploreOptions::Policy::None || scheduled) {
    w.key("explore").beginObject();
    w.field("policy", ir::explorePolicyName(m.explore.policy));
    w.field("budget", m.explore.budget);
    w.field("settle_ns", m.explore.settleNs);
    w.field("quiet_bound_ns", m.explore.quietBoundNs);
    w.endObject();
  }
  if (m.requireFaultsFire)
    w.field("require_faults_fire", true);
  if (!m.shard.empty())
    w.field("shard", m.shard);
  if (!m.images.empty()) {
    w.key("images").beginArray();
    for (const auto &[image, id] : m.images)
      w.beginObject().field("image", image).field("id", id).endObject();
    w.endArray();
  }
  w.key("tests").beginArray();
  for (const TestRow &t : m.tests) {
    w.beginObject();
    w.field("name", t.name);
    w.field("outcome", t.outcome);
    w.field("duration_ms", t.durationMs);
    w.field("seed", t.seed);
    if (!t.expectation.empty())
      w.field("expectation", t.expectation);
    if (!t.reason.empty())
      w.field("reason", t.reason);
    if (!t.code.empty())
      w.field("code", t.code);
    if (t.leafId) {
      w.field("leaf_id", *t.leafId);
      if (!t.leaf.choices.empty()) {
        w.key("leaf_choices").beginObject();
        for (const auto &[k, v] : t.leaf.choices)
          w.field(k, v);
        w.endObject();
      }
      if (!t.leaf.choiceValues.empty()) {
        w.key("leaf_choice_values").beginObject();
        for (const auto &[k, v] : t.leaf.choiceValues)
          w.field(k, v);
        w.endObject();
      }
      if (!t.leaf.probability.empty()) {
        w.key("leaf_probability_outcomes").beginObject();
        for (const auto &[k, bits] : t.leaf.probability) {
          w.key(k).beginArray();
          for (bool b : bits)
            w.value(b);
          w.endArray();
        }
        w.endObject();
      }
      if (!t.leaf.interleavings.empty()) {
        w.key("leaf_interleavings").beginObject();
        for (const auto &[k, v] : t.leaf.interleavings)
          w.field(k, v);
        w.endObject();
      }
      if (!t.leaf.schedule.empty()) {
        w.field("leaf_schedule", t.leaf.schedule);
        w.key("leaf_released").beginArray();
        for (const std::string &c : t.released)
          w.value(c);
        w.endArray();
      }
    }
    if (!t.coverage.empty()) {
      w.field("explore_coverage", t.coverage);
      w.field("explore_not_covered", t.notCovered);
    }
    w.endObject();
  }
  w.endArray();
  writeSummary(w, m.summary);
  if (!m.mergedFrom.empty()) {
    w.key("merged_from").beginArray();
    for (const auto &[bundle, runId] : m.mergedFrom) {
      w.beginObject();
      w.field("bundle", bundle);
      w.field("run_id", runId);
      w.endObject();
    }
    w.endArray();
    w.key("not_run_leaves").beginArray();
    for (const std::string &leaf : m.notRunLeaves)
      w.value(leaf);
    w.endArray();
  }
  if (!m.files.empty()) {
    w.key("files").beginObject();
    for (const auto &[name, digest] : m.files)
      w.field(name, digest);
    w.endObject();
  }
  w.endObject();
  out += '\n';
  return out;
}

llvm::Expected<Manifest> parseManifest(std::string_view json, const ManifestLimits &limits) {
  simdjson::dom::parser parser;
  element root;
  if (auto err = parser.parse(json.data(), json.size()).get(root))
    return fail(std::string("not valid JSON: ") + simdjson::error_message(err));
  object o;
  if (root.get(o))
    return fail("not a JSON object");
  Manifest m;
  Reader r;
  r.maxMembers = limits.maxLeafFields;
  element sv;
  if (o["schema_version"].get(sv))
    return fail("missing schema_version");
  if (sv.get(m.schemaVersion))
    return fail("\"schema_version\" is not an integer");
  if (m.schemaVersion != kSchemaVersion)
    return fail("schema_version " + std::to_string(m.schemaVersion) +
                " is not one this fbc reads (it reads " + std::to_string(kSchemaVersion) + ")");
  element ignored;
  if (!o["faultbox_version"].get(ignored)) {
    m.producer = "faultbox";
    if (!r.str(o, "faultbox_version", m.version))
      return fail(r.error);
  } else if (!r.str(o, "fbc_version", m.version)) {
    return fail(r.error);
  }
  bool interrupted = false, requireFaultsFire = false;
  if (!r.str(o, "run_id", m.runId) || !r.str(o, "created_at", m.createdAt) ||
      !r.u64(o, "seed", m.seed) || !r.str(o, "spec_root", m.specRoot) ||
      !r.str(o, "spec_entry", m.specEntry) || !r.str(o, "spec_dir", m.specDir) ||
      !r.boolean(o, "interrupted", interrupted) ||
      !r.boolean(o, "require_faults_fire", requireFaultsFire) || !r.str(o, "shard", m.shard))
    return fail(r.error);
  m.interrupted = interrupted;
  m.requireFaultsFire = requireFaultsFire;
  element explore;
  if (!o["explore"].get(explore)) {
    object e;
    std::string policy;
    if (explore.get(e) || !r.str(e, "policy", policy) || !r.u64(e, "budget", m.explore.budget) ||
        !r.i64(e, "settle_ns", m.explore.settleNs) ||
        !r.i64(e, "quiet_bound_ns", m.explore.quietBoundNs))
      return fail("explore: " + (r.error.empty() ? std::string("not an object") : r.error));
    bool known = false;
    for (auto p : {ir::ExploreOptions::Policy::None, ir::ExploreOptions::Policy::All,
                   ir::ExploreOptions::Policy::Sample})
      if (policy == ir::explorePolicyName(p)) {
        m.explore.policy = p;
        known = true;
      }
    if (!known || m.explore.budget == 0 || m.explore.settleNs < 0 || m.explore.quietBoundNs <= 0)
      return fail("explore: not a policy fbc runs");
  }
  element images;
  if (!o["images"].get(images)) {
    simdjson::dom::array a;
    if (images.get(a))
      return fail("\"images\" is not an array");
    for (element e : a) {
      object x;
      std::string image, id;
      if (e.get(x) || !r.str(x, "image", image) || !r.str(x, "id", id) || image.empty())
        return fail("images: " +
                    (r.error.empty() ? "an entry is not an object naming an image" : r.error));
      // fbc writes one entry per image a run used: a list longer than the
      // rows kept is not one of its manifests, and is refused, not cut
      // unsaid.
      if (m.images.size() >= limits.maxRows)
        return fail("images: more than " + std::to_string(limits.maxRows) + " entries");
      m.images.emplace_back(std::move(image), std::move(id));
    }
  }
  element tests;
  // The counts come from every row, kept or not: what inspect and report
  // show cannot disagree with the rows.
  Summary tally;
  if (!o["tests"].get(tests) && !tests.is_null()) {
    simdjson::dom::array rows;
    if (tests.get(rows))
      return fail("\"tests\" is not an array");
    size_t i = 0;
    for (element e : rows) {
      object row;
      if (e.get(row))
        return fail("tests[" + std::to_string(i) + "] is not an object");
      ++tally.total;
      if (m.tests.size() >= limits.maxRows) { // counted, not kept
        std::string outcome;
        if (!r.str(row, "outcome", outcome))
          return fail("tests[" + std::to_string(i) + "]: " + r.error);
        tally.add(outcome);
        ++m.rowsNotKept;
        ++i;
        continue;
      }
      TestRow t;
      std::string leafId;
      bool hasLeaf = !row["leaf_id"].get(ignored);
      if (!r.str(row, "name", t.name) || !r.str(row, "outcome", t.outcome) ||
          !r.i64(row, "duration_ms", t.durationMs) || !r.u64(row, "seed", t.seed) ||
          !r.str(row, "expectation", t.expectation) || !r.str(row, "reason", t.reason) ||
          !r.str(row, "code", t.code) || !r.str(row, "leaf_id", leafId) ||
          !r.indexMap(row, "leaf_choices", t.leaf.choices) ||
          !r.stringMap(row, "leaf_choice_values", t.leaf.choiceValues) ||
          !r.vectorMap(row, "leaf_probability_outcomes", t.leaf.probability) ||
          !r.indexMap(row, "leaf_interleavings", t.leaf.interleavings) ||
          !r.str(row, "leaf_schedule", t.leaf.schedule) ||
          !r.strings(row, "leaf_released", t.released) ||
          !r.str(row, "explore_coverage", t.coverage) ||
          !r.str(row, "explore_not_covered", t.notCovered))
        return fail("tests[" + std::to_string(i) + "]: " + r.error);
      // A leaf id is what fbc replay runs again (--leaf, schedules): a
      // number, or the row is refused.
      if (hasLeaf && !leafId.empty()) {
        if (!parseLeafId(leafId))
          return fail("tests[" + std::to_string(i) +
                      "]: \"leaf_id\" is not a leaf id (\"0\", \"1\", ...)");
        t.leafId = leafId;
      }
      tally.add(t.outcome);
      m.tests.push_back(std::move(t));
      ++i;
    }
  }
  uint64_t notRun = 0;
  element summary;
  if (!o["summary"].get(summary)) {
    object s;
    if (summary.get(s))
      return fail("\"summary\" is not an object");
    if (!r.u64(s, "not_run", notRun))
      return fail("summary: " + r.error);
  }
  element merged;
  if (!o["merged_from"].get(merged)) {
    simdjson::dom::array a;
    if (merged.get(a))
      return fail("\"merged_from\" is not an array");
    for (element e : a) {
      object x;
      std::string bundle, runId;
      if (e.get(x) || !r.str(x, "bundle", bundle) || !r.str(x, "run_id", runId))
        return fail("merged_from: " + (r.error.empty() ? "an entry is not an object" : r.error));
      m.mergedFrom.emplace_back(std::move(bundle), std::move(runId));
    }
    element leaves;
    simdjson::dom::array la;
    if (!o["not_run_leaves"].get(leaves)) {
      if (leaves.get(la))
        return fail("\"not_run_leaves\" is not an array");
      for (element e : la) {
        std::string_view v;
        if (e.get(v))
          return fail("not_run_leaves: an entry is not a string");
        m.notRunLeaves.emplace_back(v);
      }
    }
  }
  tally.notRun = notRun;
  // A leaf schedule is an explored run's, and an explored run writes its
  // explore settings: without them the manifest written back (merge,
  // replay) would carry settings it refuses (found by manifest_fuzz).
  bool scheduled = std::any_of(m.tests.begin(), m.tests.end(),
                               [](const TestRow &t) { return !t.leaf.schedule.empty(); });
  if (scheduled && m.explore.budget == 0)
    return fail("a row has a leaf_schedule, but the manifest has no \"explore\" settings");
  m.summary = tally;
  m.leafFieldsNotKept = r.dropped;
  return m;
}

} // namespace fbc::bundle
