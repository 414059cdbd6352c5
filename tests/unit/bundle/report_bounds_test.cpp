// `fbc report` bounds what it renders (issue #31: a 10 KB hostile bundle
// OOM-killed the report at 2 GiB, a 4 KB one made a 403 MB page): rows,
// trace entries, list elements, strings, nesting, texts and the data in all
// are cut at ReportLimits, each cut is counted in the data's "cuts" (the
// page's banner), and the manifest keeps only the rows the page shows.
#include "bundle/manifest.h"
#include "bundle/report_html.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

std::string manifestWith(size_t rows, const std::string &reason = "") {
  std::string m = R"({"schema_version": 1, "fbc_version": "0.1.0", "run_id": "r",
    "created_at": "t", "seed": 1, "spec_root": "s.star", "spec_entry": "spec/s.star", "tests": [)";
  for (size_t i = 0; i < rows; ++i)
    m += std::string(i ? "," : "") + R"({"name": "test_)" + std::to_string(i) +
         R"(", "outcome": ")" + (i % 2 ? "failed" : "passed") + R"(", "reason": ")" + reason +
         R"("})";
  return m + "]}";
}

Contents bundleOf(std::string manifest, std::string trace = "") {
  Contents c;
  c.entries.push_back({"manifest.json", std::move(manifest)});
  if (!trace.empty())
    c.entries.push_back({"trace.json", std::move(trace)});
  return c;
}

std::string data(const Contents &c, const ReportLimits &l, std::vector<std::string> &cuts) {
  llvm::Expected<std::string> d = reportData(c, "run.fb", l, &cuts);
  EXPECT_TRUE(bool(d)) << llvm::toString(d.takeError());
  return d ? *d : "";
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = 0; (p = s.find(what, p)) != std::string::npos; p += what.size())
    ++n;
  return n;
}

TEST(ManifestLimits, RowsPastTheLimitAreCountedNotKept) {
  llvm::Expected<Manifest> m = parseManifest(manifestWith(50), ManifestLimits{10, SIZE_MAX});
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_EQ(m->tests.size(), 10u);
  EXPECT_EQ(m->rowsNotKept, 40u);
  EXPECT_EQ(m->summary.total, 50u);
  EXPECT_EQ(m->summary.passed, 25u);
  EXPECT_EQ(m->summary.failed, 25u);
}

TEST(ManifestLimits, LeafFieldsPastTheLimitAreDropped) {
  std::string m = manifestWith(0);
  m.replace(m.rfind("[]"), 2,
            R"([{"name": "test_x", "outcome": "passed", "leaf_id": "0",
                 "leaf_choices": {"a": 1, "b": 2, "c": 3}, "leaf_released": ["x", "y", "z"]}])");
  llvm::Expected<Manifest> parsed = parseManifest(m, ManifestLimits{SIZE_MAX, 2});
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->tests[0].leaf.choices.size(), 2u);
  EXPECT_EQ(parsed->tests[0].released.size(), 2u);
  EXPECT_EQ(parsed->leafFieldsNotKept, 2u);
}

TEST(ReportBounds, RowsAreCutAndTheCutIsListed) {
  ReportLimits l;
  l.maxRows = 10;
  std::vector<std::string> cuts;
  std::string d = data(bundleOf(manifestWith(50)), l, cuts);
  EXPECT_EQ(count(d, "\"display\":\"test_"), 10u);
  EXPECT_NE(d.find("\"summary\":{\"total\":50,\"passed\":25,\"failed\":25"), std::string::npos);
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_EQ(cuts[0], "tests-table rows not shown (the page shows the first 10): 40");
  EXPECT_NE(d.find("\"cuts\":[\"tests-table rows not shown (the page shows the first 10): 40\"]"),
            std::string::npos);
}

TEST(ReportBounds, NothingCutMeansNoNotice) {
  std::vector<std::string> cuts;
  std::string d = data(bundleOf(manifestWith(3)), ReportLimits{}, cuts);
  EXPECT_TRUE(cuts.empty());
  EXPECT_NE(d.find("\"cuts\":[]}"), std::string::npos);
}

TEST(ReportBounds, LongStringsAreClippedAtACharacterAndSaySo) {
  ReportLimits l;
  l.maxString = 10;
  std::vector<std::string> cuts;
  // "é" is two bytes: byte 10 is in the middle of the fifth one.
  std::string d = data(bundleOf(manifestWith(1, "abcd\u00e9\u00e9\u00e9\u00e9")), l, cuts);
  EXPECT_NE(d.find("\"reason\":\"abcd\u00e9\u00e9\u00e9\u2026 [fbc: cut, 12 bytes in all]\""),
            std::string::npos)
      << d;
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_EQ(cuts[0], "strings cut to 10 bytes: 1");
}

TEST(ReportBounds, TraceEventsNestingAndFramesAreCut) {
  std::string events, deep = "1";
  for (int i = 0; i < 30; ++i)
    events += std::string(i ? "," : "") + "{\"seq\":" + std::to_string(i) + "}";
  for (int i = 0; i < 10; ++i)
    deep = "[" + deep + "]";
  std::string trace =
      R"({"tests": [{"name": "test_0", "events": [)" + events + R"(], "deep": )" + deep + "}]}";
  ReportLimits l;
  l.maxItems = 5;
  l.maxDepth = 4;
  std::vector<std::string> cuts;
  std::string d = data(bundleOf(manifestWith(1), trace), l, cuts);
  EXPECT_NE(d.find("\"events\":[{\"seq\":0},{\"seq\":1},{\"seq\":2},{\"seq\":3},{\"seq\":4}]"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("\"deep\":[[[\"[fbc: cut, nested too deep]\"]]]"), std::string::npos) << d;
  EXPECT_EQ(cuts, (std::vector<std::string>{
                      "array and object members not shown (each shows its first 5): 25",
                      "values nested deeper than 4 levels not shown: 1"}));
}

TEST(ReportBounds, TheDataStopsAtItsBudgetCountingTheScriptEscapes) {
  // 200 rows whose reasons are 1000 '<' each: 200,000 bytes of JSON, 1.2 MB
  // once the page escapes them.
  ReportLimits l;
  l.maxData = 100000;
  std::vector<std::string> cuts;
  std::string d = data(bundleOf(manifestWith(200, std::string(1000, '<'))), l, cuts);
  size_t escaped = escapeJsonForScript(d).size();
  EXPECT_LT(escaped, l.maxData + 2000) << escaped;
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_TRUE(cuts[0].starts_with("items not shown: the page's data reached its limit of 100000 "
                                  "bytes: "))
      << cuts[0];
}

// The shape of the audit's hostile bundles at a size a unit test can hold:
// many rows, many trace entries, many cells, each cheap in the bundle and
// costly on the page. The default limits keep the page small.
TEST(ReportBounds, AHostileBundleMakesABoundedPage) {
  std::string rows = "{\"schema_version\": 1, \"tests\": [";
  std::string traces = "{\"tests\": [";
  std::string cells = "], \"matrix\": {\"cells\": [";
  for (int i = 0; i < 200000; ++i) {
    rows +=
        i ? ",{\"name\":\"t\",\"outcome\":\"failed\"}" : "{\"name\":\"t\",\"outcome\":\"failed\"}";
    traces += i ? ",{\"name\":\"t\"}" : "{\"name\":\"t\"}";
    cells += i ? ",{}" : "{}";
  }
  Contents c = bundleOf(rows + "]}", traces + cells + "]}}");
  std::vector<std::string> cuts;
  llvm::Expected<std::string> page = renderReport(c, "run.fb", ReportLimits{}, &cuts);
  ASSERT_TRUE(bool(page)) << llvm::toString(page.takeError());
  EXPECT_LT(page->size(), 8u << 20) << page->size();
  EXPECT_NE(page->find("\"total\":200000"), std::string::npos);
  EXPECT_EQ(cuts, (std::vector<std::string>{
                      "tests-table rows not shown (the page shows the first 10000): 190000",
                      "trace.json entries not read (the page reads the first 10000): 190000",
                      "cells elements not shown (the page shows the first 10000): 190000"}));
}

} // namespace
} // namespace fbc::bundle
