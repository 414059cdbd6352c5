// The leaf driver: the selected tests become a list of jobs in plan order
// (a test that fans out is one job per leaf of the leaf program, decoded
// mixed-radix; axes of unknown size are sized while leaf 0 runs, and the
// rest of that test follows), the jobs run (one at a time here, or up to
// -j N at once: leaf_scheduler.cpp) and their rows are recorded in plan
// order. --leaf picks one leaf. leafDigit() is how a body-time builtin
// learns the running leaf's digit for its axis.
#include "runtime/driver/executor.h"
#include "runtime/driver/reuse_stage.h"

#include "frontend/eval/thread.h"
#include "runtime/driver/leaf_job.h"
#include "runtime/explore/hold_window.h"
#include "runtime/os/host_check.h"
#include "runtime/proxy/proxy_scopes.h"
#include "runtime/supervisor/launch_config.h"
#include "runtime/supervisor/supervisor.h"

#include <algorithm>
#include <stdexcept>

namespace fbc::rt {

namespace {

// The body runtime a spec sees during a run: each call goes to the
// Executor of the leaf whose body the calling thread runs (one per running
// leaf under -j N; Thread::hostData, which parallel() branches inherit).
class LeafDispatch final : public ir::BodyRuntime {
public:
  explicit LeafDispatch(Executor &owner) : owner_(owner) {}
  star::Value callBuiltin(star::Thread &t, std::string_view name, const star::Args &args) override {
    return of(t).callBuiltin(t, name, args);
  }
  star::Value callStep(star::Thread &t, star::Value receiver, std::string_view method,
                       const star::Args &args) override {
    return of(t).callStep(t, receiver, method, args);
  }
  star::Value callExpect(star::Thread &t, const ir::Expect &e, const star::Args &args) override {
    return of(t).callExpect(t, e, args);
  }

private:
  Executor &of(star::Thread &t) const {
    return t.hostData ? *static_cast<Executor *>(t.hostData) : owner_;
  }
  Executor &owner_;
};

} // namespace

Executor::Executor(ir::LoadedSpec &loaded, RunConfig cfg)
    : loaded_(loaded), cfg_(cfg), runSeed_(cfg.seed) {
  // The leaf program is the contract: the caller lowers it (the pipeline
  // `fbc plan` and `fbc ir` run); the runtime plans nothing itself.
  if (!cfg_.leaves)
    throw std::invalid_argument("rt::Executor needs the leaf program (RunConfig::leaves)");
}

Executor::~Executor() {
  if (owner_)
    loaded_.setBodyRuntime(nullptr);
}

bool Executor::cancelled() const {
  return body_.cancelled() || interrupted() || BodyThreads::branchCancelled();
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
  report.serviceNames = serviceNames(); // services, then clients (their trace ids)
  report.replayFlags = exploreFlags(cfg_.leaves->explore) +
                       (cfg_.requireFaultsFire ? " --require-faults-fire" : "") +
                       (cfg_.hostNetwork ? " --host-network" : "");
  report.showFailOnly = cfg_.showFailOnly;
  int64_t t0 = monotonicNs();
  dispatch_ = std::make_unique<LeafDispatch>(*this);
  loaded_.setBodyRuntime(dispatch_.get());
  std::vector<std::unique_ptr<ir::LeafTest>> work;
  Jobs jobs = planJobs(tests, work);
  // Explored leaves (--explore, a dpor site) follow from the ones before
  // them: one at a time.
  bool exploring =
      std::any_of(jobs.begin(), jobs.end(), [](const auto &j) { return j->explore.on; });
  // A reused service is one instance: its tests take turns (fbc run says
  // so when -j asked for more).
  size_t ran = cfg_.jobs > 1 && !exploring && !reusesServices() ? runJobsConcurrently(jobs, report)
               : cfg_.leafNetns && reusesServices()             ? runJobsInOneNetns(jobs, report)
                                                                : runJobsInline(jobs, report);
  if (ran < jobs.size()) {
    // That leaf and those after it are not run: counted in rows, as the
    // plan and the progress line count them.
    report.interrupted = true;
    for (size_t i = ran; i < jobs.size(); ++i)
      report.notRun += rowsOf(*jobs[i]);
  }
  // Warnings in plan order, each once: those of every leaf up to the
  // interrupted one (its own included, as far as it got).
  std::vector<std::string> warned;
  for (size_t i = 0; i < jobs.size() && i <= ran; ++i)
    for (RunWarning &w : jobs[i]->warnings) {
      std::string key = w.loc.str() + "\n" + w.message;
      if (std::find(warned.begin(), warned.end(), key) == warned.end()) {
        warned.push_back(std::move(key));
        report.warnings.push_back(std::move(w));
      }
    }
  stage_.reset(); // the reused services stop with the run
  loaded_.setBodyRuntime(nullptr);
  report.durationMs = (monotonicNs() - t0) / 1000000;
  return report;
}

Executor::Jobs Executor::planJobs(const std::vector<const ir::Test *> &tests,
                                  std::vector<std::unique_ptr<ir::LeafTest>> &work) const {
  Jobs jobs;
  auto add = [&](size_t pos, LeafJob job) {
    job.testPos = pos;
    jobs.push_back(std::make_unique<LeafJob>(std::move(job)));
  };
  auto errorRow = [&](size_t pos, TestOutcome o) {
    LeafJob job;
    job.row = std::move(o);
    add(pos, std::move(job));
  };
  std::optional<uint64_t> only = cfg_.leafId;
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
      errorRow(i, std::move(o));
      continue;
    }
    if (std::string why = cannotRunReason(loaded_.spec(), lt->needs); !why.empty()) {
      // What this machine cannot run: one error row for the test, whatever
      // its leaves (from the shard that has its leaf 0), and nothing starts.
      if (!sel || sel->all || sel->runs(0)) {
        TestOutcome o = baseOutcome(*tests[i]);
        o.result = Result::Error;
        o.reason = std::move(why);
        o.cause = ir::DiagCode::CannotRun;
        errorRow(i, std::move(o));
      }
      continue;
    }
    if (lt->explored()) {
      planExplore(i, *lt, jobs);
      continue;
    }
    if (!lt->fansOut()) {
      // A test without fan-out has only leaf 0: any other --leaf is an
      // error row, and the test does not run.
      if (only && *only != 0)
        errorRow(i, noSuchLeaf(*tests[i], *only, "1 leaf"));
      else
        add(i, LeafJob::leaf(lt, 0));
      continue;
    }
    bool unknown = std::any_of(lt->axes.begin(), lt->axes.end(),
                               [](const ir::LeafAxis &a) { return !a.known; });
    if (unknown) {
      // A copy: leaf 0 sizes it, then the rest of the test follows.
      work.push_back(std::make_unique<ir::LeafTest>(*lt));
      LeafJob first = LeafJob::leaf(work.back().get(), 0);
      first.sizing = work.back().get();
      first.report = !only || *only == 0;
      add(i, std::move(first));
      if (!only || *only != 0) {
        LeafJob rest;
        rest.lt = work.back().get();
        rest.rest = true;
        add(i, std::move(rest));
      }
      continue;
    }
    if (!only && sel && !sel->all) {
      // A shard's leaves: the test's axes are all known (a test with an
      // axis of unknown size is never split, backend/shard.h).
      for (uint64_t k : sel->leaves)
        add(i, LeafJob::leaf(lt, k));
    } else if (!only) {
      for (uint64_t k = 0; k < lt->count.value; ++k)
        add(i, LeafJob::leaf(lt, k));
    } else if (*only < lt->count.value) {
      add(i, LeafJob::leaf(lt, *only));
    } else {
      errorRow(i, noSuchLeaf(*tests[i], *only, lt->count.str() + " leaves"));
    }
  }
  return jobs;
}

uint64_t Executor::rowsOf(const LeafJob &job) const {
  if (!job.report)
    return 0;
  if (!job.rest)
    return 1;
  // The leaves after leaf 0 (as many as leaf 0 sized, or the plan's "at
  // least" count when it did not finish), or the one --leaf.
  return cfg_.leafId ? 1 : job.lt->count.value - std::min<uint64_t>(job.lt->count.value, 1);
}

void Executor::expandRest(Jobs &jobs, size_t at) const {
  const LeafJob &rest = *jobs[at];
  const ir::LeafTest *lt = rest.lt;
  size_t pos = rest.testPos;
  Jobs now;
  auto add = [&](LeafJob job) {
    job.testPos = pos;
    now.push_back(std::make_unique<LeafJob>(std::move(job)));
  };
  if (!cfg_.leafId) {
    for (uint64_t k = 1; k < lt->count.value; ++k)
      add(LeafJob::leaf(lt, k));
  } else if (*cfg_.leafId < lt->count.value) {
    add(LeafJob::leaf(lt, *cfg_.leafId));
  } else {
    LeafJob error;
    error.row = noSuchLeaf(*lt->test, *cfg_.leafId, lt->count.str() + " leaves");
    add(std::move(error));
  }
  jobs.erase(jobs.begin() + static_cast<ptrdiff_t>(at));
  jobs.insert(jobs.begin() + static_cast<ptrdiff_t>(at), std::make_move_iterator(now.begin()),
              std::make_move_iterator(now.end()));
}

void Executor::recordReady(Jobs &jobs, size_t &next, RunReport &report) {
  for (; next < jobs.size() && jobs[next]->finished && !jobs[next]->interrupted; ++next)
    if (jobs[next]->report)
      record(report, std::move(*jobs[next]->row));
}

size_t Executor::runJobsInline(Jobs &jobs, RunReport &report) {
  size_t recorded = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i]->rest) {
      expandRest(jobs, i);
      if (i == jobs.size())
        break;
    }
    LeafJob &job = *jobs[i];
    if (!job.row) { // else known without running
      if (interrupted())
        return i;
      runJobIsolated(job);
      if (job.interrupted)
        return i;
      finishJob(job);
      exploreNext(jobs, i);
    }
    job.finished = true;
    recordReady(jobs, recorded, report);
  }
  return jobs.size();
}

void Executor::runJob(LeafJob &job) {
  warnings_.clear();
  warnedAt_.clear();
  const ir::LeafTest &lt = *job.lt;
  runningTest_ = &lt;
  if (lt.fansOut()) {
    leafTest_ = &lt;
    leaf_ = lt.decode(job.index);
    sizing_ = job.sizing != nullptr;
    if (sizing_)
      sized_.assign(lt.axes.size(), 0);
  }
  if (job.explore.on) {
    if (job.explore.sample)
      chooser_ = std::make_unique<explore::SampleChooser>(*job.explore.sample);
    else
      chooser_ =
          std::make_unique<explore::PrefixChooser>(job.explore.prefix, job.explore.dpor != nullptr);
    schedule_ = std::make_unique<explore::LeafSchedule>();
    schedule_->chooser = chooser_.get();
    schedule_->readAccess = job.explore.dpor != nullptr;
    for (const ir::Service &svc : loaded_.spec().services)
      for (const ir::Interface &i : svc.interfaces)
        if (i.port > 0 && i.port < 65536)
          schedule_->servers[uint16_t(i.port)] = {uint16_t(i.port), i.protocol};
    exploring_ = &lt;
  }
  bool intr = false;
  TestOutcome o = runRepeated(job, lt, intr);
  if (job.explore.on) {
    job.explore.steps = std::move(schedule_->steps);
    job.explore.diverged = chooser_->diverged();
    schedule_.reset();
    chooser_.reset();
    exploring_ = nullptr;
  }
  leafTest_ = nullptr;
  runningTest_ = nullptr;
  sizing_ = false;
  if (job.sizing)
    job.sized = sized_;
  job.warnings = std::move(warnings_);
  warnings_.clear();
  job.interrupted = intr;
  if (!intr)
    job.row = std::move(o);
}

TestOutcome Executor::runRepeated(const LeafJob &job, const ir::LeafTest &lt, bool &intr) {
  uint32_t runs = job.explore.on ? 1 : std::max<uint32_t>(1, cfg_.runs);
  TestOutcome o;
  for (uint32_t k = 0; k < runs; ++k) {
    runSeed_ = cfg_.seed + k;
    o = runTestGuarded(lt, intr);
    if (runs > 1)
      o.runs = TestOutcome::Runs{k + 1, runs, k};
    if (intr || o.result == Result::Fail || o.result == Result::Error)
      break;
  }
  runSeed_ = cfg_.seed;
  return o;
}

void Executor::finishJob(LeafJob &job) const {
  if (ir::LeafTest *sized = job.sizing) {
    // An axis the body never reached adds no leaves.
    for (size_t a = 0; a < sized->axes.size(); ++a)
      if (!sized->axes[a].known)
        sized->resize(a, std::max<uint64_t>(1, job.sized[a]));
  }
  const ir::LeafTest &work = *job.lt;
  if (!work.fansOut() || !job.row)
    return;
  ir::LeafAssignment assignment = work.decode(job.index);
  LeafInfo info;
  info.id = assignment.id();
  info.label = ir::leafAxesLabel(work, assignment);
  for (size_t a = 0; a < work.axes.size(); ++a) {
    const ir::LeafAxis &ax = work.axes[a];
    uint64_t d = assignment.digits[a];
    switch (ax.kind()) {
    case ir::AxisKind::Choose:
      info.choices.emplace_back(ax.name(), d);
      if (std::optional<std::string> v = ax.optionValue(d))
        info.choiceValues.emplace_back(ax.name(), *v);
      break;
    case ir::AxisKind::Probability:
      info.probability.emplace_back(ax.name(), ir::probabilityVector(d, ax.plan.maxFires));
      break;
    case ir::AxisKind::Interleaving:
      info.interleavings.emplace_back(ax.name(), d);
      break;
    }
  }
  std::sort(info.choices.begin(), info.choices.end());
  std::sort(info.choiceValues.begin(), info.choiceValues.end());
  std::sort(info.probability.begin(), info.probability.end());
  std::sort(info.interleavings.begin(), info.interleavings.end());
  job.row->leaf = std::move(info);
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

std::optional<uint64_t> Executor::leafDigitAt(const ir::RuleSite &site, uint64_t size) {
  return leafTest_ ? leafDigit(leafTest_->findAxis(site), size) : std::nullopt;
}

std::string exploreFlags(const ir::ExploreOptions &e) {
  ir::ExploreOptions d; // the defaults, which go unsaid
  std::string s;
  if (e.policy != ir::ExploreOptions::Policy::None)
    s = std::string(" --explore=") + ir::explorePolicyName(e.policy);
  if (e.budget && e.budget != ir::defaultExploreBudget(e.policy))
    s += " --explore-budget=" + std::to_string(e.budget);
  if (e.settleNs != d.settleNs)
    s += " --explore-settle=" + std::to_string(e.settleNs) + "ns";
  if (e.quietBoundNs != d.quietBoundNs)
    s += " --explore-quiet-bound=" + std::to_string(e.quietBoundNs) + "ns";
  return s;
}

// The row of `t` before it runs: its identity, no result yet.
TestOutcome Executor::baseOutcome(const ir::Test &t) const {
  TestOutcome o;
  o.name = t.name;
  o.kind = t.kind;
  o.seed = runSeed_;
  o.matrix = t.matrix;
  o.scenario = t.cell().scenario;
  o.fault = t.cell().fault;
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
