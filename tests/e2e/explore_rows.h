// The rows of an `fbc run --format=json` report of an explored test
// (explore_e2e_test.cpp, explore_servers_e2e_test.cpp): each leaf's name,
// id, result, reason, schedule label and released calls.
#pragma once

#include <string>
#include <vector>

namespace fbc::rt::e2e {

struct Row {
  std::string name, id, result, reason, schedule;
  std::string coverage; // explore_coverage's statement (a dpor test's last leaf)
  std::vector<std::string> released;
};

// The rows of `json` (a test failure when it is not JSON).
std::vector<Row> rowsOf(const std::string &json);

// "[leaf 3] fail 0.1.1: app/t0#0 recvfrom app/t0#1 write ...", one line per
// row: what a golden of an exploration compares.
std::string rowLines(const std::vector<Row> &rows);

} // namespace fbc::rt::e2e
