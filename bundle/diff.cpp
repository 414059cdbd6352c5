// `fbc diff`: see diff.h.
#include "bundle/diff.h"

#include "bundle/inspect.h"
#include "bundle/trace_reader.h"
#include "ir/json_writer.h"
#include "ir/quote.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace fbc::bundle {

namespace {

// ":12345" -> ":PORT" (2 to 5 digits after a colon, not followed by a digit).
std::string maskPorts(const std::string &s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ':') {
      size_t j = i + 1;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
        ++j;
      if (j - i - 1 >= 2 && j - i - 1 <= 5) {
        out += ":PORT";
        i = j - 1;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// "/tmp/<name>" -> "/tmp/TMP"; a "fbc-scratch-<x>" word, or a bundle name
// "run-<digit>...", keeps its prefix only.
std::string maskTempPaths(std::string s) {
  for (size_t at = s.find("/tmp/"); at != std::string::npos; at = s.find("/tmp/", at + 5)) {
    size_t begin = at + 5, end = begin;
    while (end < s.size() && s[end] != '/' && s[end] != ' ' && s[end] != '"' && s[end] != '\'')
      ++end;
    s.replace(begin, end - begin, "TMP");
  }
  for (std::string_view prefix : {"fbc-scratch-", "run-"}) {
    for (size_t at = s.find(prefix); at != std::string::npos; at = s.find(prefix, at + 1)) {
      size_t begin = at + prefix.size(), end = begin;
      if (prefix == "run-" &&
          (begin >= s.size() || !std::isdigit(static_cast<unsigned char>(s[begin]))))
        continue;
      while (end < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '-' || s[end] == '_'))
        ++end;
      if (end > begin)
        s.replace(begin, end - begin, "X");
    }
  }
  return s;
}

// One event as a line; volatile fields dropped when normalising.
std::string eventLine(const TraceEventRow &e, bool normalize) {
  const std::string &type = !e.eventType.empty() ? e.eventType : e.type;
  std::string line = (e.service.empty() ? std::string("-") : e.service) + " " +
                     (type.empty() ? std::string("?") : type);
  std::map<std::string, std::string> sorted;
  for (const auto &[k, v] : e.fields)
    if (!normalize || !volatileField(k))
      sorted[k] = v;
  for (const auto &[k, v] : sorted)
    line += " " + k + "=" + ir::quote(v);
  return normalize ? normalizeEventLine(std::move(line)) : line;
}

} // namespace

bool volatileField(std::string_view key) {
  static constexpr std::string_view kKeys[] = {"pid", "latency_us", "duration_ms"};
  return std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
}

std::string normalizeEventLine(std::string line) {
  return maskTempPaths(maskPorts(line));
}

llvm::Expected<std::vector<DiffRow>> readDiffRows(const std::string &path, bool normalize) {
  llvm::Expected<OpenedBundle> b = openBundle(path);
  if (!b)
    return b.takeError();
  llvm::Expected<std::vector<TraceRow>> traced = readTraceRows(*b);
  if (!traced)
    return traced.takeError();
  // manifest.json's outcome word per row (name, leaf id).
  std::map<std::pair<std::string, std::string>, std::string> outcomes;
  for (const TestRow &r : b->manifest.tests)
    outcomes[{r.name, r.leafId.value_or("")}] = r.outcome;
  std::vector<DiffRow> rows;
  for (const TraceRow &t : *traced) {
    DiffRow row;
    row.key = t.name;
    if (t.leafId)
      row.key += " [leaf " + *t.leafId + "]";
    auto it = outcomes.find({t.name, t.leafId.value_or("")});
    row.outcome = it != outcomes.end() ? it->second : t.result;
    for (const TraceEventRow &e : t.events)
      row.events.push_back(eventLine(e, normalize));
    rows.push_back(std::move(row));
  }
  return rows;
}

BundleDiff diffRows(const std::vector<DiffRow> &a, const std::vector<DiffRow> &b) {
  BundleDiff d;
  d.rowsA = a.size();
  d.rowsB = b.size();
  std::map<std::string, const DiffRow *> inB;
  for (const DiffRow &r : b)
    inB[r.key] = &r;
  std::set<std::string> seen;
  for (const DiffRow &ra : a) {
    seen.insert(ra.key);
    auto it = inB.find(ra.key);
    RowDiff rd;
    rd.key = ra.key;
    rd.outcomeA = ra.outcome;
    if (it == inB.end()) {
      d.changed.push_back(std::move(rd));
      continue;
    }
    const DiffRow &rb = *it->second;
    rd.outcomeB = rb.outcome;
    size_t n = std::max(ra.events.size(), rb.events.size());
    for (size_t i = 0; i < n; ++i) {
      const std::string *ea = i < ra.events.size() ? &ra.events[i] : nullptr;
      const std::string *eb = i < rb.events.size() ? &rb.events[i] : nullptr;
      if (ea && eb && *ea == *eb)
        continue;
      rd.divergence = i;
      rd.eventA = ea ? *ea : "";
      rd.eventB = eb ? *eb : "";
      break;
    }
    if (rd.outcomeA != rd.outcomeB || rd.divergence != std::string::npos)
      d.changed.push_back(std::move(rd));
  }
  for (const DiffRow &rb : b)
    if (!seen.count(rb.key)) {
      RowDiff rd;
      rd.key = rb.key;
      rd.outcomeB = rb.outcome;
      d.changed.push_back(std::move(rd));
    }
  return d;
}

void emitDiffText(const BundleDiff &d, const std::string &a, const std::string &b,
                  llvm::raw_ostream &os) {
  os << "--- " << a << " (" << d.rowsA << " rows)\n+++ " << b << " (" << d.rowsB << " rows)\n";
  for (const RowDiff &r : d.changed) {
    if (r.outcomeB.empty() && r.divergence == std::string::npos && !r.outcomeA.empty()) {
      os << r.key << ": only in A (" << r.outcomeA << ")\n";
      continue;
    }
    if (r.outcomeA.empty()) {
      os << r.key << ": only in B (" << r.outcomeB << ")\n";
      continue;
    }
    os << r.key << ": " << r.outcomeA;
    if (r.outcomeA != r.outcomeB)
      os << " -> " << r.outcomeB;
    else
      os << " (same outcome, the trace differs)";
    os << '\n';
    if (r.divergence != std::string::npos) {
      os << "  first divergence at event " << r.divergence + 1 << ":\n";
      os << "  - " << (r.eventA.empty() ? "(trace ended)" : r.eventA) << '\n';
      os << "  + " << (r.eventB.empty() ? "(trace ended)" : r.eventB) << '\n';
    }
  }
  if (d.equal())
    os << "no differences\n";
  else
    os << d.changed.size() << (d.changed.size() == 1 ? " row differs\n" : " rows differ\n");
}

void emitDiffJson(const BundleDiff &d, const std::string &a, const std::string &b,
                  llvm::raw_ostream &os) {
  ir::JsonWriter w(os);
  w.beginObject();
  w.field("a", a);
  w.field("b", b);
  w.field("rows_a", uint64_t(d.rowsA));
  w.field("rows_b", uint64_t(d.rowsB));
  w.field("equal", d.equal());
  w.key("changed").beginArray();
  for (const RowDiff &r : d.changed) {
    w.beginObject();
    w.field("row", r.key);
    if (r.outcomeA.empty())
      w.nullField("outcome_a");
    else
      w.field("outcome_a", r.outcomeA);
    if (r.outcomeB.empty())
      w.nullField("outcome_b");
    else
      w.field("outcome_b", r.outcomeB);
    w.field("outcome_changed", r.outcomeA != r.outcomeB);
    if (r.divergence != std::string::npos) {
      w.key("divergence").beginObject();
      w.field("event", uint64_t(r.divergence + 1));
      w.field("a", r.eventA);
      w.field("b", r.eventB);
      w.endObject();
    }
    w.endObject();
  }
  w.endArray();
  w.endObject();
  w.finish();
}

} // namespace fbc::bundle
