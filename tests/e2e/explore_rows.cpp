#include "tests/e2e/explore_rows.h"

#include "tests/e2e/fbc_run.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>

namespace fbc::rt::e2e {

std::vector<Row> rowsOf(const std::string &json) {
  std::vector<Row> out;
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  if (p.parse(json).get(doc)) {
    ADD_FAILURE() << "not JSON: " << json;
    return out;
  }
  for (simdjson::dom::element t : doc["tests"].get_array()) {
    Row r;
    std::string_view v;
    if (!t["name"].get(v))
      r.name = std::string(v);
    if (!t["leaf_id"].get(v))
      r.id = std::string(v);
    if (!t["result"].get(v))
      r.result = std::string(v);
    if (!t["reason"].get(v))
      r.reason = std::string(v);
    if (!t["leaf_schedule"].get(v))
      r.schedule = std::string(v);
    if (!t["explore_coverage"]["statement"].get(v))
      r.coverage = std::string(v);
    simdjson::dom::array a;
    if (!t["leaf_released"].get(a))
      for (simdjson::dom::element c : a)
        r.released.emplace_back(std::string_view(c));
    out.push_back(std::move(r));
  }
  return out;
}

bool bothReadFirst(const std::vector<std::string> &released, const ReadThenWrite &a,
                   const ReadThenWrite &b) {
  auto at = [&](const std::string &name) {
    return std::find(released.begin(), released.end(), name) - released.begin();
  };
  return at(a.read) < at(b.write) && at(b.read) < at(a.write);
}

void replaysTenTimesOutOfTen(const std::string &dir, const std::string &test, const Row &failing) {
  ASSERT_EQ(failing.result, "fail");
  for (int k = 0; k < 10; ++k) {
    FbcRun again = runFbc(
        {"replay", "run.fb", "--test", test, "--leaf", failing.id, "--format=json", "--no-bundle"},
        dir);
    EXPECT_EQ(again.exit, 2) << again.err;
    std::vector<Row> one = rowsOf(again.out);
    ASSERT_EQ(one.size(), 1u) << again.out;
    EXPECT_EQ(one[0].id, failing.id) << k;
    EXPECT_EQ(one[0].result, "fail") << k;
    EXPECT_EQ(one[0].reason, failing.reason) << k;
    EXPECT_EQ(one[0].released, failing.released) << k;
  }
}

std::string rowLines(const std::vector<Row> &rows) {
  std::string all;
  for (const Row &row : rows) {
    all.append("[leaf ").append(row.id).append("] ").append(row.result).append(" ");
    all.append(row.schedule).append(":");
    for (const std::string &c : row.released)
      all.append(" ").append(c);
    all.append("\n");
  }
  return all;
}

} // namespace fbc::rt::e2e
