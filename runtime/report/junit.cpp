#include "runtime/report/junit.h"

#include "ir/leaf_program.h"
#include "ir/quote.h"
#include "runtime/report/report.h"

#include <cstdio>
#include <optional>
#include <string_view>

namespace fbc::rt {

namespace {

// XML 1.0 text or attribute value: the five specials escaped; a byte that
// is not valid UTF-8 and a control character XML cannot hold (everything
// below 0x20 but tab, newline and carriage return) become U+FFFD, so the
// document always parses.
std::string xml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = ir::validUtf8Length(s, i);
    if (n == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      out += "\xEF\xBF\xBD";
      i += n ? n : 1;
      continue;
    }
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    case '\n':
    case '\r':
    case '\t':
      out += c;
      break;
    default:
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string seconds(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ms / 1000),
                static_cast<long long>(ms % 1000));
  return buf;
}

// The <failure>/<error> body: the reason, the row's code and its
// suggestion, the traceback, the replay line, the services that died and
// their last output.
std::string detail(const RunReport &r, const TestOutcome &t) {
  std::optional<ir::DiagCode> code = rowCode(t);
  return t.reason + "\n" + (code ? codeLine(*code) + "\n" : "") + tracebackAndReplay(r, t, "") +
         serviceExitLines(r, t, "");
}

// The testcase's <properties>: fault_bypassed, then the row's code.
std::string rowProperties(const TestOutcome &t) {
  std::string props;
  if (t.outcomeWord() == "fault_bypassed")
    props += "        <property name=\"fault_bypassed\" value=\"true\"/>\n";
  if (std::optional<ir::DiagCode> code = rowCode(t))
    props +=
        "        <property name=\"code\" value=\"" + std::string(ir::codeName(*code)) + "\"/>\n";
  return props.empty() ? "" : "      <properties>\n" + props + "      </properties>\n";
}

} // namespace

std::vector<JUnitCase> junitCases(const RunReport &r) {
  std::string spec = xml(r.starFile);
  std::vector<JUnitCase> cases;
  cases.reserve(r.tests.size());
  for (const TestOutcome &t : r.tests) {
    std::string name = t.leaf ? ir::leafDisplayName(t.name, t.leaf->id, t.leaf->label) : t.name;
    // status: the row's outcome word (passed, fault_bypassed, failed,
    // expectation_violated, ...), the one name every output gives it.
    std::string out = "    <testcase name=\"" + xml(name) + "\" classname=\"" + spec +
                      "\" time=\"" + seconds(t.durationMs) + "\" status=\"" + t.outcomeWord() +
                      "\"";
    std::string body = rowProperties(t);
    switch (t.result) {
    case Result::Pass:
      if (t.outcomeWord() == "fault_bypassed") {
        std::string why = "fault_bypassed: the test passed, but its fault never fired:";
        const char *sep = " ";
        for (const FaultSummary *f : t.bypassedRules()) {
          why.append(sep).append(f->bypassedText());
          sep = "; ";
        }
        body += "      <skipped message=\"" + xml(why) + "\"/>\n";
      }
      break;
    case Result::Fail: {
      std::string word = t.outcomeWord();
      body += "      <failure message=\"" + xml(t.reason) + "\" type=\"" +
              (word == "failed" ? "fail" : word) + "\">" + xml(detail(r, t)) + "</failure>\n";
      break;
    }
    case Result::Error:
    case Result::Inconclusive:
      body += "      <error message=\"" + xml(t.reason) + "\" type=\"" + resultName(t.result) +
              "\">" + xml(detail(r, t)) + "</error>\n";
      break;
    case Result::Halted:
      body += "      <skipped message=\"" + xml(t.reason) + "\"/>\n";
      break;
    }
    // A fault_bypassed row's rules that never fired, then the decisions.
    std::string decisions;
    if (t.outcomeWord() == "fault_bypassed")
      for (const FaultSummary *f : t.bypassedRules())
        decisions += "fault_bypassed: " + f->bypassedText() + "\n";
    for (const TraceEvent &e : t.events)
      if (isRuleDecision(e))
        decisions += syscallDecisionLine(r, e) + "\n";
    if (!decisions.empty())
      body += "      <system-out>" + xml(decisions) + "</system-out>\n";
    out += body.empty() ? "/>\n" : ">\n" + body + "    </testcase>\n";
    cases.push_back({t.outcomeWord(), std::move(out)});
  }
  return cases;
}

std::string junitDocument(const JUnitSuite &suite, const std::vector<JUnitCase> &cases) {
  // The one tally of outcome words (failed includes expectation_violated,
  // passed includes fault_bypassed): a fault_bypassed row is a pass that
  // tested nothing, shown skipped, the way CI dashboards show a test that
  // did not do its job.
  ResultCounts c;
  for (const JUnitCase &k : cases)
    c.add(k.status);
  std::string counts =
      " tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(c.failed) +
      "\" errors=\"" + std::to_string(c.errored + c.inconclusive) + "\" skipped=\"" +
      std::to_string(c.halted + c.faultBypassed) + "\" time=\"" + seconds(suite.wallMs) + "\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"fbc\"" + counts + ">\n";
  out += "  <testsuite name=\"" + xml(suite.name) + "\"" + counts + ">\n";
  out += "    <properties>\n";
  out += "      <property name=\"seed\" value=\"" + std::to_string(suite.seed) + "\"/>\n";
  for (const auto &[k, v] : suite.properties)
    out += "      <property name=\"" + xml(k) + "\" value=\"" + xml(v) + "\"/>\n";
  // fbc's exit code counts a fault_bypassed row among the passes; JUnit
  // shows it skipped (above), and the property says how many there are.
  if (c.faultBypassed)
    out += "      <property name=\"fault_bypassed\" value=\"" + std::to_string(c.faultBypassed) +
           "\"/>\n";
  out += "    </properties>\n";
  for (const JUnitCase &k : cases)
    out += k.xml;
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

std::string formatJUnit(const RunReport &r,
                        const std::vector<std::pair<std::string, std::string>> &properties) {
  // The suite's time is the run's wall time: under -j the rows overlap,
  // and their sum is not how long the suite took.
  return junitDocument({r.starFile, r.seed, r.durationMs, properties}, junitCases(r));
}

std::optional<std::vector<JUnitCase>> junitCasesOf(std::string_view doc) {
  // Every <testcase> junitCases() wrote starts a line with "    <testcase ";
  // no line inside one can (a '<' in text is escaped), so a case runs from
  // one such line to the next, the last one to the suite's end.
  constexpr std::string_view kOpen = "\n    <testcase ", kEnd = "\n  </testsuite>\n";
  constexpr std::string_view kStatus = "\" status=\"";
  size_t end = doc.rfind(kEnd);
  if (end == std::string_view::npos || !doc.starts_with("<?xml"))
    return std::nullopt;
  std::vector<size_t> starts;
  for (size_t p = doc.find(kOpen); p != std::string_view::npos && p < end;
       p = doc.find(kOpen, p + 1))
    starts.push_back(p + 1);
  std::vector<JUnitCase> cases;
  for (size_t i = 0; i < starts.size(); ++i) {
    size_t stop = i + 1 < starts.size() ? starts[i + 1] : end + 1;
    std::string_view text = doc.substr(starts[i], stop - starts[i]);
    size_t s = text.find(kStatus), line = text.find('\n');
    if (s == std::string_view::npos || s > line)
      return std::nullopt;
    size_t from = s + kStatus.size(), q = text.find('"', from);
    cases.push_back({std::string(text.substr(from, q - from)), std::string(text)});
  }
  return cases;
}

} // namespace fbc::rt
