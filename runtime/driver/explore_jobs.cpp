// fbc run --explore: an explored test's leaves are release orders found as
// the run goes (docs/run.md, "Exploring orderings"). Leaf 0 releases, at
// every step, the first waiting call by name; with --explore=all each next
// leaf is the depth-first successor of the last one's schedule (the deepest
// step with a later waiting call takes it), until none is left or the
// budget is spent (a warning says so); with --explore=sample each leaf
// draws its order from a seeded stream, budget leaves in all. A replay
// runs the schedules its bundle recorded, exactly those leaves.
#include "runtime/driver/executor.h"

#include "ir/protocols.h"
#include "runtime/driver/leaf_job.h"
#include "runtime/explore/hold_window.h"
#include "runtime/proxy/proxy.h"
#include "runtime/rules/rng.h"

namespace fbc::rt {

namespace {

// The seed of sample leaf `index` of `test`.
uint64_t sampleSeed(uint64_t runSeed, const std::string &test, uint64_t index) {
  SplitMix64 rng(runSeed ^ hashName(test));
  uint64_t s = 0;
  for (uint64_t k = 0; k <= index; ++k)
    s = rng.next();
  return s;
}

// The coverage statement of a DPOR exploration that ended at `job` (its
// last leaf); `budget`: it stopped at the budget with orders left.
void addCoverage(std::optional<TestOutcome> &row, const ir::LeafTest &lt, const explore::Dpor &dpor,
                 std::optional<uint64_t> budget) {
  if (!row)
    return;
  ExploreCoverage c;
  c.classes = dpor.classes();
  c.events = dpor.mostEvents();
  c.eventsVary = dpor.eventsVary();
  if (budget)
    c.incomplete = "stopped at the budget of " + std::to_string(*budget) + " leaves";
  else if (dpor.cut())
    c.incomplete = "preemptions=" + std::to_string(*lt.dpor->preemptions) + " left out " +
                   std::to_string(dpor.cut()) + " backtrack choice" + (dpor.cut() == 1 ? "" : "s");
  else if (dpor.diverged())
    c.incomplete = "a leaf could not follow its schedule";
  row->coverage = std::move(c);
}

} // namespace

void Executor::planExplore(size_t pos, const ir::LeafTest &lt, Jobs &jobs) const {
  std::optional<uint64_t> only = cfg_.leafId;
  auto add = [&](LeafJob job) {
    job.testPos = pos;
    jobs.push_back(std::make_unique<LeafJob>(std::move(job)));
  };
  size_t replayed = 0;
  for (const RunConfig::Schedule &s : cfg_.schedules) {
    if (s.test != lt.test->name)
      continue;
    ++replayed;
    if (only && *only != s.leaf)
      continue;
    LeafJob job = LeafJob::leaf(&lt, s.leaf);
    job.explore.on = true;
    job.explore.pinned = true;
    job.explore.prefix = s.released;
    add(std::move(job));
  }
  if (replayed) {
    if (only && std::none_of(jobs.begin(), jobs.end(),
                             [&](const auto &j) { return j->lt == &lt && j->index == *only; })) {
      LeafJob error;
      error.row = noSuchLeaf(*lt.test, *only, std::to_string(replayed) + " leaves");
      add(std::move(error));
    }
    return;
  }
  LeafJob first = LeafJob::leaf(&lt, 0);
  first.explore.on = true;
  if (lt.dpor)
    first.explore.dpor = std::make_shared<explore::Dpor>(lt.dpor->preemptions);
  else if (cfg_.leaves->explore.policy == ir::ExploreOptions::Policy::Sample)
    first.explore.sample = sampleSeed(cfg_.seed, lt.test->name, 0);
  first.report = !only || *only == 0;
  add(std::move(first));
}

void Executor::exploreNext(Jobs &jobs, size_t at) {
  LeafJob &job = *jobs[at];
  if (!job.explore.on)
    return;
  const ir::LeafTest &lt = *job.lt;
  if (job.row) {
    LeafInfo info;
    info.id = std::to_string(job.index);
    info.schedule = explore::releasedNames(job.explore.steps);
    info.scheduleChoices = explore::choiceLabel(job.explore.steps);
    ir::LeafFields fields;
    fields.schedule = info.scheduleChoices;
    info.label = ir::leafLabel(fields);
    job.row->leaf = std::move(info);
  }
  if (job.explore.diverged)
    job.warnings.push_back(
        {lt.test->loc, "explore: leaf " + std::to_string(job.index) +
                           " could not follow its schedule from step " +
                           std::to_string(*job.explore.diverged) +
                           " (the call it was to release was not waiting): it released the "
                           "first waiting call from there on"});
  if (job.explore.pinned)
    return;
  const ir::ExploreOptions &ex = cfg_.leaves->explore;
  uint64_t next = job.index + 1;
  std::optional<uint64_t> only = cfg_.leafId;
  if (only && *only < next)
    return;
  LeafJob follow = LeafJob::leaf(&lt, next);
  follow.explore.on = true;
  follow.testPos = job.testPos;
  follow.report = !only || *only == next;
  if (ex.policy == ir::ExploreOptions::Policy::Sample && !job.explore.dpor) {
    if (next >= ex.budget)
      return;
    follow.explore.sample = sampleSeed(cfg_.seed, lt.test->name, next);
  } else {
    std::optional<std::vector<std::string>> prefix;
    if (explore::Dpor *dpor = job.explore.dpor.get()) {
      dpor->ran(job.explore.steps, job.explore.diverged);
      prefix = dpor->next();
      follow.explore.dpor = job.explore.dpor;
      if (!prefix && dpor->cut())
        job.warnings.push_back(
            {lt.test->loc, "explore: " + lt.test->name +
                               ": preemptions=" + std::to_string(*lt.dpor->preemptions) +
                               " left out " + std::to_string(dpor->cut()) + " backtrack choice" +
                               (dpor->cut() == 1 ? "" : "s") + " (orders with more preemptions)"});
    } else {
      prefix = explore::nextDepthFirst(job.explore.steps);
    }
    if (!prefix && job.explore.dpor && !only)
      addCoverage(job.row, lt, *job.explore.dpor, std::nullopt);
    if (!prefix) {
      if (only) {
        LeafJob error;
        error.testPos = job.testPos;
        error.row = noSuchLeaf(*lt.test, *only, std::to_string(next) + " leaves");
        error.finished = false;
        jobs.insert(jobs.begin() + ptrdiff_t(at) + 1, std::make_unique<LeafJob>(std::move(error)));
      }
      return; // every release order has run
    }
    if (next >= ex.budget) {
      if (job.explore.dpor && !only)
        addCoverage(job.row, lt, *job.explore.dpor, ex.budget);
      job.warnings.push_back(
          {lt.test->loc, "explore: " + lt.test->name + ": stopped at the budget of " +
                             std::to_string(ex.budget) +
                             " leaves; release orders remain unexplored (--explore-budget)"});
      return;
    }
    follow.explore.prefix = std::move(*prefix);
  }
  jobs.insert(jobs.begin() + ptrdiff_t(at) + 1, std::make_unique<LeafJob>(std::move(follow)));
}

std::unique_ptr<explore::HoldWindow> Executor::openHoldWindow(size_t branches) {
  if (!exploring_ || !schedule_ || !sup_)
    return nullptr;
  std::vector<std::pair<ServiceId, std::vector<int>>> holds;
  for (size_t s = 0; s < exploring_->holds.size(); ++s)
    if (!exploring_->holds[s].empty())
      holds.emplace_back(ServiceId(s), exploring_->holds[s]);
  const ir::ExploreOptions &ex = cfg_.leaves->explore;
  explore::HoldSettings settings{ex.settleNs, ex.quietBoundNs};
  // The proxy holds what it would relay to the services (a message of its
  // own each, touching what its request names): a send to its port touches
  // only its connection. A datagram relay holds nothing: a datagram sent
  // to its port touches the service behind.
  if (proxies_)
    for (const ProxyEndpoint &ep : proxies_->endpoints())
      if (ep.realHost.empty()) {
        const ir::Protocol *p = ir::findProtocol(ep.protocol);
        schedule_->servers[ep.proxyPort] = {ep.realPort, ep.protocol, !(p && p->datagrams)};
      }
  return std::make_unique<explore::HoldWindow>(*sup_, holds, settings, *schedule_, branches,
                                               proxies_);
}

} // namespace fbc::rt
