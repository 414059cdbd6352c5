// `fbc run --junit FILE` (and Bazel's XML_OUTPUT_FILE): the run's rows as
// JUnit XML, the format CI systems read (docs/run.md "JUnit XML"). One
// <testsuite> named after the spec, one <testcase> per row (a test, a leaf,
// a matrix cell) with classname = the spec; a failed row's <failure> (an
// error's or inconclusive row's <error>, a halted row's <skipped>) carries
// the reason and traceback, and <system-out> the syscall decisions that
// were not allow. The XSD the tests validate it against is
// tests/e2e/junit/junit.xsd.
#pragma once

#include "runtime/trace/outcome.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fbc::rt {

// `properties`: extra <property> name/value pairs after "seed" (e.g. the
// shard), in the order given. The suite's time is the run's wall time (the
// rows overlap under -j); each testcase's is its row's.
std::string formatJUnit(const RunReport &r,
                        const std::vector<std::pair<std::string, std::string>> &properties = {});

// The parts formatJUnit() joins, for a document of rows from several runs
// (`fbc merge --junit`): one <testcase> element, as its lines, and the
// row's outcome word, which the suite's counts come from.
struct JUnitCase {
  std::string status;
  std::string xml;
};
std::vector<JUnitCase> junitCases(const RunReport &r);
struct JUnitSuite {
  std::string name; // the spec path as given
  uint64_t seed = 0;
  int64_t wallMs = 0;
  std::vector<std::pair<std::string, std::string>> properties;
};
std::string junitDocument(const JUnitSuite &suite, const std::vector<JUnitCase> &cases);
// The cases of a document formatJUnit() wrote, in order; nullopt when
// `doc` is not one.
std::optional<std::vector<JUnitCase>> junitCasesOf(std::string_view doc);

} // namespace fbc::rt
