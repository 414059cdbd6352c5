// The leaf driver: runs the selected tests in order; a test that fans out
// runs once per leaf of the leaf program (mixed-radix decode, axes of
// unknown size sized while leaf 0 runs), each leaf a row with its LeafInfo;
// --leaf picks one. leafDigit() is how a body-time builtin learns the
// running leaf's digit for its axis.
#include "runtime/executor.h"

#include "backend/leaf_lower.h"
#include "passes/pass_manager.h"
#include "runtime/launch_config.h"
#include "runtime/supervisor.h"

#include <algorithm>

namespace fbc::rt {

Executor::Executor(ir::LoadedSpec &loaded, RunConfig cfg) : loaded_(loaded), cfg_(cfg) {
  // The leaf program is the contract: without one from the caller, the
  // spec's own (the same pipeline `fbc plan` and `fbc ir` run).
  if (!cfg_.leaves) {
    ownPlan_ = std::make_unique<ir::Plan>();
    ownLeaves_ = std::make_unique<ir::LeafProgram>();
    backend::leafPipeline().runOrAbort(loaded_.spec(), *ownPlan_, ownLeaves_.get());
    cfg_.leaves = ownLeaves_.get();
  }
}

Executor::~Executor() {
  loaded_.setBodyRuntime(nullptr);
}

bool Executor::cancelled() const {
  return body_.cancelled() || interrupted();
}

bool Executor::interrupted() const {
  return cfg_.interrupted && cfg_.interrupted->load(std::memory_order_relaxed);
}

void Executor::record(RunReport &report, TestOutcome o) {
  report.tests.push_back(std::move(o));
  if (cfg_.onOutcome)
    cfg_.onOutcome(report, report.tests.back());
}

std::string Executor::serviceDir() const {
  return cfg_.serviceDir.empty() ? specDir(loaded_.spec().path) : cfg_.serviceDir;
}

RunReport Executor::run(const std::vector<const ir::Test *> &tests) {
  const ir::Spec &spec = loaded_.spec();
  RunReport report;
  report.starFile = spec.path;
  report.serviceDir = serviceDir();
  report.seed = cfg_.seed;
  for (const ir::Service &s : spec.services)
    report.serviceNames.push_back(s.name);
  int64_t t0 = monotonicNs();
  loaded_.setBodyRuntime(this);
  warnings_.clear();
  warnedAt_.clear();
  for (size_t i = 0; i < tests.size(); ++i) {
    const ir::LeafTest *lt = nullptr;
    for (const ir::LeafTest &x : cfg_.leaves->tests)
      if (x.test == tests[i])
        lt = &x;
    const backend::LeafSelection::PerTest *sel = nullptr;
    if (lt && cfg_.selection) {
      sel = &cfg_.selection->tests[size_t(lt - cfg_.leaves->tests.data())];
      if (!sel->any())
        continue; // another shard's
    }
    if (!lt) {
      TestOutcome o = baseOutcome(*tests[i]);
      o.result = Result::Error;
      o.reason = "internal error: the test is not in the leaf program";
      record(report, std::move(o));
      continue;
    }
    if (lt->fansOut()) {
      if (interrupted() || !runLeaves(*tests[i], *lt, sel, report)) {
        report.interrupted = true;
        report.notRun = tests.size() - i;
        break;
      }
      continue;
    }
    // A test without fan-out has only leaf 0: any other --leaf is an
    // error row, and the test does not run.
    if (cfg_.leafId && *cfg_.leafId != 0) {
      record(report, noSuchLeaf(*tests[i], *cfg_.leafId, "1 leaf"));
      continue;
    }
    bool intr = interrupted();
    TestOutcome o;
    if (!intr)
      o = runTestGuarded(*lt, intr);
    if (intr) {
      report.interrupted = true;
      report.notRun = tests.size() - i;
      break;
    }
    record(report, std::move(o));
  }
  report.warnings = std::move(warnings_);
  loaded_.setBodyRuntime(nullptr);
  report.durationMs = (monotonicNs() - t0) / 1000000;
  return report;
}

bool Executor::runLeaves(const ir::Test &t, const ir::LeafTest &lt,
                         const backend::LeafSelection::PerTest *sel, RunReport &report) {
  // A copy: axes of unknown size are sized while leaf 0 runs.
  ir::LeafTest work = lt;
  bool unknown = std::any_of(work.axes.begin(), work.axes.end(),
                             [](const ir::LeafAxis &a) { return !a.known; });
  std::optional<uint64_t> only = cfg_.leafId;
  auto runOne = [&](uint64_t index, bool keep) {
    leafTest_ = &work;
    leaf_ = work.decode(index);
    sizing_ = index == 0 && unknown;
    if (sizing_)
      sized_.assign(work.axes.size(), 0);
    bool intr = false;
    TestOutcome o = runTestGuarded(work, intr);
    bool wasSizing = sizing_;
    leafTest_ = nullptr;
    sizing_ = false;
    if (intr)
      return false;
    if (wasSizing) {
      // An axis the body never reached adds no leaves.
      for (size_t a = 0; a < work.axes.size(); ++a)
        if (!work.axes[a].known)
          work.resize(a, std::max<uint64_t>(1, sized_[a]));
      unknown = false;
    }
    if (!keep)
      return true;
    LeafInfo info;
    info.id = leaf_.id();
    info.label = ir::leafAxesLabel(work, leaf_);
    for (size_t a = 0; a < work.axes.size(); ++a) {
      const ir::LeafAxis &ax = work.axes[a];
      uint64_t d = leaf_.digits[a];
      switch (ax.kind()) {
      case ir::AxisKind::Choose:
        info.choices.emplace_back(ax.name(), d);
        break;
      case ir::AxisKind::Probability:
        info.probability.emplace_back(ax.name(), ir::probabilityVector(d, ax.plan->maxFires));
        break;
      case ir::AxisKind::Interleaving:
        info.interleavings.emplace_back(ax.name(), d);
        break;
      }
    }
    std::sort(info.choices.begin(), info.choices.end());
    std::sort(info.probability.begin(), info.probability.end());
    std::sort(info.interleavings.begin(), info.interleavings.end());
    o.leaf = std::move(info);
    record(report, std::move(o));
    return true;
  };
  if (only) {
    if (*only > 0 && unknown && !runOne(0, false)) // sizes the axes, not reported
      return false;
    if (*only >= work.count.value) {
      record(report, noSuchLeaf(t, *only, work.count.str() + " leaves"));
      return true;
    }
    return runOne(*only, true);
  }
  if (sel && !sel->all) {
    // A shard's leaves: the test's axes are all known (a test with an axis
    // of unknown size is never split, backend/shard.h).
    for (size_t i = 0; i < sel->leaves.size(); ++i)
      if ((i && interrupted()) || !runOne(sel->leaves[i], true))
        return false;
    return true;
  }
  if (!runOne(0, true))
    return false;
  for (uint64_t k = 1; k < work.count.value; ++k) {
    if (interrupted() || !runOne(k, true))
      return false;
  }
  return true;
}

void Executor::warnOnce(star::Thread &t, std::string message) {
  ir::Loc loc;
  if (t.top && t.top->parent && t.top->parent->file)
    loc = ir::Loc{t.top->parent->file, t.top->parent->pos};
  std::string key = loc.str() + "\n" + message;
  if (std::find(warnedAt_.begin(), warnedAt_.end(), key) != warnedAt_.end())
    return;
  warnedAt_.push_back(key);
  warnings_.push_back({loc, std::move(message)});
}

std::optional<uint64_t> Executor::leafDigit(int axis, uint64_t size) {
  if (!leafTest_ || axis < 0)
    return std::nullopt;
  size_t a = size_t(axis);
  if (sizing_ && !leafTest_->axes[a].known && sized_[a] == 0)
    sized_[a] = std::max<uint64_t>(1, size);
  return leaf_.digits[a];
}

std::optional<uint64_t> Executor::leafDigitAt(ir::AxisKind kind, const ir::Loc &loc,
                                              uint64_t size) {
  return leafTest_ ? leafDigit(leafTest_->findAxis(kind, loc), size) : std::nullopt;
}

std::optional<uint64_t> Executor::leafDigitKeyed(ir::AxisKind kind, std::string_view key,
                                                 uint64_t size) {
  return leafTest_ ? leafDigit(leafTest_->findAxis(kind, key), size) : std::nullopt;
}

// The row of `t` before it runs: its identity, no result yet.
TestOutcome Executor::baseOutcome(const ir::Test &t) const {
  TestOutcome o;
  o.name = t.name;
  o.kind = t.kind;
  o.seed = cfg_.seed;
  o.matrix = t.matrix;
  o.scenario = t.cell.scenario;
  o.fault = t.cell.fault;
  if (t.expect)
    o.expectation = t.expect->name;
  return o;
}

TestOutcome Executor::noSuchLeaf(const ir::Test &t, uint64_t leaf, const std::string &has) const {
  TestOutcome o = baseOutcome(t);
  o.result = Result::Error;
  o.reason = "no leaf \"" + std::to_string(leaf) + "\": the test has " + has;
  return o;
}

} // namespace fbc::rt
