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

#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

// `properties`: extra <property> name/value pairs after "seed" (e.g. the
// shard), in the order given.
std::string formatJUnit(const RunReport &r,
                        const std::vector<std::pair<std::string, std::string>> &properties = {});

} // namespace fbc::rt
