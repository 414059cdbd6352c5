#include "bundle/plan_reader.h"

namespace fbc::bundle {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// A reading error, said once by readPlanJson with which plan it was.
struct PlanError {
  std::string message;
};

std::string str(element e, const char *key) {
  std::string_view v;
  if (e.type() == element_type::OBJECT && !e[key].get(v))
    return std::string(v);
  return "";
}

bool flag(element e, const char *key) {
  bool b = false;
  return e.type() == element_type::OBJECT && !e[key].get(b) && b;
}

template <typename T> std::optional<T> number(element e, const char *key) {
  T v;
  if (e.type() != element_type::OBJECT || e[key].get(v))
    return std::nullopt;
  return v;
}

std::string scalarText(element e) {
  switch (e.type()) {
  case element_type::STRING:
    return std::string(std::string_view(e));
  case element_type::INT64:
    return std::to_string(int64_t(e));
  case element_type::UINT64:
    return std::to_string(uint64_t(e));
  case element_type::BOOL:
    return bool(e) ? "true" : "false";
  case element_type::NULL_VALUE:
    return "null";
  default:
    return simdjson::minify(e);
  }
}

// Reads a plan within its limits, counting what it leaves out.
struct Reader {
  const PlanReadLimits &limits;
  uint64_t testsNotRead = 0, itemsNotRead = 0;

  // e[key] as an array's first `max` elements (the rest counted in
  // `notRead`); none when absent or not an array.
  std::vector<element> items(element e, const char *key, size_t max, uint64_t &notRead) {
    element a;
    std::vector<element> out;
    if (e.type() == element_type::OBJECT && !e[key].get(a) && a.type() == element_type::ARRAY)
      for (element x : simdjson::dom::array(a)) {
        if (out.size() < max)
          out.push_back(x);
        else
          ++notRead;
      }
    return out;
  }
  std::vector<element> items(element e, const char *key) {
    return items(e, key, limits.maxItems, itemsNotRead);
  }

  std::vector<std::string> texts(element e, const char *key) {
    std::vector<std::string> out;
    for (element x : items(e, key))
      out.push_back(scalarText(x));
    return out;
  }

  PlanJsonAxis readAxis(element a, const std::string &test) {
    PlanJsonAxis ax;
    if (a.type() != element_type::OBJECT || a["name"].get_string().error())
      throw PlanError{"test " + test + ": an axis without a name"};
    ax.name = str(a, "name");
    ax.values = texts(a, "values");
    element v;
    ax.valuesListed = !a["values"].get(v) && v.type() == element_type::ARRAY;
    ax.size = number<uint64_t>(a, "size");
    ax.maxFires = number<int64_t>(a, "max_fires");
    ax.fault = str(a, "fault");
    if (std::optional<uint64_t> b = number<uint64_t>(a, "branches"))
      ax.branches = uint32_t(*b);
    ax.policy = str(a, "policy");
    ax.saturated = flag(a, "saturated");
    return ax;
  }

  PlanJsonTest readTest(element t) {
    PlanJsonTest p;
    std::optional<uint64_t> instances = number<uint64_t>(t, "instances");
    if (t.type() != element_type::OBJECT || t["name"].get_string().error() || !instances)
      throw PlanError{"a test without \"name\" or \"instances\""};
    p.name = str(t, "name");
    p.kind = str(t, "kind");
    p.instances = *instances;
    p.estimated = flag(t, "estimated");
    p.saturated = flag(t, "saturated");
    for (element c : items(t, "compositions")) {
      element axes;
      if (c.type() != element_type::OBJECT || c["kind"].get_string().error() ||
          c["axes"].get(axes) || axes.type() != element_type::ARRAY)
        throw PlanError{"test " + p.name + ": a composition without kind or axes"};
      PlanJsonComposition comp{str(c, "kind"), {}};
      for (element a : items(c, "axes"))
        comp.axes.push_back(readAxis(a, p.name));
      p.compositions.push_back(std::move(comp));
    }
    p.faults = texts(t, "faults");
    p.matrixCells = texts(t, "matrix_cells");
    p.expect = str(t, "expect");
    p.timeout = str(t, "timeout");
    return p;
  }

  PlanJsonCoverage readCoverage(element cov) {
    PlanJsonCoverage c;
    for (element e : items(cov, "edges")) {
      PlanJsonEdge edge{str(e, "from"),          str(e, "to"),
                        str(e, "protocol"),      str(e, "via"),
                        texts(e, "fault_tests"), {}};
      for (element x : items(e, "body_fault_tests"))
        edge.bodyFaultTests.push_back(str(x, "test"));
      c.edges.push_back(std::move(edge));
    }
    c.uncoveredEdges = number<uint64_t>(cov, "uncovered_edges").value_or(0);
    c.coveredProtocols = texts(cov, "covered_protocols");
    c.uncoveredProtocols = texts(cov, "uncovered_protocols");
    return c;
  }

  PlanJson readPlan(element root) {
    PlanJson plan;
    element tests;
    if (root.type() != element_type::OBJECT || root["tests"].get(tests) ||
        tests.type() != element_type::ARRAY)
      throw PlanError{"no \"tests\" array"};
    plan.specPath = str(root, "spec_path");
    element d;
    if (!root["determinism"].get(d))
      plan.determinism =
          PlanJsonDeterminism{str(d, "level"), flag(d, "strict"), flag(d, "explicit")};
    element totals;
    if (!root["totals"].get(totals)) {
      plan.totalInstances = number<uint64_t>(totals, "instances").value_or(0);
      plan.totalEstimated = flag(totals, "estimated");
      plan.totalSaturated = flag(totals, "saturated");
    }
    element topo;
    if (!root["topology"].get(topo))
      for (element s : items(topo, "services"))
        plan.services.push_back(str(s, "name"));
    for (element t : items(root, "tests", limits.maxTests, testsNotRead))
      plan.tests.push_back(readTest(t));
    element cov;
    if (!root["coverage"].get(cov) && cov.type() == element_type::OBJECT)
      plan.coverage = readCoverage(cov);
    for (element dg : items(root, "diagnostics"))
      plan.diagnostics.push_back(
          {str(dg, "severity"), str(dg, "code"), str(dg, "message"), str(dg, "location")});
    plan.testsNotRead = testsNotRead;
    plan.itemsNotRead = itemsNotRead;
    return plan;
  }
};

} // namespace

llvm::Expected<PlanJson> readPlanJson(element root, const PlanReadLimits &limits) {
  try {
    return Reader{limits}.readPlan(root);
  } catch (const PlanError &e) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", e.message.c_str());
  }
}

llvm::Expected<PlanJson> readPlanJson(std::string_view json) {
  simdjson::dom::parser parser;
  element root;
  simdjson::padded_string padded(json);
  if (auto err = parser.parse(padded).get(root))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "not valid JSON: %s",
                                   simdjson::error_message(err));
  return readPlanJson(root);
}

} // namespace fbc::bundle
