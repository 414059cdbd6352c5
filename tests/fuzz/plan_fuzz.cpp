// libFuzzer target: plan.json as `fbc report` reads it (bundle/report_html.h
// reportData: the Plan tab's tree in `fbc plan`'s words, totals, coverage,
// diagnostics), in a bundle whose other entries are a run's. Whatever the
// bytes, the report's data is an error naming plan.json or one JSON
// document within the report's size bound.
#include "bundle/report_html.h"

#include <simdjson.h>

#include <cstdio>
#include <cstdlib>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "plan_fuzz: broken promise: %s\n", what);
    std::abort();
  }
}

const char kManifest[] = R"({"schema_version": 1, "fbc_version": "0.1.0",
  "run_id": "0123456789abcdef0123456789abcdef", "created_at": "2026-01-01T00:00:00Z",
  "seed": 7, "spec_root": "spec.star", "spec_entry": "spec/spec.star", "interrupted": false,
  "tests": [{"name": "test_a", "outcome": "passed", "duration_ms": 1, "seed": 7},
            {"name": "test_b", "outcome": "failed", "duration_ms": 2, "seed": 7,
             "reason": "boom", "leaf_id": "1", "leaf_choices": {"retries": 1}}]})";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fbc::bundle::Contents c;
  c.entries.push_back({"manifest.json", kManifest, 0644});
  c.entries.push_back({"plan.json", std::string(reinterpret_cast<const char *>(data), size), 0644});
  c.entries.push_back({"spec/spec.star", "def test_a():\n    pass\n", 0644});
  llvm::Expected<std::string> page = fbc::bundle::reportData(c, "run.fb");
  if (!page) {
    std::string msg = llvm::toString(page.takeError());
    check(msg.starts_with("plan.json: "), "an error that does not name plan.json");
    return 0;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  check(!parser.parse(*page).get(root), "the report's data is not JSON");
  return 0;
}
