// What `fbc run` prints: the text report (one block per test, the fault
// matrix table, the closing count line) and the JSON report (the
// reference's trace.json version 2 shape). Both are deterministic given the
// results: keys in a fixed order, tests in execution order, services in
// topological order.
#pragma once

#include "ir/json_writer.h"
#include "runtime/trace/outcome.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::rt {

std::string formatTextReport(const RunReport &r);
// The same text in the pieces `fbc run` prints as the run goes: the head
// before the first test, each row's block as the row is recorded (matrix
// cells have none: they go into the tail's tables), then the tail. Their
// concatenation is formatTextReport().
std::string textReportHead(uint64_t seed);
std::string textReportRow(const RunReport &r, const TestOutcome &t);
std::string textReportTail(const RunReport &r);
std::string formatJsonReport(const RunReport &r);

// `s` with each control character but newline and tab (ESC, CR, BS, DEL,
// NUL...) spelled \xNN: what fbc prints for a human shows a test name, a
// reason or a bundle's string as text, never as a terminal command.
std::string escapeControls(std::string_view s);
// `s` as one single-quoted shell word, always quoted ('\'' for a quote).
std::string singleQuoted(std::string_view s);
// `s` as one shell word: as is when it holds only characters no shell
// treats specially (letters, digits, _ - . / : = @ % + ,), else single-quoted
// ('\'' for a quote). Every command fbc prints for pasting goes through it.
std::string shellWord(std::string_view s);
// "fbc run spec.star --test test_x --seed 7 --leaf 3": the row again, each
// word shell-quoted (a test or file name cannot run a command when pasted).
std::string replayCommand(const RunReport &r, const TestOutcome &t);
// A failed or timed-out row's "traceback (most recent call last):" and its
// frames, then (failures) "replay: <replayCommand>", each line after
// `indent` (frames two spaces further).
std::string tracebackAndReplay(const RunReport &r, const TestOutcome &t, std::string_view indent);
// Each service that exited on its own during the row ("service kv exited
// during the test: killed by SIGABRT"; an error row's reason says it
// already) or did not start, with the last lines of its stdout and stderr
// ("kv stderr (last 2 lines):", each line after "  | "), each line after
// `indent`.
std::string serviceExitLines(const RunReport &r, const TestOutcome &t, std::string_view indent);
// Whether `e` is a syscall a rule decided other than allow: the lines of
// the text report's "syscall trace" (and of JUnit's system-out).
bool isRuleDecision(const TraceEvent &e);
// "#9  kv           write            deny(input/output error)  /srv/kv.wal".
std::string syscallDecisionLine(const RunReport &r, const TraceEvent &e);

// The JSON report's header, written after its opening brace: version,
// star_file, seed, duration_ms, the counts (writeCountFields), then
// interrupted and not_run when interrupted. formatJsonReport and fbc merge
// write it through here.
struct JsonReportHeader {
  std::string_view starFile;
  uint64_t seed = 0;
  int64_t durationMs = 0;
  ResultCounts counts;
  bool interrupted = false;
  uint64_t notRun = 0;
};
void writeJsonReportHeader(ir::JsonWriter &w, const JsonReportHeader &h);

// One cell of the JSON report's matrix. `bypassedRules`, when set, writes
// the cell's "bypassed_rules" (key and value).
struct JsonMatrixCell {
  std::string_view scenario, fault, outcome, expectation;
  bool passed = false;
  int64_t durationMs = 0;
  std::function<void(ir::JsonWriter &)> bypassedRules;
};
// The JSON report's "matrix" (key and object): the scenario and fault lists
// of each fault matrix (scenarios, faults), in declaration order, joined with
// the first appearance of a name kept; the cells in that order; total,
// passed, failed. formatJsonReport and fbc merge (which rebuilds the matrix
// of merged rows) write it through here.
using MatrixAxes =
    std::vector<std::pair<const std::vector<std::string> *, const std::vector<std::string> *>>;
void writeJsonMatrix(ir::JsonWriter &w, const MatrixAxes &axes,
                     const std::vector<JsonMatrixCell> &cells);

// "code: TEST_TIMEOUT (Find where the body waited ...)": a row's code
// (rowCode) and its suggestion, as the text report and JUnit print it.
std::string codeLine(ir::DiagCode code);

// "9 passed (1 fault_bypassed)": a count and the fault_bypassed rows among
// it (the text report's closing line and matrix, `fbc inspect`).
std::string passedCount(uint64_t passed, uint64_t bypassed);

// A fault matrix's rows by (scenario, fault), its names in first-row order.
struct MatrixView {
  std::vector<std::string> scenarios, faults;
  std::map<std::pair<std::string, std::string>, const TestOutcome *> cells;
};
// The report's matrices by index.
std::map<uint32_t, MatrixView> matrices(const RunReport &r);
// The counts of the JSON report's header (`pass`, `fail` = failed +
// errored, then `fault_bypassed`, `inconclusive`, `halted` when not 0), as
// formatJsonReport and fbc merge write them.
void writeCountFields(ir::JsonWriter &w, const ResultCounts &c);

// 0 every test passed, 2 any fail or error, 3 only inconclusive ones.
int exitCodeFor(const RunReport &r);

} // namespace fbc::rt
