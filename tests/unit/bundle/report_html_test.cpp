// bundle/report_html: the report's data (each row paired with its own leaf's
// trace, matrix cells with their own test, the plan in `fbc plan`'s words,
// traceback frames with their spec line), the script-safe escaping, and the
// page's determinism. The page in a real browser: tests/browser/.
#include "bundle/report_html.h"

#include <gtest/gtest.h>

namespace fbc::bundle {
namespace {

const char *kManifest = R"J({
  "schema_version": 1, "fbc_version": "0.1.0", "run_id": "r1", "created_at": "2026-12-04T17:00:00Z",
  "seed": 18446744073709551615, "spec_root": "dir/spec.star", "spec_entry": "spec/spec.star",
  "tests": [
    {"name": "test_x", "outcome": "passed", "duration_ms": 5, "seed": 1, "leaf_id": "0",  "leaf_choices": {"retries": 0}},
    {"name": "test_x", "outcome": "failed", "duration_ms": 6, "seed": 1, "leaf_id": "1",  "leaf_choices": {"retries": 1}},
    {"name": "test_matrix_s_f", "outcome": "expectation_violated", "duration_ms": 7, "seed": 1},
    {"name": "test_legacy", "outcome": "passed", "duration_ms": 1, "seed": 1, "leaf_id": "0",
     "leaf_probability_outcomes": {"wal": [true, false]}, "leaf_interleavings": {"a/b.star:7": 2}}
  ],
  "summary": {"not_run": 0}
})J";

// trace.json entries deliberately in another order than the manifest rows.
const char *kTrace = R"J({"version": 2, "tests": [
  {"name": "test_x", "leaf_id": "1", "leaf_choices": {"retries": 1}, "result": "fail",
   "traceback": ["dir/spec.star:3:5: in test_x", "<builtin>: in fault", "lib/util.star:2:1: in h"],
   "events": [{"seq": 1, "type": "service_started"}]},
  {"name": "test_matrix_s_f", "scenario": "s", "fault": "f", "result": "fail", "events": []},
  {"name": "test_x", "leaf_id": "0", "leaf_choices": {"retries": 0}, "result": "pass", "events": []},
  {"name": "test_legacy", "result": "pass", "events": []}
 ],
 "matrix": {"scenarios": ["s"], "faults": ["f"],
            "cells": [{"scenario": "s", "fault": "f", "passed": false, "outcome": "expectation_violated",
                       "duration_ms": 7}]}})J";

const char *kPlan = R"J({"schema_version": 1, "spec_path": "dir/spec.star",
  "determinism": {"level": "L1", "runtime": "default", "strict": true, "explicit": true},
  "tests": [{"name": "test_x", "kind": "def", "instances": 12, "compositions": [
      {"kind": "choose", "axes": [{"name": "retries", "values": ["0", "1"], "size": 2},
                                  {"name": "dyn", "values": null, "estimated": true}]},
      {"kind": "probability", "axes": [{"name": "db:fsync", "size": 4, "max_fires": 2,
                                        "probability": 0.25, "fault": "disk_full"}]},
      {"kind": "interleaving", "axes": [{"name": "spec.star:9", "size": 6, "branches": 3,
                                         "policy": "all"}]}],
    "expect": "(mixed)",
           "timeout" : "45s", "estimated" : true
}],
  "totals": {"instances": 12, "estimated": true},
  "topology": {"services": [{"name": "api"}, {"name": "db"}]},
  "coverage": {
  "edges": [{"from": "api", "to": "db", "protocol": "postgres", "via": "depends_on",
                          "fault_tests": ["test_x"]},
                         {"from": "api", "to": "redis", "via": "env"}],
               "uncovered_edges": 1
}
})J";

Contents bundleWith(bool plan) {
  Contents c;
  c.entries.push_back({"manifest.json", kManifest});
  c.entries.push_back({"trace.json", kTrace});
  if (plan)
    c.entries.push_back({"plan.json", kPlan});
  c.entries.push_back({"spec/lib/util.star", "def h():\n  fail()\n"});
  c.entries.push_back({"spec/spec.star", "a\nb\nc\n"});
  c.entries.push_back(
      {"services/api.stdout",
       "boot\n==> test_x [leaf 1 \u2014 retries=1] <==\nhello\n==> not a test <==\n"});
  return c;
}

std::string data(const Contents &c) {
  llvm::Expected<std::string> d = reportData(c, "run.fb");
  EXPECT_TRUE(bool(d)) << llvm::toString(d.takeError());
  return d ? *d : "";
}

std::string between(const std::string &s, const std::string &from, const std::string &to) {
  size_t a = s.find(from);
  if (a == std::string::npos)
    return "<missing " + from + ">";
  size_t b = s.find(to, a + from.size());
  return s.substr(a, b == std::string::npos ? std::string::npos : b + to.size() - a);
}

TEST(ReportData, RowsPairWithTheirOwnLeafTrace) {
  std::string d = data(bundleWith(true));
  EXPECT_EQ(
      between(d, "\"rows\":", "],\"traces\""),
      "\"rows\":["
      "{\"display\":\"test_x [leaf 0 \u2014 retries=0]\",\"name\":\"test_x\",\"leaf_id\":\"0\","
      "\"outcome\":\"passed\",\"duration_ms\":5,\"expectation\":\"\",\"reason\":\"\",\"trace\":2},"
      "{\"display\":\"test_x [leaf 1 \u2014 retries=1]\",\"name\":\"test_x\",\"leaf_id\":\"1\","
      "\"outcome\":\"failed\",\"duration_ms\":6,\"expectation\":\"\",\"reason\":\"\",\"trace\":0},"
      "{\"display\":\"test_matrix_s_f\",\"name\":\"test_matrix_s_f\",\"outcome\":"
      "\"expectation_violated\",\"duration_ms\":7,\"expectation\":\"\",\"reason\":\"\",\"trace\":1}"
      ","
      // A legacy row (the reference's maps); its trace
      // entry has no leaf fields and pairs by name.
      "{\"display\":\"test_legacy [leaf 0 \u2014 wal[10], b.star:7#2]\",\"name\":\"test_legacy\","
      "\"leaf_id\":\"0\",\"outcome\":\"passed\",\"duration_ms\":1,\"expectation\":\"\","
      "\"reason\":\"\",\"trace\":3}],\"traces\"");
  // Each trace names its own leaf, from its own fields.
  EXPECT_NE(d.find("{\"display\":\"test_x [leaf 1 \u2014 retries=1]\",\"frames\""),
            std::string::npos);
  EXPECT_NE(d.find("{\"display\":\"test_legacy\",\"frames\""), std::string::npos);
  // The seed is a string: it does not fit a JS number.
  EXPECT_NE(d.find("\"seed\":\"18446744073709551615\""), std::string::npos);
}

TEST(ReportData, TracebackFramesPointAtSpecLines) {
  std::string d = data(bundleWith(true));
  EXPECT_EQ(between(d, "\"frames\":[", "]"),
            "\"frames\":[{\"text\":\"dir/spec.star:3:5: in test_x\",\"spec\":1,\"line\":3},"
            "{\"text\":\"<builtin>: in fault\",\"spec\":-1,\"line\":0},"
            "{\"text\":\"lib/util.star:2:1: in h\",\"spec\":0,\"line\":2}]");
}

TEST(ReportData, MatrixCellsOpenTheirOwnRow) {
  std::string d = data(bundleWith(true));
  EXPECT_EQ(between(d, "\"matrix\":", "]}"),
            "\"matrix\":{\"scenarios\":[\"s\"],\"faults\":[\"f\"],\"cells\":[{\"scenario\":\"s\","
            "\"fault\":\"f\",\"outcome\":\"expectation_violated\",\"expectation\":\"\","
            "\"duration_ms\":7,\"row\":2}]}");
}

TEST(ReportData, PlanInPlanWords) {
  std::string d = data(bundleWith(true));
  EXPECT_EQ(
      between(d, "\"plan\":", ",\"specs\""),
      "\"plan\":{\"spec_path\":\"dir/spec.star\",\"determinism\":\"L1 (strict)\","
      "\"total\":\"Total: at least 12 plan instances\",\"estimated\":true,"
      "\"services\":[\"api\",\"db\"],\"tests\":[{\"name\":\"test_x\",\"kind\":\"def\","
      "\"instances\":\"at least 12 instances\",\"compositions\":["
      "{\"kind\":\"choose\",\"lines\":[\"retries: [0, 1]\",\"dyn: (computed \u2014 size "
      "unknown)\"]},"
      "{\"kind\":\"probability\",\"lines\":[\"db:fsync: max_fires=2 \u2192 4 outcomes (in "
      "disk_full)\"]},"
      "{\"kind\":\"interleaving\",\"lines\":[\"spec.star:9: 3 branches, interleavings=\\\"all\\\" "
      "\u2192 6 orderings\"]}],\"faults\":[],\"matrix_cells\":[],"
      "\"expect\":\"(mixed \u2014 per-cell overrides)\",\"timeout\":\"45s\"}],"
      "\"coverage\":{\"edges\":[{\"from\":\"api\",\"to\":\"db\",\"protocol\":\"postgres\","
      "\"via\":\"depends_on\",\"fault_tests\":[\"test_x\"],\"body_fault_tests\":[],"
      "\"covered\":true},"
      "{\"from\":\"api\",\"to\":\"redis\",\"protocol\":\"\",\"via\":\"env\",\"fault_tests\":[],"
      "\"body_fault_tests\":[],\"covered\":false}],\"uncovered\":1,\"covered_protocols\":[],"
      "\"uncovered_protocols\":[]},"
      "\"diagnostics\":[]},\"specs\"");
}

TEST(ReportData, ServiceLogsSplitByTest) {
  std::string d = data(bundleWith(true));
  EXPECT_EQ(between(d, "\"services\":[{", "]}]"),
            "\"services\":[{\"name\":\"api\",\"stdout\":[[\"\",\"boot\\n\"],[\"test_x [leaf 1 "
            "\u2014 retries=1]\",\"hello\\n==> not a test <==\\n\"]],\"stderr\":[]}]");
}

TEST(ReportData, NoPlanJsonIsNoPlanData) {
  std::string d = data(bundleWith(false));
  EXPECT_NE(d.find("\"plan\":null"), std::string::npos);
}

TEST(ReportData, BadEntriesAreNamed) {
  Contents none;
  llvm::Expected<std::string> d = reportData(none, "x.fb");
  ASSERT_FALSE(bool(d));
  EXPECT_EQ(llvm::toString(d.takeError()), "bundle has no manifest.json (not a .fb bundle?)");
  Contents bad = bundleWith(true);
  bad.entries[1].data = "{\"tests\": [";
  d = reportData(bad, "x.fb");
  ASSERT_FALSE(bool(d));
  EXPECT_EQ(llvm::toString(d.takeError()),
            "trace.json: not valid JSON (The JSON document has an improper structure: missing or "
            "superfluous commas, braces, missing keys, etc.)");
  bad.entries[1].data = "[]";
  d = reportData(bad, "x.fb");
  ASSERT_FALSE(bool(d));
  EXPECT_EQ(llvm::toString(d.takeError()), "trace.json: not a JSON object");
}

TEST(ReportHtml, EscapesForTheScriptElement) {
  EXPECT_EQ(escapeJsonForScript("{\"a\":\"</script><!--&\xE2\x80\xA8\xE2\x80\xA9\xE2\x80\xA7\"}"),
            "{\"a\":\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029\xE2\x80\xA7\"}");
}

TEST(ReportHtml, HostileStringsStayInsideTheDataAndBytesAreStable) {
  Contents c = bundleWith(true);
  std::string m = kManifest;
  m.replace(m.find("test_matrix_s_f"), 15, "</script><script>alert(1)</script>");
  c.entries[0].data = m;
  c.entries.push_back({"services/db.stderr", "<!-- </script> \xff bad utf-8"});
  llvm::Expected<std::string> page = renderReport(c, "run.fb");
  ASSERT_TRUE(bool(page)) << llvm::toString(page.takeError());
  size_t scripts = 0;
  for (size_t p = 0; (p = page->find("<script", p)) != std::string::npos; ++p)
    ++scripts;
  EXPECT_EQ(scripts, 2u);
  EXPECT_EQ(page->find("alert(1)</script>"), std::string::npos);
  EXPECT_EQ(page->find("<!-- </script>"), std::string::npos);
  EXPECT_NE(page->find("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"), std::string::npos);
  // Invalid UTF-8 from a service becomes U+FFFD.
  EXPECT_NE(page->find("\\ufffd bad utf-8"), std::string::npos);
  // No network: a CSP of hashes, nothing loaded from anywhere.
  EXPECT_NE(page->find("default-src 'none'; script-src 'sha256-"), std::string::npos);
  EXPECT_EQ(page->find("http://"), page->find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(page->find("https://"), std::string::npos);
  llvm::Expected<std::string> again = renderReport(c, "run.fb");
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(*page, *again);
}

} // namespace
} // namespace fbc::bundle
