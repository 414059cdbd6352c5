// The text report (`fbc run`'s default output): one block per test as it
// ends, the fault matrix tables and the count line; and what the text and
// JSON (runtime/report/report_json.cpp) reports and JUnit share: the replay line,
// decision lines, the matrix view, counts and the exit code.
#include "runtime/report/report.h"

#include "frontend/lib/utf8.h"
#include "ir/leaf_program.h"
#include "ir/protocols.h"
#include "runtime/os/syscalls.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

namespace fbc::rt {
namespace {

std::string fmt(const char *f, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

std::string statusWord(Result r) {
  switch (r) {
  case Result::Pass:
    return "PASS";
  case Result::Fail:
    return "FAIL";
  case Result::Error:
    return "ERROR";
  case Result::Inconclusive:
    return "INCONCLUSIVE";
  case Result::Halted:
    return "HALTED";
  }
  return "ERROR";
}

std::string serviceName(const RunReport &r, ServiceId id) {
  if (id == kNoService)
    return "test";
  return id < r.serviceNames.size() ? r.serviceNames[id] : "service#" + std::to_string(id);
}

std::string decisionOf(const SyscallRecord &s) {
  if (s.systemPathExempt && !s.fired)
    return "allow (system path)";
  return describeAction(s.action);
}

std::string ruleText(const FaultSummary &f) {
  // A trace rule is an observation: the syscall and its filter say it all.
  std::string s = f.ruleText();
  if (!f.filter.empty())
    s += " → filter:[" + f.filter + "]";
  return s;
}

// A rule and its hits, as every faulted row prints it: "fault rule on db:
// write=deny(EIO) → filter:[...] (0 hits)", "proxy rule on api.public:
// error(...) (2 hits)". A trace rule observes: its hits show when it has any.
std::string ruleLine(const FaultSummary &f) {
  bool tracing = f.action == "trace";
  std::string line = f.isProtocolRule()
                         ? "proxy rule on " + f.target() + ": " + f.rule
                         : std::string(tracing ? "trace rule on " : "fault rule on ") + f.service +
                               ": " + ruleText(f);
  if (f.hits || !tracing)
    line += " (" + std::to_string(f.hits) + " hits)";
  return line;
}

} // namespace

std::string escapeControls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

std::string singleQuoted(std::string_view s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shellWord(std::string_view s) {
  bool plain = !s.empty();
  for (char c : s)
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) ||
                      std::string_view("_-./:=@%+,").find(c) != std::string_view::npos);
  return plain ? std::string(s) : singleQuoted(s);
}

std::string replayCommand(const RunReport &r, const TestOutcome &t) {
  return "fbc run " + shellWord(r.starFile) + " --test " + shellWord(t.name) + " --seed " +
         std::to_string(t.seed) + r.replayFlags +
         (t.leaf ? " --leaf " + shellWord(t.leaf->id) : "");
}

std::string tracebackAndReplay(const RunReport &r, const TestOutcome &t, std::string_view indent) {
  std::string s;
  if (!t.traceback.empty()) {
    s += indent;
    s += "traceback (most recent call last):\n";
    for (const std::string &frame : t.traceback) {
      s += indent;
      s += "  ";
      s += frame;
      s += '\n';
    }
  }
  if (t.result == Result::Fail) {
    s += indent;
    s += "replay: ";
    s += replayCommand(r, t);
    s += '\n';
  }
  return s;
}

std::string serviceExitLines(const RunReport &r, const TestOutcome &t, std::string_view indent) {
  std::string s;
  for (const TraceEvent &e : t.events) {
    if (e.type != EventType::ServiceStopped)
      continue;
    std::string name = serviceName(r, e.service);
    // An error row's reason already says why a service did not start.
    if (e.field("unexpected") == "true" && t.result != Result::Error)
      s += std::string(indent) + "service " + name + " exited during the test: " + e.field("exit") +
           "\n";
    for (const char *stream : {"stdout", "stderr"}) {
      std::string tail = e.field(stream);
      if (tail.empty())
        continue;
      size_t lines = static_cast<size_t>(std::count(tail.begin(), tail.end(), '\n')) + 1;
      s += std::string(indent) + name + " " + stream +
           (lines == 1 ? " (last line):\n" : " (last " + std::to_string(lines) + " lines):\n");
      for (size_t at = 0; at <= tail.size();) {
        size_t nl = std::min(tail.find('\n', at), tail.size());
        std::string_view line(tail.data() + at, nl - at);
        s += std::string(indent) + "  |" + (line.empty() ? "" : " ") + std::string(line) + "\n";
        at = nl + 1;
      }
    }
  }
  return s;
}

bool isRuleDecision(const TraceEvent &e) {
  return e.type == EventType::Syscall && decidedByRule(e.syscall.fired, e.syscall.action);
}

std::string syscallDecisionLine(const RunReport &r, const TraceEvent &e) {
  const SyscallRecord &s = e.syscall;
  std::string line = fmt("#%llu  %-12s %-16s %s", static_cast<unsigned long long>(e.seq),
                         serviceName(r, e.service).c_str(), std::string(syscallName(s.nr)).c_str(),
                         decisionOf(s).c_str());
  if (!s.label.empty())
    line += "  [" + s.label + "]";
  if (!s.path.empty())
    line += "  " + s.path;
  else if (!s.dest.empty())
    line += "  " + s.dest;
  if (s.action.kind == ActionKind::Delay)
    line += "  (+" + std::to_string(s.latencyNs / 1000000) + "ms" +
            (s.unanswered ? ", unanswered: its service stopped first)" : ")");
  return line;
}

std::string codeLine(ir::DiagCode code) {
  return "code: " + std::string(ir::codeName(code)) + " (" + std::string(ir::codeSuggestion(code)) +
         ")";
}

std::string passedCount(uint64_t passed, uint64_t bypassed) {
  std::string s = std::to_string(passed) + " passed";
  if (bypassed)
    s += " (" + std::to_string(bypassed) + " fault_bypassed)";
  return s;
}

std::map<uint32_t, MatrixView> matrices(const RunReport &r) {
  std::map<uint32_t, MatrixView> out;
  for (const TestOutcome &t : r.tests) {
    if (!t.matrix)
      continue;
    MatrixView &m = out[*t.matrix];
    if (std::find(m.scenarios.begin(), m.scenarios.end(), t.scenario) == m.scenarios.end())
      m.scenarios.push_back(t.scenario);
    if (std::find(m.faults.begin(), m.faults.end(), t.fault) == m.faults.end())
      m.faults.push_back(t.fault);
    m.cells[{t.scenario, t.fault}] = &t;
  }
  return out;
}

namespace {

// "PASS (fault_bypassed)": the outcome word beside the result it belongs to.
std::string rowStatus(const TestOutcome &t) {
  return statusWord(t.result) + (t.outcomeWord() == "fault_bypassed" ? " (fault_bypassed)" : "");
}

// What a fault_zero_traffic event said about rule `f`, indented.
void zeroTrafficLines(std::string &out, const FaultSummary &f, const std::string &indent) {
  out += indent + "fault_zero_traffic: " + f.hint + "\n";
  if (!f.seenPaths.empty())
    out += indent + "paths seen instead: " + f.seenPaths + "\n";
  if (!f.seenDestinations.empty())
    out += indent + "destinations seen instead: " + f.seenDestinations + "\n";
  if (!f.seenRequests.empty())
    out += indent + "requests seen instead: " + f.seenRequests + "\n";
}

// A rule and its hits (ruleLine), then, when it saw no traffic, why: as
// every faulted row lists it (test blocks, proxy rules, matrix failures).
void ruleLines(std::string &out, const FaultSummary &f, const std::string &indent) {
  out += indent + ruleLine(f) + "\n";
  if (f.zeroTraffic)
    zeroTrafficLines(out, f, indent + "  ");
}

// I/O the rules could not see (unmediated_io events): one line per service,
// category, syscall, detail and bypassed rule, in order of first
// occurrence, with how many calls it stands for.
void unmediatedLines(std::string &out, const RunReport &r, const TestOutcome &t) {
  std::vector<std::pair<std::string, uint64_t>> lines;
  for (const TraceEvent &e : t.events) {
    if (e.type != EventType::UnmediatedIo)
      continue;
    std::string line = "  unmediated_io[" + e.field("category") + "] from " +
                       serviceName(r, e.service) + ": " + e.field("syscall");
    if (std::string detail = e.field("detail"); !detail.empty())
      line += " " + detail;
    if (std::string rule = e.field("bypasses"); !rule.empty())
      line += " (bypasses the " + rule + " rule)";
    auto it =
        std::find_if(lines.begin(), lines.end(), [&](const auto &l) { return l.first == line; });
    if (it == lines.end())
      lines.emplace_back(std::move(line), 1);
    else
      ++it->second;
  }
  for (const auto &[line, n] : lines)
    out += line + (n == 1 ? "\n" : " (" + std::to_string(n) + " calls)\n");
}

// The proxy's decisions (one line per request a rule decided) and its
// rules with their hits, as the syscall lines below show syscall decisions.
void proxyLines(const RunReport &r, const TestOutcome &t, std::string &out) {
  size_t decided = 0;
  for (const TraceEvent &e : t.events)
    decided += e.type == EventType::Proxy;
  if (decided)
    out += "  proxy trace (" + std::to_string(decided) + " decisions):\n";
  for (const TraceEvent &e : t.events) {
    if (e.type != EventType::Proxy)
      continue;
    // The request's fields its protocol's codec feeds (ir/protocols.h):
    // "GET /orders/1", "get user:1", a query, a NATS subject.
    std::string what;
    if (const ir::Protocol *p = ir::findProtocol(e.field("protocol")))
      for (std::string_view k : {p->methodField, p->targetField})
        if (std::string v = k.empty() ? "" : e.field(k); !v.empty())
          what += (what.empty() ? "" : " ") + v;
    if (what.empty())
      what = e.field("bytes").empty() ? "connection" : e.field("bytes") + " bytes";
    std::string line = fmt("    #%llu  %-12s %s %s -> %s", static_cast<unsigned long long>(e.seq),
                           (serviceName(r, e.service) + "." + e.field("interface")).c_str(),
                           e.field("protocol").c_str(), what.c_str(), e.field("action").c_str());
    if (std::string st = e.field("status"); !st.empty())
      line += " " + st;
    if (std::string d = e.field("delay"); !d.empty())
      line += e.field("action") == "delay" ? " " + d : " (delayed " + d + ")";
    if (std::string l = e.field("label"); !l.empty())
      line += "  [" + l + "]";
    out += line + "\n";
  }
  for (const FaultSummary &f : t.faults)
    if (f.isProtocolRule())
      ruleLines(out, f, "  ");
}

// "syscall trace (N events; M allowed calls not listed):" and the calls a
// rule decided (deny, delay, trace), the first kMaxTraceLines of them: N
// counts the calls listed, M those allowed (counted, never listed).
void syscallTraceLines(std::string &out, const RunReport &r, const TestOutcome &t) {
  constexpr size_t kMaxTraceLines = 50;
  uint64_t allowed = 0, decided = 0;
  for (const auto &[svc, s] : t.syscallSummary)
    allowed += s.allowed;
  for (const TraceEvent &e : t.events)
    decided += isRuleDecision(e);
  if (!decided)
    return;
  auto count = [](uint64_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  out += "  syscall trace (" + count(decided, "event", "events");
  if (allowed)
    out += "; " + count(allowed, "allowed call", "allowed calls") + " not listed";
  out += "):\n";
  size_t listed = 0;
  std::string truncated; // where the trace stopped keeping events, if past the cut
  for (const TraceEvent &e : t.events) {
    if (e.type == EventType::TraceTruncated)
      (listed < kMaxTraceLines ? out : truncated) +=
          "    " + e.field("message") + " (" + e.field("dropped") + " more not kept)\n";
    if (isRuleDecision(e) && listed++ < kMaxTraceLines)
      out += "    " + syscallDecisionLine(r, e) + "\n";
  }
  if (listed > kMaxTraceLines)
    out += "    ... " + std::to_string(listed - kMaxTraceLines) + " more (see --format=json)\n";
  out += truncated;
}

// --runs N: "  runs: 3 of 3, none failed (seeds 1..3); the last is this
// row", or "  runs: run 2 of 10 (seed 2) failed; 1 passed before it".
std::string runsLine(const RunReport &r, const TestOutcome &t) {
  if (!t.runs)
    return "";
  const TestOutcome::Runs &n = *t.runs;
  if (t.result == Result::Fail || t.result == Result::Error)
    return "  runs: run " + std::to_string(n.run) + " of " + std::to_string(n.of) + " (seed " +
           std::to_string(t.seed) + ") " + (t.result == Result::Fail ? "failed" : "errored") +
           "; " + std::to_string(n.passedBefore) + " passed before it\n";
  return "  runs: " + std::to_string(n.run) + " of " + std::to_string(n.of) +
         ", none failed (seeds " + std::to_string(r.seed) + ".." + std::to_string(t.seed) +
         "); the last is this row\n";
}

// The last leaf of a dpor test: "  coverage: explored 6 classes of ..." and
// "  not covered: orderings inside a process ...".
std::string coverageLines(const TestOutcome &t) {
  if (!t.coverage)
    return "";
  return "  coverage: " + t.coverage->statement() +
         "\n  not covered: " + ExploreCoverage::notCovered() + "\n";
}

void testBlock(std::string &out, const RunReport &r, const TestOutcome &t) {
  out += "\n--- ";
  out += rowStatus(t);
  out += ": " + (t.leaf ? ir::leafDisplayName(t.name, t.leaf->id, t.leaf->label) : t.name);
  out += " (" + std::to_string(t.durationMs) + "ms) ---\n";
  out += runsLine(r, t);
  out += coverageLines(t);
  if (!t.reason.empty())
    out += "  reason: " + t.reason + "\n";
  if (std::optional<ir::DiagCode> code = rowCode(t))
    out += "  " + codeLine(*code) + "\n";
  out += tracebackAndReplay(r, t, "  ");
  out += serviceExitLines(r, t, "  ");
  syscallTraceLines(out, r, t);
  proxyLines(r, t, out);
  for (const FaultSummary &f : t.faults)
    if (!f.isProtocolRule()) // proxyLines' are above
      ruleLines(out, f, "  ");
  unmediatedLines(out, r, t);
  if (t.result == Result::Fail && !t.syscallSummary.empty()) {
    out += "  per-service syscall summary:\n";
    for (const auto &[svc, s] : t.syscallSummary) {
      std::string parts;
      for (const auto &[sc, n] : s.breakdown) {
        if (!parts.empty())
          parts += ' ';
        parts += sc;
        parts += ':';
        parts += std::to_string(n);
      }
      out += fmt("    %-12s %llu total, %llu faulted  [%s]\n", svc.c_str(),
                 static_cast<unsigned long long>(s.total),
                 static_cast<unsigned long long>(s.faulted), parts.c_str());
    }
  }
}

std::string padRight(const std::string &s, size_t w) {
  // Column widths count characters, not bytes (the cell text may hold "—").
  size_t chars = star::utf8::countRunes(s);
  return chars >= w ? s : s + std::string(w - chars, ' ');
}

std::string repeat(const char *s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

void matrixTable(std::string &out, const MatrixView &m) {
  size_t total = m.cells.size(), passed = 0, halted = 0, bypassed = 0;
  for (const auto &[k, t] : m.cells) {
    passed += t->result == Result::Pass;
    halted += t->result == Result::Halted;
    bypassed += t->outcomeWord() == "fault_bypassed";
  }
  auto cellText = [&](const std::string &s, const std::string &f) -> std::string {
    auto it = m.cells.find({s, f});
    if (it == m.cells.end())
      return "— (excluded)";
    const TestOutcome &t = *it->second;
    if (t.outcomeWord() == "fault_bypassed")
      return "fault_bypassed";
    if (t.result == Result::Pass)
      return "PASS (" + std::to_string(t.durationMs) + "ms)";
    return statusWord(t.result);
  };
  out += '\n';
  out += "Fault Matrix: " + std::to_string(m.scenarios.size()) + " scenarios × " +
         std::to_string(m.faults.size()) + " faults = " + std::to_string(total) + " cells\n\n";
  size_t scw = 8;
  for (const std::string &s : m.scenarios)
    scw = std::max(scw, s.size());
  scw += 2;
  std::vector<size_t> fcw;
  for (const std::string &f : m.faults) {
    size_t w = std::max<size_t>(14, f.size() + 2);
    // Wide enough for every word a cell may hold (a PASS cell's duration
    // may overflow it: widths must not depend on timing).
    for (const std::string &s : m.scenarios)
      if (std::string c = cellText(s, f); !c.starts_with("PASS ("))
        w = std::max(w, star::utf8::countRunes(c) + 1);
    fcw.push_back(w);
  }
  std::string line = padRight("", scw);
  for (size_t i = 0; i < m.faults.size(); ++i)
    line += "│ " + padRight(m.faults[i], fcw[i]);
  out += line + "\n";
  line = repeat("─", scw);
  for (size_t i = 0; i < m.faults.size(); ++i)
    line += "┼" + repeat("─", fcw[i] + 1);
  out += line + "\n";
  for (const std::string &s : m.scenarios) {
    line = padRight(s, scw);
    for (size_t i = 0; i < m.faults.size(); ++i)
      line += "│ " + padRight(cellText(s, m.faults[i]), fcw[i]);
    out += line + "\n";
  }
  out += '\n';
  out += "Result: " + std::to_string(passed) + "/" + passedCount(total, bypassed) + ", " +
         std::to_string(total - passed - halted) + " failed" +
         (halted ? ", " + std::to_string(halted) + " halted" : "") + "\n";
  bool header = false;
  for (const std::string &s : m.scenarios)
    for (const std::string &f : m.faults) {
      auto it = m.cells.find({s, f});
      if (it == m.cells.end() || it->second->result == Result::Pass ||
          it->second->result == Result::Halted)
        continue;
      if (!header)
        out += "Failures:\n";
      header = true;
      out += "  " + s + " × " + f + ": " + it->second->reason + "\n";
      // The cell's rules and their hits: a failure whose fault never
      // fired says so here, not only in the JSON.
      for (const FaultSummary &rule : it->second->faults)
        ruleLines(out, rule, "    ");
    }
  header = false;
  for (const std::string &s : m.scenarios)
    for (const std::string &f : m.faults) {
      auto it = m.cells.find({s, f});
      if (it == m.cells.end() || it->second->outcomeWord() != "fault_bypassed")
        continue;
      if (!header)
        out += "Fault bypassed (the cell passed, its fault never fired):\n";
      header = true;
      for (const FaultSummary *r : it->second->bypassedRules()) {
        out += "  " + s + " × " + f + ": " + r->target() + " " + r->ruleText() + "\n";
        zeroTrafficLines(out, *r, "    ");
      }
    }
}

} // namespace

std::string textReportHead(uint64_t seed) {
  return "Seed: " + std::to_string(seed) + "\n";
}

namespace {

bool shownWithShowFail(const TestOutcome &t) {
  return t.result != Result::Pass && t.result != Result::Halted;
}

} // namespace

std::string textReportRow(const RunReport &r, const TestOutcome &t) {
  std::string out;
  if (!t.matrix && (!r.showFailOnly || shownWithShowFail(t)))
    testBlock(out, r, t);
  return out;
}

std::string textReportTail(const RunReport &r) {
  std::string out;
  if (r.showFailOnly && std::none_of(r.tests.begin(), r.tests.end(), shownWithShowFail)) {
    uint64_t runs = 0;
    for (const TestOutcome &t : r.tests)
      runs += t.runs ? t.runs->run : 1;
    out += "\n--- PASS: all tests (" + std::to_string(runs) + "/" + std::to_string(runs) +
           " runs) ---\n";
  }
  for (const auto &[idx, m] : matrices(r))
    matrixTable(out, m);
  ResultCounts c = r.counts();
  out += '\n';
  out += passedCount(c.passed, c.faultBypassed);
  out += ", ";
  out += std::to_string(c.failed);
  out += " failed";
  if (c.errored)
    out += ", " + std::to_string(c.errored) + " errored";
  if (c.inconclusive)
    out += ", " + std::to_string(c.inconclusive) + " inconclusive";
  if (c.halted)
    out += ", " + std::to_string(c.halted) + " halted";
  if (r.interrupted)
    out += ", " + std::to_string(r.notRun) + " not run (interrupted)";
  out += "\n";
  return out;
}

std::string formatTextReport(const RunReport &r) {
  std::string out = textReportHead(r.seed);
  for (const TestOutcome &t : r.tests)
    out += textReportRow(r, t);
  return out + textReportTail(r);
}

int exitCodeFor(const RunReport &r) {
  ResultCounts c = r.counts();
  if (c.failed || c.errored)
    return 2;
  if (c.inconclusive)
    return 3;
  return 0;
}

void writeCountFields(ir::JsonWriter &w, const ResultCounts &c) {
  w.field("pass", c.passed);
  w.field("fail", c.failed + c.errored);
  if (c.faultBypassed)
    w.field("fault_bypassed", c.faultBypassed);
  if (c.inconclusive)
    w.field("inconclusive", c.inconclusive);
  if (c.halted)
    w.field("halted", c.halted);
}

} // namespace fbc::rt
