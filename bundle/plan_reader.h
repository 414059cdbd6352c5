// The one reader of a bundle's plan.json (the plan `fbc plan --format=json`
// writes, docs/plan.md): what `fbc report` shows of the plan
// (bundle/report_data) and what `fbc replay` compares for drift
// (bundle/plan_drift) read it through here, typed.
#pragma once

#include <llvm/Support/Error.h>
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::bundle {

struct PlanJsonAxis {
  std::string name;
  std::vector<std::string> values;  // scalars as text ("1000", "true")
  bool valuesListed = false;        // "values" was an array (null: not known)
  std::optional<uint64_t> size;     // absent: estimated
  std::optional<int64_t> maxFires;  // a probability axis's max_fires
  std::string fault;                // a probability axis's fault
  std::optional<uint32_t> branches; // an interleaving axis's
  std::string policy;               // an interleaving axis's
  bool saturated = false;           // a size too large for 64 bits
};

struct PlanJsonComposition {
  std::string kind; // choose, probability, interleaving, fault_matrix
  std::vector<PlanJsonAxis> axes;
};

struct PlanJsonTest {
  std::string name, kind;
  uint64_t instances = 0;
  bool estimated = false; // instances is a lower bound
  bool saturated = false; // instances is 2^64, a count too large to compute
  std::vector<PlanJsonComposition> compositions;
  std::vector<std::string> faults, matrixCells;
  std::string expect, timeout;
};

struct PlanJsonEdge {
  std::string from, to, protocol, via;
  std::vector<std::string> faultTests;
  std::vector<std::string> bodyFaultTests; // body_fault_tests[].test
};

struct PlanJsonCoverage {
  std::vector<PlanJsonEdge> edges;
  uint64_t uncoveredEdges = 0;
  std::vector<std::string> coveredProtocols, uncoveredProtocols;
};

struct PlanJsonDeterminism {
  std::string level;
  bool strict = false;
  bool isExplicit = false; // the spec called determinism()
};

struct PlanJsonDiagnostic {
  std::string severity, code, message, location;
};

struct PlanJson {
  std::string specPath;
  std::optional<PlanJsonDeterminism> determinism;
  uint64_t totalInstances = 0;
  bool totalEstimated = false;
  bool totalSaturated = false;
  std::vector<std::string> services; // topology.services[].name
  std::vector<PlanJsonTest> tests;
  std::optional<PlanJsonCoverage> coverage;
  std::vector<PlanJsonDiagnostic> diagnostics;
  // Elements of lists past PlanReadLimits that were not read.
  uint64_t testsNotRead = 0, itemsNotRead = 0;
};

// How much of a plan.json a reader keeps: `fbc report` reads a bundle from
// anywhere, and a few KB of zstd can hold millions of tiny list elements,
// each costing far more as a struct than as JSON (docs/report.md,
// "Limits"). Strings are kept whole (they cost what their JSON does).
struct PlanReadLimits {
  size_t maxTests = SIZE_MAX; // the "tests" list
  size_t maxItems = SIZE_MAX; // every other list (axes, values, edges, ...)
};

// A parsed plan.json document read as a plan. Errors: no "tests" array, a
// test without "name" or "instances", a composition without "kind" or
// "axes", an axis without "name". Other members are optional (absent:
// empty, 0, false).
llvm::Expected<PlanJson> readPlanJson(simdjson::dom::element root,
                                      const PlanReadLimits &limits = {});
// The same from its text; also "not valid JSON: <why>".
llvm::Expected<PlanJson> readPlanJson(std::string_view json);

} // namespace fbc::bundle
