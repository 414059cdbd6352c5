// The rows of an `fbc run --format=json` report of an explored test
// (explore_e2e_test.cpp, explore_servers_e2e_test.cpp): each leaf's name,
// id, result, reason, schedule label and released calls; the race they
// look for, and the replay of a failing leaf.
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

// A thread's read of a shared value and its write of what it computed
// from it, by their released names ("counter/t0#1 pread64").
struct ReadThenWrite {
  std::string read, write;
};

// Whether each of the two threads read before the other wrote (`released`
// in release order; a call not released counts as after every call): both
// acted on what they read before either acted, the lost update.
bool bothReadFirst(const std::vector<std::string> &released, const ReadThenWrite &a,
                   const ReadThenWrite &b);

// `fbc replay run.fb --test <test> --leaf <failing.id>` in `dir`, 10 times:
// each runs that one leaf, which fails again with the same reason and the
// same calls in the same order.
void replaysTenTimesOutOfTen(const std::string &dir, const std::string &test, const Row &failing);

// "[leaf 3] fail 0.1.1: app/t0#0 recvfrom app/t0#1 write ...", one line per
// row: what a golden of an exploration compares.
std::string rowLines(const std::vector<Row> &rows);

} // namespace fbc::rt::e2e
