// fault_matrix(scenarios=, faults=, default_expect=, overrides=, exclude=,
// monitors=, require_faults_fire=): one fault_scenario test per cell of
// scenarios x faults, named test_matrix_<scenario>_<fault>.
#include "frontend/lib/objects.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/expect_value.h"
#include "ir/builtins/spec_builder.h"
#include "ir/builtins/temporal_values.h"
#include "ir/duration.h"
#include "ir/quote.h"

#include <algorithm>

namespace fbc::ir::builtins {

using star::Value;

namespace {

constexpr int64_t kCellTimeout = 30 * kSecond;

std::string cellText(const MatrixCell &c) {
  return "(" + c.scenario + ", " + c.fault + ")";
}

// A (scenario, fault_assumption) tuple; `what` names it in messages.
bool readCell(Value v, MatrixCell &cell) {
  auto *t = v.as<star::Tuple>();
  if (!t || t->size() != 2 || !isCallable(t->elems()[0]))
    return false;
  auto *a = valueAs<AssumptionValue>(t->elems()[1]);
  if (!a)
    return false;
  cell.scenario = std::string(t->elems()[0].obj()->name());
  cell.fault = a->data.name;
  return true;
}

bool hasCell(const Matrix &m, const MatrixCell &c) {
  bool s = std::any_of(m.scenarios.begin(), m.scenarios.end(),
                       [&](const FunctionRef &f) { return f.name == c.scenario; });
  bool f = std::find(m.faults.begin(), m.faults.end(), c.fault) != m.faults.end();
  return s && f;
}

bool excluded(const Matrix &m, const std::string &s, const std::string &f) {
  return std::any_of(m.exclude.begin(), m.exclude.end(),
                     [&](const MatrixCell &c) { return c.scenario == s && c.fault == f; });
}

// scenarios=: callables, each named once (cells are named after them).
void readScenarios(const CallSite &site, Matrix &m, Value v, const syntax::Expr *lit) {
  Loc at = site.at(lit);
  std::vector<Value> items;
  if (!listItems(v, items))
    site.fail(at, "fault_matrix() scenarios= must be a list of callables, got " + typeOf(v));
  for (size_t i = 0; i < items.size(); ++i) {
    Loc el = site.at(CallSite::element(lit, i));
    if (!isCallable(items[i]))
      site.fail(el, "fault_matrix() scenarios[" + std::to_string(i) + "] must be a callable, got " +
                        typeOf(items[i]));
    FunctionRef fn = functionRef(items[i]);
    for (const FunctionRef &prev : m.scenarios)
      if (prev.name == fn.name)
        site.fail(el, "fault_matrix(): two scenarios are named " + quote(fn.name) +
                          "; cells are named after the scenario function, so each needs its "
                          "own name");
    m.scenarios.push_back(std::move(fn));
  }
}

// faults=: fault_assumption values, each listed once.
void readFaults(const CallSite &site, Matrix &m, Value v, const syntax::Expr *lit) {
  Loc at = site.at(lit);
  std::vector<Value> items;
  if (!listItems(v, items))
    site.fail(at,
              "fault_matrix() faults= must be a list of fault_assumption values, got " + typeOf(v));
  for (size_t i = 0; i < items.size(); ++i) {
    Loc el = site.at(CallSite::element(lit, i));
    auto *a = valueAs<AssumptionValue>(items[i]);
    if (!a)
      site.fail(el, "fault_matrix() faults[" + std::to_string(i) +
                        "] must be a fault_assumption, got " + typeOf(items[i]));
    if (std::find(m.faults.begin(), m.faults.end(), a->data.name) != m.faults.end())
      site.fail(el, "fault_matrix(): fault " + quote(a->data.name) + " is listed twice");
    m.faults.push_back(a->data.name);
  }
}

// exclude=: (scenario, fault) tuples.
void readExclude(const CallSite &site, Matrix &m, Value v, const syntax::Expr *lit) {
  Loc at = site.at(lit);
  std::vector<Value> items;
  if (!listItems(v, items))
    site.fail(at, "fault_matrix() exclude= must be a list of (scenario, fault) tuples, got " +
                      typeOf(v));
  for (size_t i = 0; i < items.size(); ++i) {
    MatrixCell c;
    c.loc = site.at(CallSite::element(lit, i));
    if (!readCell(items[i], c))
      site.fail(c.loc, "fault_matrix() exclude[" + std::to_string(i) +
                           "] must be a (scenario, fault) tuple");
    m.exclude.push_back(std::move(c));
  }
}

// overrides=: {(scenario, fault): expect}, read once scenarios, faults and
// exclusions are known.
void readOverrides(const CallSite &site, Matrix &m, Value overrides) {
  const syntax::Expr *lit = site.keywordValue("overrides");
  auto *d = overrides.as<star::Dict>();
  if (!d)
    site.fail(site.at(lit), "fault_matrix() overrides= must be a dict, got " + typeOf(overrides));
  size_t i = 0;
  for (const star::HashTable::Entry &e : d->table.entries()) {
    if (e.value.isNull())
      continue;
    MatrixOverride o;
    o.cell.loc = site.at(CallSite::element(lit, i++));
    if (!readCell(e.key, o.cell))
      site.fail(o.cell.loc, "fault_matrix() overrides keys must be (scenario, fault) tuples, "
                            "got " +
                                typeOf(e.key));
    if (!isCallable(e.value))
      site.fail(o.cell.loc,
                "fault_matrix() overrides values must be callables, got " + typeOf(e.value));
    if (!hasCell(m, o.cell))
      site.fail(o.cell.loc, "fault_matrix(): overrides key " + cellText(o.cell) +
                                " is not a cell of this matrix");
    if (excluded(m, o.cell.scenario, o.cell.fault))
      site.fail(o.cell.loc,
                "fault_matrix(): overrides key " + cellText(o.cell) + " names an excluded cell");
    o.expect = expectFrom(e.value);
    m.overrides.push_back(std::move(o));
  }
}

// The matrix's cells: one fault_matrix test per (scenario, fault) not
// excluded, in scenario-major order.
std::vector<Test> matrixCells(const CallSite &site, SpecBuilder &b, const Matrix &m) {
  std::vector<Test> cells;
  std::shared_ptr<const TestTemporal> monitors; // shared by the cells
  if (!m.monitors.empty())
    monitors = std::make_shared<const TestTemporal>(TestTemporal{m.monitors, {}, {}, {}});
  for (const FunctionRef &s : m.scenarios)
    for (const std::string &f : m.faults) {
      if (excluded(m, s.name, f))
        continue;
      Test c;
      c.name = "test_matrix_" + s.name + "_" + f;
      c.kind = TestKind::FaultMatrix;
      c.body = s;
      c.faults = {f};
      for (const MatrixOverride &o : m.overrides)
        if (o.cell.scenario == s.name && o.cell.fault == f)
          c.expect = std::make_shared<const Expect>(o.expect);
      if (!c.expect && m.defaultExpect)
        c.expect = m.defaultExpect;
      c.timeoutNs = kCellTimeout;
      c.matrix = m.index;
      c.requireFaultsFire = m.requireFaultsFire;
      c.temporal = monitors;
      c.loc = m.loc;
      if (const Test *prev = b.findFaultScenarioTest(c.name))
        site.fail("fault_matrix(): cell " + quote(c.name) + " is already registered (at " +
                  prev->loc.str() + ")");
      for (const Test &other : cells)
        if (other.name == c.name)
          site.fail("fault_matrix(): two cells are both named " + quote(c.name));
      cells.push_back(std::move(c));
    }
  return cells;
}

// fault_matrix()'s keywords; overrides= is read once scenarios= and
// faults= are known.
struct MatrixArgs {
  Matrix &m;
  Value overrides;
};

// A reader of (site, matrix, value, literal) as a parameter's.
template <void (*Read)(const CallSite &, Matrix &, Value, const syntax::Expr *)>
void withLiteral(MatrixArgs &a, const Arg &arg) {
  Read(arg.site(), a.m, arg.value, arg.expr);
}

void readDefaultExpect(MatrixArgs &a, const Arg &arg) {
  if (isNone(arg.value))
    return;
  if (!isCallable(arg.value))
    arg.site().fail(arg.at(),
                    "fault_matrix() default_expect= must be a callable, got " + typeOf(arg.value));
  a.m.defaultExpect = std::make_shared<const Expect>(expectFrom(arg.value));
}

void readOverridesLater(MatrixArgs &a, const Arg &arg) {
  a.overrides = arg.value;
}

void readMonitors(MatrixArgs &a, const Arg &arg) {
  a.m.monitors = claimMonitors(arg.site(), arg.value, "fault_matrix()");
}

void readRequireFaultsFire(MatrixArgs &a, const Arg &arg) {
  auto *flag = arg.value.as<star::Bool>();
  if (!flag)
    arg.site().fail(arg.at(),
                    "fault_matrix() require_faults_fire= must be a bool, got " + typeOf(arg.value));
  a.m.requireFaultsFire = flag->value;
}

constexpr Param<MatrixArgs> kMatrixParams[] = {
    {"scenarios", withLiteral<readScenarios>},      {"faults", withLiteral<readFaults>},
    {"default_expect", readDefaultExpect},          {"overrides", readOverridesLater},
    {"exclude", withLiteral<readExclude>},          {"monitors", readMonitors},
    {"require_faults_fire", readRequireFaultsFire},
};

} // namespace

Value faultMatrixFn(star::Thread &t, Value, const star::Args &args) {
  SpecBuilder &b = SpecBuilder::of(t);
  CallSite site(t, b.callSites);
  b.requireLoading(site, "fault_matrix");
  if (!args.positional.empty())
    site.fail(site.at(site.positional(0)), "fault_matrix() takes only keyword arguments");
  Matrix m;
  m.index = static_cast<uint32_t>(b.matrices.size());
  m.loc = site.loc();
  MatrixArgs read{m, {}};
  bindKeywords(BindCall(site, args, {"fault_matrix()", UnknownForm::Reference}), kMatrixParams,
               read);
  Value overrides = read.overrides;
  if (m.scenarios.empty())
    site.fail(site.at(site.keywordValue("scenarios")),
              "fault_matrix() requires scenarios= with at least one scenario");
  if (m.faults.empty())
    site.fail(site.at(site.keywordValue("faults")),
              "fault_matrix() requires faults= with at least one fault_assumption");
  for (const MatrixCell &c : m.exclude)
    if (!hasCell(m, c))
      site.fail(c.loc,
                "fault_matrix(): exclude entry " + cellText(c) + " is not a cell of this matrix");

  if (overrides && !isNone(overrides))
    readOverrides(site, m, overrides);

  std::vector<Test> cells = matrixCells(site, b, m);
  for (Test &c : cells)
    b.faultScenarioTests.push_back(std::move(c));
  b.matrices.push_back(std::move(m));
  return star::none();
}

} // namespace fbc::ir::builtins
